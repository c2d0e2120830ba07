// An exact, brute-force SearchIndex held in memory: every query scans the owner's entities (cosine
// for vectors, BM25 for words, RRF for hybrid). For unit tests of the search module only; never wired
// in production (the module opens LanceDB or Elasticsearch).
import type {
  EntityRef,
  IndexedEntity,
  IndexedKaboodle,
  KaboodleRef,
  IndexStats,
  RelatedQuery,
  SearchHit,
  SearchIndex,
  UpsertOutcome,
} from '../index/search-index.port.ts';

interface Slot {
  version: number;
  ownerId: string;
  /** Undefined: deleted at `version` (a tombstone, so a late older upsert does not resurrect it). */
  entity: IndexedEntity | undefined;
}

const RRF_K = 60;
const CONTENT_PREVIEW = 300;

export function tokenize(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function searchableText(e: IndexedEntity): string {
  return [e.title, e.title, e.description, e.content, e.category, ...e.hashtags, ...e.keywords].join(' ');
}

function toHit(e: IndexedEntity, score: number, excerpt?: string): SearchHit {
  return {
    entityType: e.entityType,
    id: e.id,
    title: e.title,
    description: e.description,
    content: e.content.slice(0, CONTENT_PREVIEW),
    url: e.url,
    imageUrl: e.imageUrl,
    category: e.category,
    hashtags: [...e.hashtags],
    score: Math.max(0, Math.min(1, score)),
    ...(excerpt !== undefined ? { excerpt } : {}),
  };
}

export interface MemorySearchIndexOptions {
  dimensions: number;
  /** Make ping() fail (readiness tests). */
  failPing?: () => boolean;
}

export interface MemorySearchIndex extends SearchIndex {
  /** Calls made to upsert/delete with their sizes (batching tests). */
  readonly writes: Array<{ op: 'upsert' | 'delete'; size: number }>;
}

export function createMemorySearchIndex(options: MemorySearchIndexOptions): MemorySearchIndex {
  const slots = new Map<string, Slot>();
  const keyOf = (r: { entityType: string; id: string }) => `${r.entityType}:${r.id}`;
  const writes: Array<{ op: 'upsert' | 'delete'; size: number }> = [];
  let closed = false;

  // Kaboodles by owner and id; undefined kaboodle: deleted at that version.
  const kaboodles = new Map<
    string,
    { version: number; kaboodle: IndexedKaboodle | undefined; ownerId: string }
  >();
  const kaboodleKey = (ownerId: string, id: string) => JSON.stringify([ownerId, id]);
  const putKaboodle = (r: KaboodleRef, kaboodle: IndexedKaboodle | undefined): boolean => {
    const slot = kaboodles.get(kaboodleKey(r.ownerId, r.id));
    if (slot && slot.version >= r.version) return false;
    kaboodles.set(kaboodleKey(r.ownerId, r.id), { version: r.version, kaboodle, ownerId: r.ownerId });
    return true;
  };

  const live = (ownerId: string) =>
    [...slots.values()].filter((s) => s.ownerId === ownerId && s.entity).map((s) => s.entity!);

  function bm25(query: string, docs: IndexedEntity[]): Map<string, number> {
    const terms = [...new Set(tokenize(query))];
    const scores = new Map<string, number>();
    if (terms.length === 0 || docs.length === 0) return scores;
    const tokenized = docs.map((d) => tokenize(searchableText(d)));
    const avg = tokenized.reduce((n, t) => n + t.length, 0) / docs.length || 1;
    for (const term of terms) {
      const df = tokenized.filter((t) => t.includes(term)).length;
      if (df === 0) continue;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      tokenized.forEach((tokens, i) => {
        const tf = tokens.filter((t) => t === term).length;
        if (tf === 0) return;
        const s = (idf * tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * (tokens.length / avg)));
        const key = keyOf(docs[i]!);
        scores.set(key, (scores.get(key) ?? 0) + s);
      });
    }
    return scores;
  }

  function bestPassage(e: IndexedEntity, query: { text: string; vector?: Float32Array }): string | undefined {
    if (e.passages.length === 0) return undefined;
    const terms = new Set(tokenize(query.text));
    let best: { text: string; score: number } | undefined;
    for (const p of e.passages) {
      const words = tokenize(p.text);
      const overlap = words.length ? words.filter((w) => terms.has(w)).length / Math.sqrt(words.length) : 0;
      const s = (query.vector ? cosine(query.vector, p.vector) : 0) + 0.1 * overlap;
      if (!best || s > best.score) best = { text: p.text, score: s };
    }
    return best?.text;
  }

  const index: MemorySearchIndex = {
    kind: 'lancedb',
    dimensions: options.dimensions,
    writes,
    async open() {
      closed = false;
    },
    async upsert(entities) {
      writes.push({ op: 'upsert', size: entities.length });
      const outcome: UpsertOutcome = { applied: 0, stale: 0 };
      for (const e of entities) {
        if (e.vector.length !== options.dimensions) {
          throw new Error(
            `entity ${e.id} has a ${e.vector.length}-dimensional vector, expected ${options.dimensions}`,
          );
        }
        const slot = slots.get(keyOf(e));
        if (slot && slot.version >= e.version) {
          outcome.stale++;
          continue;
        }
        slots.set(keyOf(e), { version: e.version, ownerId: e.ownerId, entity: e });
        outcome.applied++;
      }
      return outcome;
    },
    async delete(refs: EntityRef[]) {
      writes.push({ op: 'delete', size: refs.length });
      const outcome: UpsertOutcome = { applied: 0, stale: 0 };
      for (const r of refs) {
        const slot = slots.get(keyOf(r));
        if (slot && slot.version >= r.version) {
          outcome.stale++;
          continue;
        }
        slots.set(keyOf(r), { version: r.version, ownerId: r.ownerId, entity: undefined });
        outcome.applied++;
      }
      return outcome;
    },
    async deleteOwner(ownerId) {
      for (const [key, slot] of slots) if (slot.ownerId === ownerId) slots.delete(key);
      for (const [key, slot] of kaboodles) if (slot.ownerId === ownerId) kaboodles.delete(key);
    },
    async search(query) {
      const only = query.only ? new Set(query.only.map(keyOf)) : undefined;
      const docs = live(query.ownerId).filter(
        (e) =>
          (!only || only.has(keyOf(e))) &&
          (!query.entityTypes?.length || query.entityTypes.includes(e.entityType)) &&
          (query.category === undefined || e.category === query.category) &&
          (query.hashtags ?? []).every((t) => e.hashtags.includes(t)),
      );
      const byKey = new Map(docs.map((d) => [keyOf(d), d]));
      const vectorRanking = (): Array<[string, number]> =>
        query.vector
          ? docs
              .map((d): [string, number] => [keyOf(d), cosine(query.vector!, d.vector)])
              .sort((a, b) => b[1] - a[1])
          : [];
      const keywordRanking = (): Array<[string, number]> =>
        [...bm25(query.text, docs).entries()].sort((a, b) => b[1] - a[1]);

      let ranked: Array<[string, number, number?]>;
      if (query.mode === 'semantic') {
        if (!query.vector) throw new Error('a semantic search needs a query vector');
        ranked = vectorRanking().map(([k, s]) => [k, Math.max(0, s), s]);
      } else if (query.mode === 'keyword') {
        const raw = keywordRanking();
        const top = raw[0]?.[1] ?? 1;
        ranked = raw.map(([k, s]) => [k, s / top, s]);
      } else {
        if (!query.vector) throw new Error('a hybrid search needs a query vector');
        const fused = new Map<string, number>();
        const window = Math.max(query.limit * 2, 20);
        for (const list of [vectorRanking().slice(0, window), keywordRanking().slice(0, window)]) {
          list.forEach(([k], rank) => fused.set(k, (fused.get(k) ?? 0) + 1 / (RRF_K + rank + 1)));
        }
        ranked = [...fused.entries()]
          .map(([k, s]): [string, number] => [k, s / (2 / (RRF_K + 1))])
          .sort((a, b) => b[1] - a[1]);
      }
      return ranked.slice(0, query.limit).map(([k, s, raw]) => {
        const e = byKey.get(k)!;
        const hit = toHit(e, s, query.withExcerpts ? bestPassage(e, query) : undefined);
        return raw === undefined ? hit : { ...hit, raw };
      });
    },
    async searchKeys(query) {
      return (await index.search({ ...query, withExcerpts: false })).map((h) => ({
        entityType: h.entityType,
        id: h.id,
        score: h.score,
        ...(h.raw !== undefined ? { raw: h.raw } : {}),
      }));
    },
    async hitsOf(query) {
      return query.refs.flatMap((r) => {
        const e = slots.get(keyOf(r))?.entity;
        if (!e || e.ownerId !== query.ownerId) return [];
        const excerpt = query.excerptsFor ? bestPassage(e, query.excerptsFor) : undefined;
        const hit = toHit(e, r.score, excerpt);
        return r.raw === undefined ? [hit] : [{ ...hit, raw: r.raw }];
      });
    },
    async related(query: RelatedQuery) {
      const self = slots.get(keyOf(query))?.entity;
      if (!self || self.ownerId !== query.ownerId) return [];
      return live(query.ownerId)
        .filter((e) => keyOf(e) !== keyOf(self))
        .map((e) => ({ e, s: cosine(self.vector, e.vector) }))
        .filter((x) => x.s >= (query.minSimilarity ?? 0))
        .sort((a, b) => b.s - a.s)
        .slice(0, query.limit)
        .map((x) => toHit(x.e, x.s));
    },
    async versionOf(ref) {
      const slot = slots.get(keyOf(ref));
      return slot?.entity && slot.ownerId === ref.ownerId ? slot.version : undefined;
    },
    async stats(ownerId?: string): Promise<IndexStats> {
      const entities = [...slots.values()].filter(
        (s) => s.entity && (ownerId === undefined || s.ownerId === ownerId),
      ).length;
      return { entities, sizeBytes: entities * options.dimensions * 4 };
    },
    async entityCount(ownerId: string): Promise<number> {
      return [...slots.values()].filter((s) => s.entity && s.ownerId === ownerId).length;
    },
    async *listLive({ updatedBefore, batchSize }) {
      const refs: EntityRef[] = [...slots.values()].flatMap((s) =>
        s.entity && s.entity.updatedAt < updatedBefore
          ? [{ entityType: s.entity.entityType, id: s.entity.id, ownerId: s.ownerId, version: s.version }]
          : [],
      );
      const size = Math.max(1, batchSize ?? 1_000);
      for (let i = 0; i < refs.length; i += size) yield refs.slice(i, i + size);
    },
    kaboodles: {
      async upsert(list) {
        let applied = 0;
        for (const k of list) if (putKaboodle(k, { ...k, members: [...k.members] })) applied++;
        return { applied, stale: list.length - applied };
      },
      async delete(refs) {
        let applied = 0;
        for (const r of refs) if (putKaboodle(r, undefined)) applied++;
        return { applied, stale: refs.length - applied };
      },
      async get(ownerId, id) {
        const k = kaboodles.get(kaboodleKey(ownerId, id))?.kaboodle;
        return k && k.ownerId === ownerId ? { ...k, version: k.version } : undefined;
      },
      async *listLive({ updatedBefore }) {
        const refs = [...kaboodles.values()].flatMap((s) =>
          s.kaboodle && s.kaboodle.updatedAt < updatedBefore
            ? [{ ownerId: s.ownerId, id: s.kaboodle.id, version: s.version }]
            : [],
        );
        if (refs.length > 0) yield refs;
      },
    },
    async ping() {
      if (closed) throw new Error('the index is closed');
      if (options.failPing?.()) throw new Error('the index does not answer');
    },
    async close() {
      closed = true;
    },
  };
  return index;
}
