// The embedded index's ranked reads: search (kNN, BM25 or their fusion, from the table or an owner's
// memory index, then the final page's display rows and, on request, document excerpts) and related
// entities by an entity's stored vector.
import * as lancedb from '@lancedb/lancedb';
import type { Table } from '@lancedb/lancedb';
import { InputError, NotFoundError } from '@kaboodle/platform';
import { entityFilter, sqlString, sqlStringList } from './lance-filter.ts';
import type { HitsQuery, RankedRef, RelatedQuery, SearchHit, SearchQuery } from './search-index.port.ts';
import {
  bestPassage,
  bm25ToScores,
  byScoreThenKey,
  clampLimit,
  cosineDistanceToScore,
  fusionDepth,
  LEAD_BOOST,
  PAIR_BOOST,
  reciprocalRankFusion,
} from './search-scoring.ts';
import type { HitRowCache, DisplayRow } from './lancedb-hit-cache.ts';
import type { AnnKind, AnnSearchSettings } from './lancedb-maintenance.ts';
import { wordPairs } from './keyword-index.ts';
import { memoryCanFilter } from './lancedb-memory-index.ts';
import type { MemoryIndexes } from './lancedb-memory-index.ts';
import { entityKey, floatView, HIT_COLUMNS, listOf, refOfKey, toHit } from './lancedb-rows.ts';

export interface LanceQueryContext {
  table(): Table;
  dims: number;
  annKind: AnnKind;
  ann: AnnSearchSettings;
  annIndexed(): boolean;
  /** An owner with at most this many live rows is searched by exact flat scan even with an ANN index. */
  flatMaxOwnerRows: number;
  /** Hybrid: run kNN and BM25 at once, or one after the other. */
  parallelStages: boolean;
  liveRowsOf(ownerId: string): Promise<number>;
  memory: MemoryIndexes;
  hitCache: HitRowCache;
  checkVector(v: Float32Array, what: string): void;
}

export interface Candidate {
  key: string;
  raw: number;
}

export interface LanceQueries {
  search(query: SearchQuery): Promise<SearchHit[]>;
  searchKeys(query: SearchQuery): Promise<RankedRef[]>;
  hitsOf(query: HitsQuery): Promise<SearchHit[]>;
  related(query: RelatedQuery): Promise<SearchHit[]>;
  knn(filter: string, vector: Float32Array, k: number, exact: boolean): Promise<Candidate[]>;
  /** Per-stage timings of the last search() call (ms), for the bench. */
  lastTimings(): Record<string, number>;
}

interface Ranked {
  key: string;
  score: number;
  raw?: number;
}

interface Ranking {
  ranked: Ranked[];
  /** The query's text, trimmed. */
  text: string;
  stage: Record<string, number>;
  started: number;
}

/** Times `fn` into `stage[name]` (ms), for lastTimings(). */
const markIn =
  (stage: Record<string, number>) =>
  async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const s = performance.now();
    try {
      return await fn();
    } finally {
      stage[name] = performance.now() - s;
    }
  };

export function createLanceQueries(ctx: LanceQueryContext): LanceQueries {
  const { table: t, dims, annKind, ann, memory } = ctx;
  let timings: Record<string, number> = {};

  async function hitRowsOf(ownerId: string, keys: string[]): Promise<Map<string, DisplayRow>> {
    const mem = memory.readyFor(ownerId);
    if (mem) {
      // every live entity of the owner is here, as of the last write
      const out = new Map<string, DisplayRow>();
      for (const k of keys) {
        const row = mem.rows.get(k);
        if (row) out.set(k, row);
      }
      return out;
    }
    return ctx.hitCache.rowsOf(
      ownerId,
      keys,
      async (owner, missing) =>
        (await t()
          .query()
          .where(`deleted = false AND owner_id = ${sqlString(owner)} AND key IN (${sqlStringList(missing)})`)
          .select(HIT_COLUMNS)
          .toArray()) as DisplayRow[],
    );
  }

  async function knn(filter: string, vector: Float32Array, k: number, exact: boolean): Promise<Candidate[]> {
    let q = t()
      .query()
      .nearestTo(Array.from(vector))
      .distanceType('cosine')
      .where(filter)
      .select(['key', '_distance'])
      .limit(k);
    if (exact) q = q.bypassVectorIndex();
    // at least nprobes partitions; more only when a narrow filter leaves fewer than k results
    else if (annKind === 'ivf-flat')
      q = q.maximumNprobes(0).minimumNprobes(ann.nprobes); // 0: no upper bound
    // lance asks the graph for k × refineFactor candidates, and ef must cover them
    else q = q.ef(Math.max(ann.ef, k * ann.refineFactor)).refineFactor(ann.refineFactor);
    const rows = (await q.toArray()) as Record<string, unknown>[];
    return rows.map((r) => ({ key: r.key as string, raw: Number(r._distance) }));
  }

  async function bm25(filter: string, text: string, k: number): Promise<Candidate[]> {
    // A sum of the two fields' BM25 (a multi-column match would take the larger of the two), and
    // of the query's adjacent word pairs among the search text's (proximity evidence).
    const clauses: [lancedb.Occur, lancedb.FullTextQuery][] = [
      [lancedb.Occur.Should, new lancedb.MatchQuery(text, 'search_text')],
      [lancedb.Occur.Should, new lancedb.MatchQuery(text, 'content_head', { boost: LEAD_BOOST })],
    ];
    const pairs = wordPairs(text);
    if (pairs)
      clauses.push([
        lancedb.Occur.Should,
        new lancedb.MatchQuery(pairs, 'search_text', { boost: PAIR_BOOST }),
      ]);
    const words = new lancedb.BooleanQuery(clauses);
    const rows = (await t()
      .query()
      .fullTextSearch(words)
      .where(filter)
      .select(['key', '_score'])
      .limit(k)
      .toArray()) as Record<string, unknown>[];
    return rows.map((r) => ({ key: r.key as string, raw: Number(r._score) }));
  }

  /** A query's ranked keys (no display field read yet), with the stages' timings so far. */
  async function rank(query: SearchQuery): Promise<Ranking> {
    const started = performance.now();
    const stage: Record<string, number> = {};
    const mark = markIn(stage);
    const limit = clampLimit(query.limit, 100);
    const text = (query.text ?? '').trim();
    // Only a kaboodle's members: none means no result (and no query at all).
    if (query.only && query.only.length === 0) return { ranked: [], text, stage, started };
    const onlyKeys = query.only?.map((m) => entityKey(query.ownerId, m.entityType, m.id));
    const filter = entityFilter({
      ownerId: query.ownerId,
      entityTypes: query.entityTypes,
      category: query.category,
      hashtags: query.hashtags,
      onlyKeys,
    });
    const wantsVector = query.mode === 'semantic' || query.mode === 'hybrid';
    if (wantsVector) {
      if (!query.vector) throw new InputError(`A query vector is required for ${query.mode} search`);
      ctx.checkVector(query.vector, 'the query');
    }
    const wantsText = (query.mode === 'keyword' || query.mode === 'hybrid') && text !== '';
    const depth = query.mode === 'hybrid' ? fusionDepth(limit) : limit;
    const ownerLive =
      (wantsVector && ctx.annIndexed()) || ((wantsVector || wantsText) && memory.enabled)
        ? await mark('owner_count', () => ctx.liveRowsOf(query.ownerId))
        : 0;
    const exact =
      !ctx.annIndexed() || onlyKeys !== undefined || (wantsVector ? ownerLive <= ctx.flatMaxOwnerRows : true);
    const mem = memoryCanFilter(query) ? await memory.forQuery(query.ownerId, ownerLive) : undefined;
    const graph = wantsVector ? mem?.graph : undefined;

    const runKnn = (): Promise<Candidate[]> => {
      if (!wantsVector) return Promise.resolve([]);
      if (graph) {
        return mark('knn', async () =>
          graph
            .search(query.vector!, depth, { entityTypes: query.entityTypes })
            .map((c) => ({ key: c.key, raw: c.distance })),
        );
      }
      return mark('knn', () => knn(filter, query.vector!, depth, exact));
    };
    const runBm25 = (): Promise<Candidate[]> => {
      if (!wantsText) return Promise.resolve([]);
      if (mem) {
        return mark('bm25', async () =>
          mem.words.search(text, depth, query.entityTypes).map((c) => ({ key: c.key, raw: c.score })),
        );
      }
      return mark('bm25', () => bm25(filter, text, depth));
    };
    const [vec, kw] = ctx.parallelStages
      ? await Promise.all([runKnn(), runBm25()])
      : [await runKnn(), await runBm25()];

    const fuseStart = performance.now();
    let ranked: { key: string; score: number; raw?: number }[];
    if (query.mode === 'semantic') {
      ranked = vec.map((c) => ({ key: c.key, score: cosineDistanceToScore(c.raw), raw: 1 - c.raw }));
    } else if (query.mode === 'keyword') {
      const scores = bm25ToScores(kw.map((c) => c.raw));
      ranked = kw.map((c, i) => ({ key: c.key, score: scores[i]!, raw: c.raw }));
    } else {
      ranked = reciprocalRankFusion([vec, kw]).map((f) => ({ key: f.key, score: f.score }));
    }
    ranked.sort(byScoreThenKey);
    ranked = ranked.slice(0, limit);
    stage.fusion = performance.now() - fuseStart;
    stage.exact = exact && !graph ? 1 : 0;
    stage.memory = mem ? 1 : 0;
    return { ranked, text, stage, started };
  }

  function done(r: Ranking): void {
    r.stage.total = performance.now() - r.started;
    timings = r.stage;
  }

  /** The ranked keys' display hits, in their order (a key with no live row is left out). */
  async function hitsFor(ownerId: string, ranked: Ranked[]): Promise<SearchHit[]> {
    if (ranked.length === 0) return [];
    const rows = await hitRowsOf(
      ownerId,
      ranked.map((r) => r.key),
    );
    const hits: SearchHit[] = [];
    for (const r of ranked) {
      const row = rows.get(r.key);
      if (row) hits.push(toHit(row, r.score, r.raw));
    }
    return hits;
  }

  async function search(query: SearchQuery): Promise<SearchHit[]> {
    const r = await rank(query);
    const mark = markIn(r.stage);
    const hits = await mark('rows', () => hitsFor(query.ownerId, r.ranked));
    if (query.withExcerpts && hits.length > 0) {
      await mark('excerpts', () => addExcerpts(query.ownerId, hits, { text: r.text, vector: query.vector }));
    }
    done(r);
    return hits;
  }

  async function searchKeys(query: SearchQuery): Promise<RankedRef[]> {
    const r = await rank(query);
    done(r);
    return r.ranked.map(({ key, score, raw }) => ({
      ...refOfKey(key),
      score,
      ...(raw !== undefined && Number.isFinite(raw) ? { raw } : {}),
    }));
  }

  async function hitsOf(query: HitsQuery): Promise<SearchHit[]> {
    const hits = await hitsFor(
      query.ownerId,
      query.refs.map((r) => ({
        key: entityKey(query.ownerId, r.entityType, r.id),
        score: r.score,
        ...(r.raw !== undefined ? { raw: r.raw } : {}),
      })),
    );
    const e = query.excerptsFor;
    if (e && hits.length > 0) {
      await addExcerpts(query.ownerId, hits, { text: e.text.trim(), vector: e.vector });
    }
    return hits;
  }

  async function addExcerpts(
    ownerId: string,
    hits: SearchHit[],
    q: { text: string; vector: Float32Array | undefined },
  ): Promise<void> {
    const docKeys = hits
      .filter((h) => h.entityType === 'document')
      .map((h) => entityKey(ownerId, h.entityType, h.id));
    if (docKeys.length === 0) return;
    const rows = (await t()
      .query()
      .where(`deleted = false AND owner_id = ${sqlString(ownerId)} AND key IN (${sqlStringList(docKeys)})`)
      .select(['id', 'passage_text', 'passage_vectors'])
      .toArray()) as { id: string; passage_text: unknown; passage_vectors: Uint8Array }[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const h of hits) {
      if (h.entityType !== 'document') continue;
      const r = byId.get(h.id);
      if (!r) continue;
      const texts = listOf<string>(r.passage_text);
      const vectors = floatView(r.passage_vectors);
      const best = bestPassage(
        texts.map((text, i) => ({ text, vector: vectors.subarray(i * dims, (i + 1) * dims) })),
        { text: q.text, ...(q.vector ? { vector: q.vector } : {}) },
      );
      if (best) h.excerpt = best.text;
    }
  }

  async function related(query: RelatedQuery): Promise<SearchHit[]> {
    const limit = clampLimit(query.limit, 50, 10);
    const key = entityKey(query.ownerId, query.entityType, query.id);
    const found = (await t()
      .query()
      .where(`deleted = false AND owner_id = ${sqlString(query.ownerId)} AND key = ${sqlString(key)}`)
      .select(['vector'])
      .limit(1)
      .toArray()) as { vector: unknown }[];
    if (found.length === 0) throw new NotFoundError('Not found');
    const vector = Float32Array.from(listOf<number>(found[0]!.vector));
    const ownerLive = await ctx.liveRowsOf(query.ownerId);
    const exact = !ctx.annIndexed() || ownerLive <= ctx.flatMaxOwnerRows;
    const filter = entityFilter({ ownerId: query.ownerId, excludeKeys: [key] });
    const min = query.minSimilarity ?? 0;
    const graph = (await memory.forQuery(query.ownerId, ownerLive))?.graph;
    const candidates = graph
      ? graph.search(vector, limit, { excludeKeys: [key] }).map((c) => ({ key: c.key, raw: c.distance }))
      : await knn(filter, vector, limit, exact);
    const ranked = candidates
      .map((c) => ({ key: c.key, score: cosineDistanceToScore(c.raw) }))
      .filter((c) => c.score >= min)
      .sort(byScoreThenKey);
    const rows = await hitRowsOf(
      query.ownerId,
      ranked.map((c) => c.key),
    );
    return ranked.flatMap((c) => {
      const row = rows.get(c.key);
      return row ? [toHit(row, c.score)] : [];
    });
  }

  return { search, searchKeys, hitsOf, related, knn, lastTimings: () => timings };
}
