// The ONE contract suite of the SearchIndex port (services/search/src/index/search-index.port.ts).
// Every adapter (LanceDB embedded, Elasticsearch) runs it through describeSearchIndexContract. It is
// adapter-agnostic: it only uses the port, builds its own small vectors (topic axes, so "meaning"
// is known exactly) and gives every test its own owner ids, so one index per file is enough.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  IndexedEntity,
  IndexedEntityType,
  IndexedKaboodle,
  SearchHit,
  SearchIndex,
  SearchMode,
  SearchQuery,
} from '@kaboodle/search';

export interface SearchIndexUnderTest {
  index: SearchIndex;
  /** Drop what the factory created (folder, index, alias). */
  cleanup(): Promise<void>;
}

export interface SearchIndexContractOptions {
  /** Vector length the suite uses (≥ 16). */
  dimensions?: number;
}

/** Topic axes for the suite's synthetic embeddings: a vector is a weighted mix of these. */
const AXES = [
  'car',
  'repair',
  'engine',
  'bicycle',
  'cooking',
  'bread',
  'fermentation',
  'pastry',
  'music',
  'guitar',
  'piano',
  'finance',
  'tax',
  'garden',
  'flower',
  'cleaning',
] as const;
type Axis = (typeof AXES)[number];

export function topicVector(dimensions: number, mix: Partial<Record<Axis, number>>): Float32Array {
  const v = new Float32Array(dimensions);
  for (const [axis, w] of Object.entries(mix)) v[AXES.indexOf(axis as Axis)] = w!;
  // A faint shared component keeps every vector valid (never all zeros) without changing the order.
  for (let i = AXES.length; i < dimensions; i++) v[i] = 0.01;
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  return v.map((x) => x / n);
}

/** nDCG@10 of a ranked id list against graded relevance. */
export function ndcgAt10(ranked: string[], grades: Record<string, number>): number {
  const dcg = (gains: number[]) =>
    gains.slice(0, 10).reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
  const ideal = dcg(Object.values(grades).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked.map((id) => grades[id] ?? 0)) / ideal;
}

export function describeSearchIndexContract(
  adapterName: string,
  factory: (opts: { name: string; dimensions: number }) => Promise<SearchIndexUnderTest>,
  options: SearchIndexContractOptions = {},
): void {
  const dims = options.dimensions ?? 32;
  if (dims < AXES.length) throw new Error(`the contract suite needs at least ${AXES.length} dimensions`);

  describe(`SearchIndex contract: ${adapterName}`, () => {
    let under: SearchIndexUnderTest;
    let index: SearchIndex;

    beforeAll(async () => {
      under = await factory({ name: `ct-${randomUUID().slice(0, 8)}`, dimensions: dims });
      index = under.index;
      await index.open();
      await index.open(); // idempotent
    });
    afterAll(async () => {
      await index?.close();
      await under?.cleanup();
    });

    const owner = () => `owner-${randomUUID()}`;
    const vec = (mix: Partial<Record<Axis, number>>) => topicVector(dims, mix);
    let seq = 0;
    function entity(ownerId: string, over: Partial<IndexedEntity> = {}): IndexedEntity {
      seq += 1;
      const entityType = over.entityType ?? 'document';
      return {
        entityType,
        id: over.id ?? `e-${seq}-${randomUUID().slice(0, 8)}`,
        ownerId,
        version: 1,
        title: `Untitled ${seq}`,
        description: '',
        content: '',
        category: 'General',
        hashtags: [],
        keywords: [],
        url: entityType === 'document' ? `/api/documents/${over.id ?? seq}/file` : '',
        imageUrl: entityType === 'inventory_item' ? `/api/inventory/${over.id ?? seq}/image` : '',
        createdAt: new Date('2026-01-01T00:00:00Z'),
        updatedAt: new Date('2026-01-02T00:00:00Z'),
        vector: vec({ cleaning: 1 }),
        passages: [],
        ...over,
      };
    }
    function q(
      ownerId: string,
      mode: SearchMode,
      text: string,
      over: Partial<SearchQuery> = {},
    ): SearchQuery {
      return { ownerId, mode, text, limit: 20, ...over };
    }
    const ids = (hits: SearchHit[]) => hits.map((h) => h.id);
    const expectWellFormed = (hits: SearchHit[]) => {
      for (const h of hits) {
        expect(h.score).toBeGreaterThanOrEqual(0);
        expect(h.score).toBeLessThanOrEqual(1);
      }
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    };

    it('answers an empty index with no hits, zero stats and unknown versions', async () => {
      const o = owner();
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        expect(await index.search(q(o, mode, 'anything', { vector: vec({ car: 1 }) }))).toEqual([]);
      }
      expect((await index.stats(o)).entities).toBe(0);
      expect(await index.versionOf({ entityType: 'document', id: 'nope', ownerId: o })).toBeUndefined();
      await expect(
        index.related({ ownerId: o, entityType: 'document', id: 'nope', limit: 5 }),
      ).rejects.toThrow();
      await index.ping();
    });

    it('finds an upserted entity by keyword in its title, description, content, tags and keyword fields', async () => {
      const o = owner();
      const doc = entity(o, {
        title: 'Quarterly zeppelin report',
        description: 'A summary about marmalade exports',
        content: 'The body mentions the word quokka somewhere in the middle of the text.',
        hashtags: ['aviation', 'logistics'],
        keywords: ['Ada Lovelace'],
        category: 'Reports',
      });
      const other = entity(o, { title: 'Unrelated', content: 'nothing to see here' });
      expect(await index.upsert([doc, other])).toEqual({ applied: 2, stale: 0 });
      for (const word of ['zeppelin', 'marmalade', 'quokka', 'aviation', 'lovelace']) {
        const hits = await index.search(q(o, 'keyword', word));
        expect(ids(hits), word).toEqual([doc.id]);
      }
      const [hit] = await index.search(q(o, 'keyword', 'zeppelin'));
      expect(hit).toMatchObject({
        entityType: 'document',
        id: doc.id,
        title: doc.title,
        description: doc.description,
        url: doc.url,
        imageUrl: '',
        category: 'Reports',
        hashtags: ['aviation', 'logistics'],
      });
      expect(doc.content.startsWith(hit!.content)).toBe(true);
      expect(hit!.content.length).toBeGreaterThan(0);
      expect(hit!.score).toBeGreaterThan(0);
      expect(hit!.score).toBeLessThanOrEqual(1);
      expect(await index.versionOf({ entityType: 'document', id: doc.id, ownerId: o })).toBe(1);
    });

    it('ranks by vector similarity in semantic mode, nearest first, scores in [0, 1]', async () => {
      const o = owner();
      const near = entity(o, { title: 'alpha', vector: vec({ music: 1, guitar: 1 }) });
      const mid = entity(o, { title: 'beta', vector: vec({ music: 1, piano: 1 }) });
      const far = entity(o, { title: 'gamma', vector: vec({ tax: 1 }), entityType: 'inventory_item' });
      await index.upsert([far, mid, near]);
      const hits = await index.search(
        q(o, 'semantic', 'ignored words', { vector: vec({ music: 1, guitar: 1 }) }),
      );
      expect(ids(hits)).toEqual([near.id, mid.id, far.id]);
      expectWellFormed(hits);
      expect(hits[0]!.score).toBeGreaterThan(0.99);
      expect(hits[2]!.score).toBeLessThan(0.2);
      await expect(index.search(q(o, 'semantic', 'x'))).rejects.toThrow();
    });

    it('hybrid (RRF) does at least as well as keyword and semantic alone on a graded set', async () => {
      const o = owner();
      const docs: Record<string, IndexedEntity> = {
        d1: entity(o, { title: 'Automobile repair handbook', vector: vec({ car: 1, repair: 1 }) }),
        d2: entity(o, {
          title: 'Fixing your vehicle engine',
          vector: vec({ car: 1, repair: 0.9, engine: 0.4 }),
        }),
        d3: entity(o, { title: 'Repair costs for bicycles', vector: vec({ bicycle: 1, repair: 1 }) }),
        d4: entity(o, {
          title: 'Sourdough bread baking',
          vector: vec({ cooking: 1, bread: 1, fermentation: 0.6 }),
        }),
        d5: entity(o, { title: 'Home baking of loaves', vector: vec({ cooking: 1, bread: 1 }) }),
        d6: entity(o, { title: 'Pastry cream recipes', vector: vec({ cooking: 1, pastry: 1 }) }),
        d7: entity(o, {
          title: 'Guitar chords for beginners',
          vector: vec({ music: 1, guitar: 1, piano: 0.3 }),
        }),
        d8: entity(o, { title: 'Learning a stringed instrument', vector: vec({ music: 1, guitar: 1 }) }),
        d9: entity(o, { title: 'Tax return checklist', vector: vec({ finance: 1, tax: 1, garden: 0.2 }) }),
        d10: entity(o, { title: 'Filing with the revenue office', vector: vec({ finance: 1, tax: 1 }) }),
        d11: entity(o, { title: 'Car wash soap', vector: vec({ car: 1, cleaning: 1 }) }),
        d12: entity(o, { title: 'Garden flower planting', vector: vec({ garden: 1, flower: 1 }) }),
        d13: entity(o, { title: 'Piano practice plan', vector: vec({ music: 1, piano: 1 }) }),
        d14: entity(o, { title: 'Return policy for a car', vector: vec({ car: 1, finance: 0.5 }) }),
      };
      await index.upsert(Object.values(docs));
      const id = (k: string) => docs[k]!.id;
      const queries: { text: string; vector: Float32Array; grades: Record<string, number> }[] = [
        {
          text: 'automobile repair',
          vector: vec({ car: 1, repair: 1 }),
          grades: { [id('d1')]: 3, [id('d2')]: 2, [id('d3')]: 1 },
        },
        {
          text: 'sourdough',
          vector: vec({ cooking: 1, bread: 1 }),
          grades: { [id('d4')]: 3, [id('d5')]: 1 },
        },
        {
          text: 'guitar',
          vector: vec({ music: 1, guitar: 1 }),
          grades: { [id('d7')]: 3, [id('d8')]: 2 },
        },
        {
          text: 'tax return',
          vector: vec({ finance: 1, tax: 1 }),
          grades: { [id('d9')]: 3, [id('d10')]: 2 },
        },
      ];
      const mean: Record<SearchMode, number> = { keyword: 0, semantic: 0, hybrid: 0 };
      for (const query of queries) {
        for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
          const hits = await index.search(q(o, mode, query.text, { vector: query.vector, limit: 10 }));
          expectWellFormed(hits);
          mean[mode] += ndcgAt10(ids(hits), query.grades) / queries.length;
        }
      }
      process.stderr.write(
        `[contract:search-index:${adapterName}] graded set nDCG@10 keyword ${mean.keyword.toFixed(3)} semantic ${mean.semantic.toFixed(3)} hybrid ${mean.hybrid.toFixed(3)}\n`,
      );
      expect(mean.hybrid).toBeGreaterThanOrEqual(mean.keyword - 1e-9);
      expect(mean.hybrid).toBeGreaterThanOrEqual(mean.semantic - 1e-9);
      // Not a tie by accident: each single mode misses something the other finds.
      expect(mean.hybrid).toBeGreaterThan(Math.min(mean.keyword, mean.semantic));
    });

    it('filters by entity type, exact category and every requested hashtag, in every mode', async () => {
      const o = owner();
      const v = vec({ garden: 1 });
      const a = entity(o, {
        title: 'Tulip bulbs',
        category: 'Garden',
        hashtags: ['Spring', 'bulbs'],
        vector: v,
      });
      const b = entity(o, {
        title: 'Tulip vase',
        category: 'Home',
        hashtags: ['spring'],
        vector: v,
        entityType: 'inventory_item',
      });
      const c = entity(o, { title: 'Tulip history', category: 'Garden', hashtags: ['history'], vector: v });
      const d = entity(o, {
        title: 'Tulip print',
        category: 'garden',
        hashtags: ['#Spring', 'Bulbs'],
        vector: v,
      });
      await index.upsert([a, b, c, d]);
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        const run = (over: Partial<SearchQuery>) =>
          index.search(q(o, mode, 'tulip', { vector: v, ...over })).then((h) => ids(h).sort());
        expect(await run({ entityTypes: ['inventory_item'] }), mode).toEqual([b.id]);
        expect(await run({ entityTypes: ['document'] }), mode).toEqual([a.id, c.id, d.id].sort());
        expect(await run({ entityTypes: [] }), mode).toHaveLength(4);
        expect(await run({ category: 'Garden' }), mode).toEqual([a.id, c.id].sort());
        // tags compare case-insensitively, without '#', and all of them must be present
        expect(await run({ hashtags: ['spring'] }), mode).toEqual([a.id, b.id, d.id].sort());
        expect(await run({ hashtags: ['#SPRING', 'bulbs'] }), mode).toEqual([a.id, d.id].sort());
        expect(
          await run({ hashtags: ['spring'], category: 'Garden', entityTypes: ['document'] }),
          mode,
        ).toEqual([a.id]);
        expect(await run({ category: 'Nowhere' }), mode).toEqual([]);
      }
    });

    it('keeps owners apart: identical content, even identical ids, never crosses (hits, related, stats)', async () => {
      const a = owner();
      const b = owner();
      const shared = {
        title: 'Identical twin record',
        content: 'same words for both owners',
        vector: vec({ flower: 1 }),
        hashtags: ['twin'],
        category: 'Twins',
      };
      const a1 = entity(a, { ...shared, id: 'same-id' });
      const a2 = entity(a, { ...shared, title: 'Identical twin record two' });
      await index.upsert([a1, a2]);
      const statsBefore = await index.stats(a);
      const b1 = entity(b, { ...shared, id: 'same-id', version: 5 });
      const b2 = entity(b, { ...shared, entityType: 'inventory_item' });
      expect(await index.upsert([b1, b2])).toEqual({ applied: 2, stale: 0 });
      expect(await index.stats(a)).toEqual(statsBefore);
      expect((await index.stats(a)).entities).toBe(2);
      expect((await index.stats(b)).entities).toBe(2);
      // b's same-id upsert (version 5) did not touch a's row
      expect(await index.versionOf({ entityType: 'document', id: 'same-id', ownerId: a })).toBe(1);
      expect(await index.versionOf({ entityType: 'document', id: 'same-id', ownerId: b })).toBe(5);
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        const hitsA = await index.search(
          q(a, mode, 'identical twin', { vector: vec({ flower: 1 }), withExcerpts: true }),
        );
        expect(ids(hitsA).sort(), mode).toEqual([a1.id, a2.id].sort());
        const hitsB = await index.search(q(b, mode, 'identical twin', { vector: vec({ flower: 1 }) }));
        expect(ids(hitsB).sort(), mode).toEqual([b1.id, b2.id].sort());
      }
      const rel = await index.related({ ownerId: a, entityType: 'document', id: a2.id, limit: 50 });
      expect(ids(rel)).toEqual([a1.id]);
      // Another owner's entity answers like a missing one.
      await expect(
        index.related({ ownerId: a, entityType: 'inventory_item', id: b2.id, limit: 5 }),
      ).rejects.toThrow();
      expect(await index.versionOf({ entityType: 'inventory_item', id: b2.id, ownerId: a })).toBeUndefined();
      // A delete by b of the shared id leaves a's entity alone.
      await index.delete([{ entityType: 'document', id: 'same-id', ownerId: b, version: 6 }]);
      expect(ids(await index.search(q(a, 'keyword', 'identical')))).toContain('same-id');
      expect(ids(await index.search(q(b, 'keyword', 'identical')))).toEqual([b2.id]);
    });

    it('a user with few items still gets their true top-k among many items of others', async () => {
      const crowd = owner();
      const lone = owner();
      const v = vec({ piano: 1 });
      const many = Array.from({ length: 300 }, (_, i) =>
        entity(crowd, { title: `piano sonata number ${i}`, vector: v }),
      );
      await index.upsert(many);
      const mine = entity(lone, { title: 'my old piano', vector: vec({ piano: 1, garden: 0.5 }) });
      await index.upsert([mine]);
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        const hits = await index.search(q(lone, mode, 'piano sonata', { vector: v, limit: 5 }));
        expect(ids(hits), mode).toEqual([mine.id]);
      }
    });

    it('ignores an older upsert, keeps a deleted entity deleted, and revives it with a newer version', async () => {
      const o = owner();
      const ref = { entityType: 'document' as const, id: `v-${randomUUID()}`, ownerId: o };
      const v2 = entity(o, { ...ref, version: 2, title: 'walrus version two' });
      const v1 = entity(o, { ...ref, version: 1, title: 'walrus version one' });
      expect(await index.upsert([v2])).toEqual({ applied: 1, stale: 0 });
      expect(await index.upsert([v1])).toEqual({ applied: 0, stale: 1 });
      expect((await index.search(q(o, 'keyword', 'walrus'))).map((h) => h.title)).toEqual([
        'walrus version two',
      ]);
      expect(await index.versionOf(ref)).toBe(2);

      expect(await index.delete([{ ...ref, version: 1 }])).toEqual({ applied: 0, stale: 1 });
      expect(ids(await index.search(q(o, 'keyword', 'walrus')))).toEqual([ref.id]);
      expect(await index.delete([{ ...ref, version: 3 }])).toEqual({ applied: 1, stale: 0 });
      expect(await index.search(q(o, 'keyword', 'walrus'))).toEqual([]);
      expect(await index.versionOf(ref)).toBeUndefined();
      expect((await index.stats(o)).entities).toBe(0);

      // the late, older upsert (version 2 arrives after the delete at 3) does not resurrect it
      expect(await index.upsert([entity(o, { ...ref, version: 2, title: 'walrus late' })])).toEqual({
        applied: 0,
        stale: 1,
      });
      expect(await index.search(q(o, 'keyword', 'walrus'))).toEqual([]);
      expect(await index.search(q(o, 'semantic', 'x', { vector: vec({ cleaning: 1 }) }))).toEqual([]);

      // a delete of something never indexed is remembered too
      const ghost = { entityType: 'inventory_item' as const, id: `g-${randomUUID()}`, ownerId: o };
      expect(await index.delete([{ ...ghost, version: 4 }])).toEqual({ applied: 1, stale: 0 });
      expect((await index.upsert([entity(o, { ...ghost, version: 3, title: 'ghost' })])).applied).toBe(0);

      expect(await index.upsert([entity(o, { ...ref, version: 4, title: 'walrus reborn' })])).toEqual({
        applied: 1,
        stale: 0,
      });
      expect((await index.search(q(o, 'keyword', 'walrus'))).map((h) => h.title)).toEqual(['walrus reborn']);
      expect(await index.versionOf(ref)).toBe(4);
    });

    it('treats a re-upsert of the same version as stale and never duplicates an entity', async () => {
      const o = owner();
      const e = entity(o, { title: 'idempotent narwhal' });
      expect(await index.upsert([e])).toEqual({ applied: 1, stale: 0 });
      expect(await index.upsert([e])).toEqual({ applied: 0, stale: 1 });
      // the same entity twice in one batch: the higher version wins, the other is stale
      const e2 = { ...e, version: 2, title: 'idempotent narwhal two' };
      expect(await index.upsert([e2, { ...e, version: 1 }, e2])).toEqual({ applied: 1, stale: 2 });
      const hits = await index.search(q(o, 'hybrid', 'narwhal', { vector: e.vector }));
      expect(hits.map((h) => h.title)).toEqual(['idempotent narwhal two']);
      expect((await index.stats(o)).entities).toBe(1);
    });

    it('coalesces concurrent upserts without losing or mixing any', async () => {
      const o = owner();
      const batches = Array.from({ length: 12 }, (_, b) =>
        Array.from({ length: 25 }, (_, i) => entity(o, { title: `concurrent okapi ${b}-${i}` })),
      );
      const outcomes = await Promise.all(batches.map((batch) => index.upsert(batch)));
      for (const out of outcomes) expect(out).toEqual({ applied: 25, stale: 0 });
      expect((await index.stats(o)).entities).toBe(300);
      expect(await index.search(q(o, 'keyword', 'okapi', { limit: 1000 }))).toHaveLength(100);
    });

    it('deleteOwner removes everything of that owner and nothing of anyone else', async () => {
      const gone = owner();
      const stays = owner();
      await index.upsert([entity(gone, { title: 'ibex one' }), entity(gone, { title: 'ibex two' })]);
      await index.upsert([entity(stays, { title: 'ibex kept' })]);
      await index.deleteOwner(gone);
      expect(await index.search(q(gone, 'keyword', 'ibex'))).toEqual([]);
      expect((await index.stats(gone)).entities).toBe(0);
      expect((await index.search(q(stays, 'keyword', 'ibex'))).map((h) => h.title)).toEqual(['ibex kept']);
    });

    it('lists live entities changed before a time, in batches, with their versions (what a rebuild prunes)', async () => {
      const a = owner();
      const b = owner();
      const recent = new Date('2026-06-01T00:00:00Z');
      const kept = [entity(a, { version: 3 }), entity(a, { entityType: 'inventory_item' }), entity(b)];
      const deleted = entity(a);
      const fresh = entity(b, { updatedAt: recent });
      await index.upsert([...kept, deleted, fresh]);
      await index.delete([{ entityType: 'document', id: deleted.id, ownerId: a, version: 2 }]);
      const listed = [];
      let batches = 0;
      for await (const refs of index.listLive({
        updatedBefore: new Date('2026-03-01T00:00:00Z'),
        batchSize: 2,
      })) {
        batches += 1;
        expect(refs.length).toBeLessThanOrEqual(2);
        listed.push(...refs.filter((r) => r.ownerId === a || r.ownerId === b));
      }
      expect(batches).toBeGreaterThanOrEqual(2);
      const key = (r: { ownerId: string; entityType: string; id: string }) =>
        `${r.ownerId}/${r.entityType}/${r.id}`;
      expect(listed.map(key).sort()).toEqual(kept.map(key).sort());
      expect(listed.find((r) => r.id === kept[0]!.id)?.version).toBe(3);
    });

    it('returns the best-matching passage of each document as its excerpt, when asked', async () => {
      const o = owner();
      const passages = [
        { text: 'Chapter one talks about gardening and tulips.', vector: vec({ garden: 1, flower: 1 }) },
        { text: 'Chapter two explains the tax return deadline.', vector: vec({ finance: 1, tax: 1 }) },
        { text: 'Chapter three covers guitar strings.', vector: vec({ music: 1, guitar: 1 }) },
      ];
      let offset = 0;
      const doc = entity(o, {
        title: 'Almanac of everything',
        content: passages.map((p) => p.text).join(' '),
        vector: vec({ garden: 0.5, tax: 0.5, guitar: 0.5 }),
        passages: passages.map((p) => {
          const start = offset;
          offset += p.text.length + 1;
          return { ...p, start, end: start + p.text.length };
        }),
      });
      const item = entity(o, {
        title: 'Almanac shelf',
        entityType: 'inventory_item',
        vector: vec({ tax: 1 }),
      });
      await index.upsert([doc, item]);
      const hits = await index.search(
        q(o, 'hybrid', 'tax deadline', { vector: vec({ finance: 1, tax: 1 }), withExcerpts: true }),
      );
      const hit = hits.find((h) => h.id === doc.id);
      expect(hit?.excerpt).toBe(passages[1]!.text);
      expect(hits.find((h) => h.id === item.id)?.excerpt).toBeUndefined();
      const byKeyword = await index.search(q(o, 'keyword', 'guitar', { withExcerpts: true }));
      expect(byKeyword.find((h) => h.id === doc.id)?.excerpt).toBe(passages[2]!.text);
      const without = await index.search(q(o, 'keyword', 'almanac'));
      for (const h of without) expect(h.excerpt).toBeUndefined();
    });

    it('relates an entity to its vector neighbours across both types, never itself, best first', async () => {
      const o = owner();
      const base = entity(o, { title: 'base', vector: vec({ bread: 1, cooking: 1 }) });
      const twin = entity(o, {
        title: 'twin',
        vector: vec({ bread: 1, cooking: 0.9 }),
        entityType: 'inventory_item',
      });
      const cousin = entity(o, { title: 'cousin', vector: vec({ bread: 1, pastry: 1 }) });
      const stranger = entity(o, { title: 'stranger', vector: vec({ tax: 1 }) });
      await index.upsert([base, twin, cousin, stranger]);
      const rel = await index.related({ ownerId: o, entityType: 'document', id: base.id, limit: 10 });
      expect(ids(rel)).toEqual([twin.id, cousin.id, stranger.id]);
      expectWellFormed(rel);
      expect(rel[0]!.entityType).toBe('inventory_item');
      expect(ids(await index.related({ ownerId: o, entityType: 'document', id: base.id, limit: 1 }))).toEqual(
        [twin.id],
      );
      const close = await index.related({
        ownerId: o,
        entityType: 'document',
        id: base.id,
        limit: 10,
        minSimilarity: 0.9,
      });
      expect(ids(close)).toEqual([twin.id]);
      await index.delete([{ entityType: 'inventory_item', id: twin.id, ownerId: o, version: 2 }]);
      expect(
        ids(await index.related({ ownerId: o, entityType: 'document', id: base.id, limit: 10 })),
      ).toEqual([cousin.id, stranger.id]);
      await expect(
        index.related({ ownerId: o, entityType: 'inventory_item', id: twin.id, limit: 10 }),
      ).rejects.toThrow();
    });

    it('clamps limits to 1..100', async () => {
      const o = owner();
      await index.upsert(Array.from({ length: 120 }, (_, i) => entity(o, { title: `lemur ${i}` })));
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        const run = (limit: number) =>
          index.search(q(o, mode, 'lemur', { vector: vec({ cleaning: 1 }), limit })).then((h) => h.length);
        expect(await run(1000), mode).toBe(100);
        expect(await run(7), mode).toBe(7);
        expect(await run(0), mode).toBe(1);
        expect(await run(-5), mode).toBe(1);
      }
    });

    it('handles unicode and emoji in text, and Lucene/regex/SQL metacharacters in queries without throwing', async () => {
      const o = owner();
      const e = entity(o, {
        title: 'Café Über 🍎 straße',
        description: 'naïve résumé — 日本語のテキスト',
        hashtags: ['äpfel', '🍎'],
      });
      await index.upsert([e]);
      expect(ids(await index.search(q(o, 'keyword', 'café')))).toEqual([e.id]);
      expect(ids(await index.search(q(o, 'keyword', 'Über')))).toEqual([e.id]);
      expect(ids(await index.search(q(o, 'keyword', 'café', { hashtags: ['Äpfel'] })))).toEqual([e.id]);
      expect(ids(await index.search(q(o, 'keyword', 'café', { hashtags: ['apfel'] })))).toEqual([]);
      expect(
        ids(await index.search(q(o, 'semantic', 'x', { hashtags: ['äpfel'], vector: e.vector }))),
      ).toEqual([e.id]);
      expect(ids(await index.search(q(o, 'semantic', 'x', { hashtags: ['🍎'], vector: e.vector })))).toEqual([
        e.id,
      ]);
      const nasty = [
        '🍎',
        '"unterminated',
        '(a OR b) AND c* ? ~ ^2 : \\ / [x TO y] {z} !not +must -mustnot && ||',
        "x' OR '1'='1",
        "'; DROP TABLE entities; --",
        '100% _match_ \\\\ back\\slash',
        '.*[a-z]+(?=x)$^',
        'title:café AND owner_id:*',
      ];
      for (const text of nasty) {
        for (const mode of ['keyword', 'hybrid'] as const) {
          const hits = await index.search(q(o, mode, text, { vector: e.vector }));
          expectWellFormed(hits);
          for (const h of hits) expect(h.id).toBe(e.id);
        }
      }
    });

    it('escapes every user string used in a filter: quotes, backslashes, %, _ and unicode match literally', async () => {
      const weird = [
        "o'neil",
        "x' OR '1'='1",
        'back\\slash',
        '100%',
        'under_score',
        'ünïcödé 🍎',
        "\\' OR owner_id != '",
      ];
      const victim = owner();
      await index.upsert([entity(victim, { title: 'secret aardvark', category: 'Private' })]);
      for (const w of weird) {
        const o = `${w}-${randomUUID().slice(0, 6)}`;
        const e = entity(o, {
          id: `id-${w}-${randomUUID().slice(0, 6)}`,
          title: 'aardvark notes',
          category: w,
          hashtags: [w],
        });
        // What a LIKE pattern or an unescaped quote would also match: it must not.
        const lookalike = w.replace(/[%_'\\]/g, 'x');
        const other = lookalike === w ? `${w} decoy` : lookalike;
        const decoy = entity(o, { title: 'aardvark decoy', category: other, hashtags: [other] });
        await index.upsert([e, decoy]);
        for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
          const all = await index.search(q(o, mode, 'aardvark', { vector: e.vector }));
          expect(ids(all).sort(), `${mode} ${w}`).toEqual([e.id, decoy.id].sort());
          expect(
            ids(await index.search(q(o, mode, 'aardvark', { vector: e.vector, category: w }))),
            `${mode} ${w}`,
          ).toEqual([e.id]);
          expect(
            ids(await index.search(q(o, mode, 'aardvark', { vector: e.vector, hashtags: [w] }))),
            `${mode} ${w}`,
          ).toEqual([e.id]);
          // A crafted filter value never opens another owner's rows.
          expect(await index.search(q(w, mode, 'aardvark', { vector: e.vector, category: w }))).toEqual([]);
        }
        expect((await index.stats(o)).entities).toBe(2);
        expect(await index.versionOf({ entityType: 'document', id: e.id, ownerId: o })).toBe(1);
        expect(ids(await index.related({ ownerId: o, entityType: 'document', id: e.id, limit: 10 }))).toEqual(
          [decoy.id],
        );
        await index.deleteOwner(o);
        expect((await index.stats(o)).entities).toBe(0);
      }
      expect(ids(await index.search(q(victim, 'keyword', 'aardvark')))).toHaveLength(1);
    });

    it('indexes very long text without error and keeps the displayed content short', async () => {
      const o = owner();
      const para = 'The pangolin archive contains many repeated sentences about logistics and weather. ';
      const content = `Opening mention of platypus. ${para.repeat(12_000)}`; // ~1 MB
      const e = entity(o, { title: 'Huge document', content });
      expect((await index.upsert([e])).applied).toBe(1);
      const hits = await index.search(q(o, 'keyword', 'platypus'));
      expect(ids(hits)).toEqual([e.id]);
      expect(hits[0]!.content.length).toBeGreaterThan(0);
      expect(hits[0]!.content.length).toBeLessThanOrEqual(1000);
    });

    it('takes a 1,000-item batch in one call', async () => {
      const o = owner();
      const types: IndexedEntityType[] = ['document', 'inventory_item'];
      const batch = Array.from({ length: 1000 }, (_, i) =>
        entity(o, {
          entityType: types[i % 2]!,
          title: `batch item ${i} ${i === 777 ? 'capybara' : 'plain'}`,
          vector: vec(i % 3 === 0 ? { garden: 1 } : { tax: 1, garden: (i % 7) / 7 }),
        }),
      );
      const started = performance.now();
      expect(await index.upsert(batch)).toEqual({ applied: 1000, stale: 0 });
      const ms = performance.now() - started;
      process.stderr.write(`[contract:search-index:${adapterName}] 1,000-item upsert ${ms.toFixed(0)} ms\n`);
      expect((await index.stats(o)).entities).toBe(1000);
      expect(ids(await index.search(q(o, 'keyword', 'capybara')))).toEqual([batch[777]!.id]);
      expect(
        await index.search(q(o, 'semantic', 'x', { vector: vec({ garden: 1 }), limit: 50 })),
      ).toHaveLength(50);
      const total = await index.stats();
      expect(total.entities).toBeGreaterThanOrEqual(1000);
      expect(total.sizeBytes).toBeGreaterThan(0);
    });

    describe('kaboodle memberships', () => {
      const kaboodle = (ownerId: string, over: Partial<IndexedKaboodle> = {}): IndexedKaboodle => ({
        ownerId,
        id: `k-${randomUUID().slice(0, 8)}`,
        version: 1,
        members: [],
        updatedAt: new Date('2026-01-02T00:00:00Z'),
        ...over,
      });
      const refs = (...es: IndexedEntity[]) => es.map((e) => ({ entityType: e.entityType, id: e.id }));

      it('keeps a kaboodle’s members in order and its saved search, and reads them back for the owner only', async () => {
        const o = owner();
        const [a, b] = [entity(o), entity(o, { entityType: 'inventory_item' })];
        const k = kaboodle(o, { members: refs(b, a), version: 7 });
        expect(await index.kaboodles.upsert([k])).toEqual({ applied: 1, stale: 0 });
        expect(await index.kaboodles.get(o, k.id)).toMatchObject({
          ownerId: o,
          id: k.id,
          version: 7,
          members: refs(b, a),
        });
        expect(await index.kaboodles.get(owner(), k.id)).toBeUndefined();
        expect(await index.kaboodles.get(o, 'no-such-kaboodle')).toBeUndefined();
        const smart = kaboodle(o, {
          smart: {
            query: 'quinces',
            searchType: 'keyword',
            entityTypes: ['document'],
            category: 'Recipes',
            kaboodleId: k.id,
          },
        });
        await index.kaboodles.upsert([smart]);
        expect((await index.kaboodles.get(o, smart.id))?.smart).toEqual(smart.smart);
        expect((await index.kaboodles.get(o, smart.id))?.members).toEqual([]);
      });

      it('searches only the listed members in every mode, and nothing for an empty list', async () => {
        const o = owner();
        const inside = entity(o, { title: 'walnut cabinet', vector: vec({ cleaning: 1, garden: 0.2 }) });
        const outside = entity(o, { title: 'walnut table', vector: vec({ cleaning: 1 }) });
        const item = entity(o, {
          entityType: 'inventory_item',
          title: 'walnut box',
          category: 'Wood',
          vector: vec({ cleaning: 1, garden: 0.1 }),
        });
        await index.upsert([inside, outside, item]);
        const only = refs(inside, item);
        for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
          const hits = await index.search(q(o, mode, 'walnut', { vector: vec({ cleaning: 1 }), only }));
          expect(ids(hits).sort(), mode).toEqual([inside.id, item.id].sort());
          expectWellFormed(hits);
          expect(
            await index.search(q(o, mode, 'walnut', { vector: vec({ cleaning: 1 }), only: [] })),
          ).toEqual([]);
        }
        // with the other filters too
        const typed = await index.search(
          q(o, 'keyword', 'walnut', { only, entityTypes: ['inventory_item'] }),
        );
        expect(ids(typed)).toEqual([item.id]);
        const categorised = await index.search(q(o, 'keyword', 'walnut', { only, category: 'Wood' }));
        expect(ids(categorised)).toEqual([item.id]);
      });

      it('never lets a member list reach another owner’s entities, even with the same ids', async () => {
        const a = owner();
        const b = owner();
        const shared = 'shared-id-kaboodle';
        await index.upsert([
          entity(a, { id: shared, title: 'tamarind paste' }),
          entity(b, { id: shared, title: 'tamarind pods' }),
        ]);
        const hits = await index.search(
          q(a, 'keyword', 'tamarind', { only: [{ entityType: 'document', id: shared }] }),
        );
        expect(hits.map((h) => h.title)).toEqual(['tamarind paste']);
      });

      it('version-guards kaboodles: older and equal versions are stale, a delete is remembered', async () => {
        const o = owner();
        const [a, b] = [entity(o), entity(o)];
        const k = kaboodle(o, { members: refs(a, b), version: 5 });
        await index.kaboodles.upsert([k]);
        expect(await index.kaboodles.upsert([{ ...k, version: 4, members: refs(a) }])).toEqual({
          applied: 0,
          stale: 1,
        });
        expect(await index.kaboodles.upsert([{ ...k, members: [] }])).toEqual({ applied: 0, stale: 1 });
        expect((await index.kaboodles.get(o, k.id))?.members).toEqual(refs(a, b));
        // the same kaboodle twice in one call: the highest version wins
        expect(
          await index.kaboodles.upsert([
            { ...k, version: 9, members: refs(b) },
            { ...k, version: 8, members: refs(a) },
          ]),
        ).toEqual({ applied: 1, stale: 1 });
        expect((await index.kaboodles.get(o, k.id))?.members).toEqual(refs(b));
        expect(await index.kaboodles.delete([{ ownerId: o, id: k.id, version: 10 }])).toEqual({
          applied: 1,
          stale: 0,
        });
        expect(await index.kaboodles.get(o, k.id)).toBeUndefined();
        // a late, older upsert does not bring it back; a newer one does
        expect((await index.kaboodles.upsert([{ ...k, version: 9 }])).applied).toBe(0);
        expect(await index.kaboodles.get(o, k.id)).toBeUndefined();
        await index.kaboodles.upsert([{ ...k, version: 11, members: refs(a) }]);
        expect((await index.kaboodles.get(o, k.id))?.members).toEqual(refs(a));
      });

      it('lists live kaboodles changed before a time, and deleteOwner removes them with the entities', async () => {
        const a = owner();
        const b = owner();
        const kept = [kaboodle(a, { version: 3 }), kaboodle(a), kaboodle(b)];
        const gone = kaboodle(a);
        const fresh = kaboodle(b, { updatedAt: new Date('2026-06-01T00:00:00Z') });
        await index.kaboodles.upsert([...kept, gone, fresh]);
        await index.kaboodles.delete([{ ownerId: a, id: gone.id, version: 2 }]);
        const listed = [];
        for await (const batch of index.kaboodles.listLive({
          updatedBefore: new Date('2026-03-01T00:00:00Z'),
          batchSize: 2,
        })) {
          expect(batch.length).toBeLessThanOrEqual(2);
          listed.push(...batch.filter((r) => r.ownerId === a || r.ownerId === b));
        }
        const key = (r: { ownerId: string; id: string }) => `${r.ownerId}/${r.id}`;
        expect(listed.map(key).sort()).toEqual(kept.map(key).sort());
        expect(listed.find((r) => r.id === kept[0]!.id)?.version).toBe(3);

        await index.deleteOwner(a);
        expect(await index.kaboodles.get(a, kept[0]!.id)).toBeUndefined();
        expect(await index.kaboodles.get(b, kept[2]!.id)).toBeDefined();
      });

      it('refuses a kaboodle without an owner, a bad version or a member of an unknown type', async () => {
        const o = owner();
        await expect(index.kaboodles.upsert([kaboodle('')])).rejects.toThrow();
        await expect(index.kaboodles.upsert([kaboodle(o, { version: -1 })])).rejects.toThrow();
        await expect(
          index.kaboodles.upsert([kaboodle(o, { members: [{ entityType: 'user' as never, id: 'x' }] })]),
        ).rejects.toThrow();
      });
    });

    it('rejects a vector of the wrong length', async () => {
      const o = owner();
      await expect(
        index.upsert([entity(o, { vector: new Float32Array(dims + 1).fill(0.1) })]),
      ).rejects.toThrow();
      await expect(
        index.search(q(o, 'semantic', 'x', { vector: new Float32Array(Math.max(1, dims - 1)).fill(0.1) })),
      ).rejects.toThrow();
    });
  });
}
