// What the LanceDB adapter does beyond the shared contract (tests/contract/support/search-index-contract.ts):
// persistence in its folder, the dimension check, the ANN index's life cycle, the single coalescing writer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import { createLanceDbSearchIndex } from './lancedb-search-index.ts';
import type { IndexedEntity } from './search-index.port.ts';

const DIMS = 16;
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'kaboodle-lance-unit-'));
  dirs.push(d);
  return d;
}

/** A unit vector pointing mostly along axis i (deterministic, distinct per i). */
function vector(i: number): Float32Array {
  const v = new Float32Array(DIMS).map((_, j) => Math.sin(i * 12.9898 + j * 78.233) * 0.3);
  v[i % DIMS] = (v[i % DIMS] ?? 0) + 2;
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function entity(i: number, over: Partial<IndexedEntity> = {}): IndexedEntity {
  return {
    entityType: 'document',
    id: `d${i}`,
    ownerId: 'u1',
    version: 1,
    title: `item number ${i}`,
    description: '',
    content: '',
    category: 'General',
    hashtags: [],
    keywords: [],
    url: '',
    imageUrl: '',
    createdAt: new Date(0),
    updatedAt: new Date(0),
    vector: vector(i),
    passages: [],
    ...over,
  };
}

describe('LanceDB search index', () => {
  it('keeps its data and its version guard across a close and reopen of the folder', async () => {
    const dir = await tempDir();
    const first = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await first.open();
    await first.upsert([entity(1, { title: 'persistent heron', version: 3 })]);
    await first.delete([{ entityType: 'document', id: 'd2', ownerId: 'u1', version: 5 }]);
    await first.close();

    const again = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await again.open();
    const hits = await again.search({ ownerId: 'u1', mode: 'keyword', text: 'heron', limit: 5 });
    expect(hits.map((h) => h.id)).toEqual(['d1']);
    expect(await again.versionOf({ entityType: 'document', id: 'd1', ownerId: 'u1' })).toBe(3);
    expect(await again.upsert([entity(1, { version: 2 }), entity(2, { version: 4 })])).toEqual({
      applied: 0,
      stale: 2,
    });
    await again.close();
  });

  it('refuses a folder whose vectors have another length, saying what to do', async () => {
    const dir = await tempDir();
    const a = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await a.open();
    await a.close();
    const b = createLanceDbSearchIndex({ dir, dimensions: DIMS * 2 });
    await expect(b.open()).rejects.toThrow(/holds 16-dimension vectors but the embedder gives 32: rebuild/);
  });

  it('scores the content’s opening (the lead) on top of the whole text, also in a table made before it', async () => {
    const dir = await tempDir();
    const filler = 'notes on the project and its many small parts and pieces and other matters '.repeat(10);
    const docs = [
      entity(1, { title: 'first', content: `${filler} tidal turbine` }),
      entity(2, { title: 'second', content: `tidal turbine ${filler}` }),
    ];
    const index = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await index.open();
    await index.upsert(docs);
    const hits = await index.search({ ownerId: 'u1', mode: 'keyword', text: 'tidal turbine', limit: 5 });
    expect(hits.map((h) => h.id)).toEqual(['d2', 'd1']);
    expect(hits[0]!.raw!).toBeGreaterThan(hits[1]!.raw!);
    await index.close();

    // A table whose lead was never indexed (made before) gets the index when opened.
    const lance = await import('@lancedb/lancedb');
    const db = await lance.connect(dir);
    const table = await db.openTable((await db.tableNames())[0]!);
    const leadIndex = (await table.listIndices()).find((i) => i.columns.includes('content_head'));
    await table.dropIndex(leadIndex!.name);
    const reopened = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await reopened.open();
    const again = await reopened.search({ ownerId: 'u1', mode: 'keyword', text: 'tidal turbine', limit: 5 });
    expect(again.map((h) => h.id)).toEqual(['d2', 'd1']);
    await reopened.close();
  });

  it('scores a query’s adjacent words (word pairs) above the same words apart, in the table and the memory index', async () => {
    const dir = await tempDir();
    const index = createLanceDbSearchIndex({ dir, dimensions: DIMS, memoryIndex: { minOwnerRows: 2 } });
    await index.open();
    // The shorter text, with the words apart, would rank first on the words alone.
    await index.upsert([
      entity(1, { title: 'one', content: 'create the socket and read the file' }),
      entity(2, { title: 'two', content: 'read the socket header and create a file' }),
      entity(3, { title: 'three', content: 'a socket' }),
    ]);
    const search = () => index.search({ ownerId: 'u1', mode: 'keyword', text: 'create a file', limit: 5 });
    index.useMemoryIndexes(false);
    expect((await search()).map((h) => h.id)).toEqual(['d2', 'd1']);
    index.useMemoryIndexes(true);
    expect(await index.awaitMemoryIndex('u1')).toBe(true);
    expect((await search()).map((h) => h.id)).toEqual(['d2', 'd1']);
    expect(index.lastTimings().memory).toBe(1);
    await index.close();
  });

  it('shares one read of an owner’s stats among concurrent callers, and reads afresh after', async () => {
    const dir = await tempDir();
    const index = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await index.open();
    await index.upsert([entity(1), entity(2), entity(3, { ownerId: 'u2' })]);
    const burst = await Promise.all(Array.from({ length: 20 }, () => index.stats('u1')));
    expect(burst[0]).toMatchObject({ entities: 2 });
    // one read: every caller got the very same answer
    for (const s of burst) expect(s).toBe(burst[0]);
    expect(await index.entityCount('u1')).toBe(2);
    await index.upsert([entity(4)]);
    const after = await index.stats('u1');
    expect(after).not.toBe(burst[0]);
    expect(after.entities).toBe(3);
    expect(await index.entityCount('u1')).toBe(3);
    expect(await index.entityCount('u2')).toBe(1);
    await index.close();
  });

  it('fails clearly when used before open()', async () => {
    const index = createLanceDbSearchIndex({ dir: await tempDir(), dimensions: DIMS });
    await expect(index.search({ ownerId: 'u', mode: 'keyword', text: 'x', limit: 1 })).rejects.toThrow(
      'not open',
    );
  });

  it.each(['ivf-flat', 'hnsw-sq'] as const)(
    'builds the %s index once big enough; rows written afterwards are searchable at once',
    async (kind) => {
      const index = createLanceDbSearchIndex({
        ann: { kind },
        dir: await tempDir(),
        dimensions: DIMS,
        annMinRows: 300,
        flatMaxOwnerRows: 0,
        optimizeEveryWrites: 1_000,
        optimizeIntervalMs: 3_600_000,
      });
      await index.open();
      await index.upsert(Array.from({ length: 299 }, (_, i) => entity(i)));
      await index.optimize();
      expect(await index.hasAnnIndex()).toBe(false);
      await index.upsert([entity(299)]);
      await index.optimize();
      expect(await index.hasAnnIndex()).toBe(true);

      // not yet in the ANN index (no optimise since): found by the engine's flat pass over new rows
      await index.upsert([entity(5000, { title: 'freshly written osprey', vector: vector(7) })]);
      const kw = await index.search({ ownerId: 'u1', mode: 'keyword', text: 'osprey', limit: 3 });
      expect(kw.map((h) => h.id)).toEqual(['d5000']);
      const sem = await index.search({
        ownerId: 'u1',
        mode: 'semantic',
        text: '',
        vector: vector(7),
        limit: 3,
      });
      expect(sem.map((h) => h.id)).toContain('d5000');
      expect(index.lastTimings().exact).toBe(0);

      // the ANN answer matches the exact kNN on this small set
      const q = vector(42);
      const ann = await index.search({ ownerId: 'u1', mode: 'semantic', text: '', vector: q, limit: 10 });
      const exact = await index.exactKnn('u1', q, 10);
      const overlap = ann.filter((h) => exact.includes(JSON.stringify(['u1', 'document', h.id]))).length;
      expect(overlap).toBeGreaterThanOrEqual(9);
      await index.close();
    },
  );

  it('serves repeated hits from memory and never shows a row older than the last write', async () => {
    const index = createLanceDbSearchIndex({ dir: await tempDir(), dimensions: DIMS, hitCacheRows: 2 });
    await index.open();
    await index.upsert([
      entity(1, { title: 'amber kestrel' }),
      entity(2, { title: 'amber falcon' }),
      entity(3, { title: 'amber merlin' }),
      entity(1, { ownerId: 'u2', title: 'amber kestrel of another user' }),
    ]);
    const keyword = (text: string, ownerId = 'u1') =>
      index.search({ ownerId, mode: 'keyword', text, limit: 10 }).then((hs) => hs.map((h) => h.title).sort());

    expect(await keyword('kestrel')).toEqual(['amber kestrel']);
    expect(await keyword('kestrel')).toEqual(['amber kestrel']);
    expect(index.hitCache()).toEqual({ rows: 1, hits: 1, misses: 1 });
    // the same key in another user's library is another row
    expect(await keyword('kestrel', 'u2')).toEqual(['amber kestrel of another user']);

    // a newer version replaces the remembered row; a deleted entity is gone at once
    await index.upsert([entity(1, { title: 'amber kestrel, corrected', version: 2 })]);
    expect(await keyword('kestrel')).toEqual(['amber kestrel, corrected']);
    await index.delete([{ entityType: 'document', id: 'd1', ownerId: 'u1', version: 3 }]);
    expect(await keyword('kestrel')).toEqual([]);

    // bounded: the least recently used rows go first
    expect(await keyword('amber')).toEqual(['amber falcon', 'amber merlin']);
    expect(index.hitCache().rows).toBe(2);
    const before = index.hitCache();
    const sem = await index.search({
      ownerId: 'u1',
      mode: 'semantic',
      text: '',
      vector: vector(2),
      limit: 1,
    });
    expect(sem.map((h) => h.title)).toEqual(['amber falcon']);
    expect(index.hitCache().hits).toBe(before.hits + 1);

    await index.deleteOwner('u1');
    expect(await keyword('amber')).toEqual([]);
    expect(index.hitCache().rows).toBe(0);
    await index.close();
  });

  it('coalesces concurrent upserts into few writes and applies back-pressure without losing any', async () => {
    const dir = await tempDir();
    const index = createLanceDbSearchIndex({ dir, dimensions: DIMS, maxBatchRows: 50, maxQueuedRows: 100 });
    await index.open();
    const db = await lancedb.connect(dir);
    const table = await db.openTable('kaboodle-entities');
    const before = await table.version();
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => index.upsert([entity(i)])));
    expect(outcomes.every((o) => o.applied === 1)).toBe(true);
    await table.checkoutLatest();
    const writes = (await table.version()) - before;
    expect(writes).toBeLessThan(60);
    // one oversized call is split into batches of maxBatchRows and still lands whole
    expect((await index.upsert(Array.from({ length: 260 }, (_, i) => entity(1000 + i)))).applied).toBe(260);
    expect((await index.stats('u1')).entities).toBe(320);
    table.close();
    db.close();
    await index.close();
  });

  it('keeps only the highest version of an entity repeated in one call, even across batches', async () => {
    const index = createLanceDbSearchIndex({ dir: await tempDir(), dimensions: DIMS, maxBatchRows: 2 });
    await index.open();
    const out = await index.upsert([
      entity(1, { title: 'old gannet' }),
      entity(2),
      entity(3),
      entity(1, { version: 2, title: 'new gannet' }),
    ]);
    expect(out).toEqual({ applied: 3, stale: 1 });
    const hits = await index.search({ ownerId: 'u1', mode: 'keyword', text: 'gannet', limit: 5 });
    expect(hits.map((h) => h.title)).toEqual(['new gannet']);
    await index.close();
  });

  it('drops tombstones once older than their time to live, at maintenance', async () => {
    const dir = await tempDir();
    const index = createLanceDbSearchIndex({ dir, dimensions: DIMS, tombstoneTtlMs: 0 });
    await index.open();
    await index.upsert([entity(1)]);
    await index.delete([{ entityType: 'document', id: 'd1', ownerId: 'u1', version: 2 }]);
    // before maintenance the tombstone guards the entity
    expect((await index.upsert([entity(1, { version: 1 })])).stale).toBe(1);
    const db = await lancedb.connect(dir);
    const table = await db.openTable('kaboodle-entities');
    expect(await table.countRows('deleted = true')).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    await index.optimize();
    await table.checkoutLatest();
    expect(await table.countRows()).toBe(0);
    table.close();
    db.close();
    await index.close();
  });

  it('finishes queued writes before close() returns', async () => {
    const dir = await tempDir();
    const index = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await index.open();
    const pending = index.upsert([entity(1, { title: 'late pelican' })]);
    await index.close();
    await expect(pending).resolves.toEqual({ applied: 1, stale: 0 });
    const again = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await again.open();
    expect((await again.search({ ownerId: 'u1', mode: 'keyword', text: 'pelican', limit: 1 })).length).toBe(
      1,
    );
    await again.close();
  });

  it('moves a large owner onto an in-memory index (vector graph + BM25) that follows every write, the table answering meanwhile', async () => {
    const dir = await tempDir();
    const index = createLanceDbSearchIndex({ dir, dimensions: DIMS, memoryIndex: { minOwnerRows: 10 } });
    await index.open();
    await index.upsert(
      Array.from({ length: 30 }, (_, i) => entity(i, { category: i < 5 ? 'Rare' : 'General' })),
    );
    await index.upsert(Array.from({ length: 5 }, (_, i) => entity(i, { ownerId: 'u2' })));
    const semantic = (ownerId: string, v: Float32Array, over: object = {}) =>
      index.search({ ownerId, mode: 'semantic', text: '', vector: v, limit: 5, ...over });

    // The first vector query starts the build and is answered by the table.
    const keyword = () => index.search({ ownerId: 'u1', mode: 'keyword', text: 'number 7', limit: 3 });
    const before = await semantic('u1', vector(7));
    expect(index.lastTimings().memory).toBe(0);
    index.useMemoryIndexes(false); // the table's own answer, to compare with
    const wordsBefore = await keyword();
    expect(index.lastTimings().memory).toBe(0);
    index.useMemoryIndexes(true);
    expect(await index.awaitMemoryIndex('u1')).toBe(true);
    expect(index.memoryIndexes()).toEqual({ owners: 1, vectors: 30, building: 0 });
    const after = await semantic('u1', vector(7));
    expect(index.lastTimings().memory).toBe(1);
    expect(after.map((h) => h.id)).toEqual(before.map((h) => h.id));
    // the graph holds f16 vectors: its cosine agrees with the table's f32 one to ~1e-4
    after.forEach((h, i) => expect(h.score).toBeCloseTo(before[i]!.score, 3));
    // The keyword path moves too; the top hit and the score scale (top = 1) stay the table's.
    const wordsAfter = await keyword();
    expect(index.lastTimings().memory).toBe(1);
    expect(wordsAfter[0]!.id).toBe('d7');
    expect(wordsAfter[0]!.id).toBe(wordsBefore[0]!.id);
    expect(wordsAfter[0]!.score).toBe(1);
    // A small owner stays on the table, and never sees the big owner's entities.
    expect(await index.awaitMemoryIndex('u2')).toBe(false);
    expect((await semantic('u2', vector(7), { limit: 50 })).length).toBe(5);

    // Writes reach the graph: a new vector, a delete, a new entity.
    await index.upsert([entity(1, { version: 2, vector: vector(500) })]);
    await index.delete([{ entityType: 'document', id: 'd7', ownerId: 'u1', version: 2 }]);
    await index.upsert([entity(40, { entityType: 'inventory_item', id: 'i40' })]);
    expect((await semantic('u1', vector(500)))[0]!.id).toBe('d1');
    expect((await keyword()).map((h) => h.id)).not.toContain('d7');
    // Display fields come from memory too, and follow the writes.
    await index.upsert([entity(2, { version: 3, title: 'renamed heron', category: 'Rare' })]);
    const renamed = await index.search({ ownerId: 'u1', mode: 'keyword', text: 'heron', limit: 3 });
    expect(index.lastTimings().memory).toBe(1);
    expect(renamed.map((h) => [h.id, h.title, h.category])).toEqual([['d2', 'renamed heron', 'Rare']]);
    expect((await semantic('u1', vector(7), { limit: 50 })).map((h) => h.id)).not.toContain('d7');
    expect(index.lastTimings().memory).toBe(1);
    const items = await semantic('u1', vector(40), { entityTypes: ['inventory_item'] });
    expect(items.map((h) => h.id)).toEqual(['i40']);

    // A category filter is the table's job; related() uses the graph and leaves the entity out.
    const rare = await semantic('u1', vector(3), { category: 'Rare', limit: 50 });
    expect(index.lastTimings().memory).toBe(0);
    expect(rare.map((h) => h.id).sort()).toEqual(['d0', 'd2', 'd3', 'd4']);
    const related = await index.related({ ownerId: 'u1', entityType: 'document', id: 'd3', limit: 5 });
    expect(related.map((h) => h.id)).not.toContain('d3');
    expect(related).toHaveLength(5);

    await index.deleteOwner('u1');
    expect(index.memoryIndexes().owners).toBe(0);
    expect(await semantic('u1', vector(7))).toEqual([]);
    await index.close();
  });

  it('keeps kaboodle memberships in their own table across a reopen, and its cache follows every write', async () => {
    const dir = await tempDir();
    const first = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await first.open();
    await first.upsert([entity(1), entity(2), entity(3)]);
    const members = [
      { entityType: 'document' as const, id: 'd3' },
      { entityType: 'document' as const, id: 'd1' },
    ];
    await first.kaboodles.upsert([{ ownerId: 'u1', id: 'k1', version: 4, members, updatedAt: new Date(0) }]);
    expect((await first.kaboodles.get('u1', 'k1'))?.members).toEqual(members); // now cached
    await first.kaboodles.upsert([
      { ownerId: 'u1', id: 'k1', version: 5, members: members.slice(1), updatedAt: new Date(0) },
    ]);
    expect((await first.kaboodles.get('u1', 'k1'))?.members).toEqual(members.slice(1));
    await first.close();

    const second = createLanceDbSearchIndex({ dir, dimensions: DIMS });
    await second.open();
    expect(await second.kaboodles.get('u1', 'k1')).toMatchObject({ version: 5, members: members.slice(1) });
    const hits = await second.search({
      ownerId: 'u1',
      mode: 'keyword',
      text: 'item number',
      limit: 10,
      only: members,
    });
    expect(hits.map((h) => h.id).sort()).toEqual(['d1', 'd3']);
    await second.kaboodles.delete([{ ownerId: 'u1', id: 'k1', version: 6 }]);
    expect(await second.kaboodles.get('u1', 'k1')).toBeUndefined();
    expect(await lancedb.connect(dir).then((db) => db.tableNames())).toContain('kaboodle-entities-kaboodles');
    await second.close();
  });
});
