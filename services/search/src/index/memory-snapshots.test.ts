// Memory-index snapshots (memory-snapshots.ts, lancedb-memory-index.ts): a restart loads a large
// owner's memory index from disk and reconciles it with the table instead of rebuilding it; a
// damaged or mismatched snapshot is discarded and the index built as before; owners stay apart.
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@kaboodle/platform';
import { createLanceDbSearchIndex } from './lancedb-search-index.ts';
import type { LanceDbSearchIndexOptions } from './lancedb-search-index.ts';
import { createSnapshotStore, ownerSnapshotDir, SnapshotRejected } from './memory-snapshots.ts';
import type { IndexedEntity, SearchQuery } from './search-index.port.ts';
import { OwnerDisplayRows } from './display-rows.ts';
import { OwnerKeywordIndex } from './keyword-index.ts';
import { OwnerVectorGraph } from './vector-graph.ts';

const DIMS = 16;
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'kaboodle-snap-unit-'));
  dirs.push(d);
  return d;
}

function vector(i: number): Float32Array {
  const v = new Float32Array(DIMS).map((_, j) => Math.sin(i * 12.9898 + j * 78.233) * 0.3);
  v[i % DIMS] = (v[i % DIMS] ?? 0) + 2;
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

const WORDS = ['heron', 'kettle', 'lantern', 'saddle', 'copper', 'walnut', 'harbour', 'violin'];
function entity(i: number, over: Partial<IndexedEntity> = {}): IndexedEntity {
  return {
    entityType: i % 3 === 2 ? 'inventory_item' : 'document',
    id: `d${i}`,
    ownerId: 'u1',
    version: 1,
    title: `${WORDS[i % WORDS.length]} number ${i}`,
    description: `${WORDS[(i * 3) % WORDS.length]} and ${WORDS[(i * 5) % WORDS.length]}`,
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

/** An adapter on `dir` whose log lines are kept, to tell a snapshot load from a build. */
function open(dir: string, over: Partial<LanceDbSearchIndexOptions> = {}) {
  const lines: { msg: string; [k: string]: unknown }[] = [];
  const logger = createLogger({
    component: 'test',
    destination: new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as (typeof lines)[0]);
        done();
      },
    }),
  });
  const index = createLanceDbSearchIndex({
    dir,
    dimensions: DIMS,
    model: 'model-a',
    memoryIndex: { minOwnerRows: 10 },
    logger,
    ...over,
  });
  const said = (text: string) => lines.filter((l) => l.msg.includes(text));
  return { index, lines, said };
}

const QUERIES: Omit<SearchQuery, 'ownerId'>[] = [
  { mode: 'keyword', text: 'heron lantern', limit: 10 },
  { mode: 'semantic', text: '', vector: vector(3), limit: 10 },
  { mode: 'hybrid', text: 'copper walnut', vector: vector(11), limit: 10 },
  { mode: 'keyword', text: 'violin', entityTypes: ['inventory_item'], limit: 10 },
];

/** The answers to QUERIES from the owner's memory index (failing when the table answered instead). */
async function answers(index: ReturnType<typeof open>['index'], ownerId = 'u1', withScores = true) {
  const out: string[][] = [];
  for (const q of QUERIES) {
    const hits = await index.search({ ...q, ownerId });
    expect(index.lastTimings().memory).toBe(1);
    out.push(hits.map((h) => `${h.id}:${h.title}${withScores ? `:${h.score.toFixed(6)}` : ''}`));
  }
  return out;
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An index with 40 entities of u1, its memory index built and saved, then closed. */
async function seeded(dir: string, extra: IndexedEntity[] = []) {
  const a = open(dir);
  await a.index.open();
  await a.index.upsert([...Array.from({ length: 40 }, (_, i) => entity(i)), ...extra]);
  expect(await a.index.awaitMemoryIndex('u1')).toBe(true);
  await a.index.memorySnapshotsSaved();
  expect(a.said('saved an owner’s in-memory index snapshot')).toHaveLength(1);
  const before = await answers(a.index);
  await a.index.close();
  return before;
}

describe('memory-index snapshots', () => {
  it('loads a large owner’s memory index in the background at open and answers as before, without a rebuild', async () => {
    const dir = await tempDir();
    const before = await seeded(dir);
    const b = open(dir);
    await b.index.open();
    // no query yet: the snapshot is loaded in the background
    await until(() => b.index.memoryIndexes().owners === 1 && b.index.memoryIndexes().building === 0);
    expect(b.index.memoryIndexes().vectors).toBe(40);
    expect(await answers(b.index)).toEqual(before);
    expect(b.said('from its snapshot')).toHaveLength(1);
    expect(b.said('built an owner’s in-memory index')).toHaveLength(0);
    // nothing changed: close writes no new snapshot
    await b.index.close();
    expect(b.said('saved an owner’s in-memory index snapshot')).toHaveLength(0);
  });

  it('reconciles writes the snapshot missed (added, updated, deleted) and lets writes during the load win', async () => {
    const dir = await tempDir();
    await seeded(dir);
    // Another process (no memory index) changes the table after the snapshot: a crash's leftovers.
    const other = createLanceDbSearchIndex({ dir, dimensions: DIMS, memoryIndex: false });
    await other.open();
    await other.upsert([
      entity(40, { title: 'albatross newcomer' }),
      entity(5, { version: 2, title: 'albatross revised', vector: vector(77) }),
    ]);
    await other.delete([{ entityType: 'document', id: 'd6', ownerId: 'u1', version: 2 }]);
    await other.close();

    const b = open(dir);
    await b.index.open();
    // a write right after open, while the snapshot may still be loading: it must win
    await b.index.upsert([entity(7, { version: 3, title: 'albatross latest' })]);
    expect(await b.index.awaitMemoryIndex('u1')).toBe(true);
    // (ids and order: BM25's df counts removed documents until the keyword index's next merge, as
    // Lucene does, so scores may move a little once the reconciled state is merged and saved)
    const fromMemory = await answers(b.index, 'u1', false);
    const kw = await b.index.search({ ownerId: 'u1', mode: 'keyword', text: 'albatross', limit: 10 });
    expect(b.index.lastTimings().memory).toBe(1);
    expect(kw.map((h) => h.title).sort()).toEqual([
      'albatross latest',
      'albatross newcomer',
      'albatross revised',
    ]);
    const near = await b.index.search({
      ownerId: 'u1',
      mode: 'semantic',
      text: '',
      vector: vector(77),
      limit: 1,
    });
    expect(near.map((h) => h.id)).toEqual(['d5']);
    const gone = await b.index.search({
      ownerId: 'u1',
      mode: 'semantic',
      text: '',
      vector: vector(6),
      limit: 40,
    });
    expect(gone.map((h) => h.id)).not.toContain('d6');
    expect(b.index.memoryIndexes().vectors).toBe(40);
    // the table's own answers agree
    b.index.useMemoryIndexes(false);
    const kwTable = await b.index.search({ ownerId: 'u1', mode: 'keyword', text: 'albatross', limit: 10 });
    expect(kwTable.map((h) => h.title).sort()).toEqual(kw.map((h) => h.title).sort());
    b.index.useMemoryIndexes(true);
    const loaded = b.said('from its snapshot');
    expect(loaded).toHaveLength(1);
    expect(b.said('built an owner’s in-memory index')).toHaveLength(0);
    expect(loaded[0]!.removed).toBe(1);
    expect(Number(loaded[0]!.applied)).toBeGreaterThanOrEqual(2);
    // the reconciled state is saved again: the next start loads it with nothing to apply
    await b.index.memorySnapshotsSaved();
    await b.index.close();
    const c = open(dir);
    await c.index.open();
    expect(await c.index.awaitMemoryIndex('u1')).toBe(true);
    expect(await answers(c.index, 'u1', false)).toEqual(fromMemory);
    expect(c.said('from its snapshot')[0]).toMatchObject({ applied: 0, removed: 0 });
    await c.index.close();
  });

  it.each([
    ['truncated', (f: string) => truncate(f, 10)],
    [
      'damaged',
      async (f: string) => {
        const b = await readFile(f);
        const at = Math.floor(b.length / 2);
        b[at] = b[at]! ^ 0xff;
        await writeFile(f, b);
      },
    ],
    ['missing its manifest’s generation', (f: string) => rm(join(f, '..', '..'), { recursive: true })],
  ])('discards a %s snapshot and builds from the table instead', async (_name, harm) => {
    const dir = await tempDir();
    const before = await seeded(dir);
    const root = join(dir, 'memory-snapshots');
    const files = await filesUnder(root);
    const target = files.find((f) => f.includes('/keywords/'))!;
    expect(target).toBeDefined();
    await harm(target);
    const b = open(dir);
    await b.index.open();
    expect(await b.index.awaitMemoryIndex('u1')).toBe(true);
    expect(await answers(b.index)).toEqual(before);
    expect(b.said('unusable and is discarded')).toHaveLength(1);
    expect(b.said('built an owner’s in-memory index')).toHaveLength(1);
    expect(b.said('from its snapshot')).toHaveLength(0);
    // and a fresh snapshot replaces it
    await b.index.memorySnapshotsSaved();
    await b.index.close();
    const c = open(dir);
    await c.index.open();
    expect(await c.index.awaitMemoryIndex('u1')).toBe(true);
    expect(c.said('from its snapshot')).toHaveLength(1);
    await c.index.close();
  });

  it('ignores a snapshot of another embedding model, and a store refuses one of another size', async () => {
    const dir = await tempDir();
    const before = await seeded(dir);
    const b = open(dir, { model: 'model-b' });
    await b.index.open();
    expect(await b.index.awaitMemoryIndex('u1')).toBe(true);
    expect(await answers(b.index)).toEqual(before);
    expect(b.said('unusable and is discarded')).toHaveLength(1);
    expect(b.said('built an owner’s in-memory index')).toHaveLength(1);
    await b.index.close();

    const root = await tempDir();
    const graph = new OwnerVectorGraph(DIMS, {}, 16);
    graph.applyWrite('k', 'document', vector(1));
    graph.markReady();
    const words = new OwnerKeywordIndex();
    words.applyWrite('k', 'document', 'heron');
    words.markReady();
    const rows = new OwnerDisplayRows(join(root, 'live-rows'));
    rows.set('k', { key: 'k' });
    const entities = { keys: ['k'], versions: Float64Array.of(1), deleted: Uint8Array.of(0) };
    await createSnapshotStore(root, { dims: DIMS, model: 'm' }).save('u1', { graph, words, rows }, entities);
    expect(
      (await createSnapshotStore(root, { dims: DIMS, model: 'm' }).load('u1', {}))?.entities.keys,
    ).toEqual(['k']);
    await expect(createSnapshotStore(root, { dims: DIMS * 2, model: 'm' }).load('u1', {})).rejects.toThrow(
      SnapshotRejected,
    );
  });

  it('removes the snapshot of an owner who has become small, whom the table answers', async () => {
    const dir = await tempDir();
    await seeded(dir);
    const other = createLanceDbSearchIndex({ dir, dimensions: DIMS, memoryIndex: false });
    await other.open();
    await other.delete(
      Array.from({ length: 35 }, (_, i) => ({
        entityType: entity(i).entityType,
        id: `d${i}`,
        ownerId: 'u1',
        version: 2,
      })),
    );
    await other.close();
    const root = join(dir, 'memory-snapshots', 'kaboodle-entities');
    expect(await readdir(root)).toHaveLength(1);
    const b = open(dir);
    await b.index.open();
    const gone = Date.now() + 10_000;
    while ((await readdir(root)).length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 20));
    expect(await readdir(root)).toEqual([]);
    expect(b.index.memoryIndexes().owners).toBe(0);
    await b.index.close();
  });

  it('keeps two owners’ snapshots apart, under hashed folder names, and removes a deleted owner’s', async () => {
    const dir = await tempDir();
    const evil = '../../evil/u2';
    const theirs = Array.from({ length: 30 }, (_, i) =>
      entity(100 + i, { ownerId: evil, title: `heron of u2 ${i}` }),
    );
    const a = open(dir);
    await a.index.open();
    await a.index.upsert([...Array.from({ length: 40 }, (_, i) => entity(i)), ...theirs]);
    expect(await a.index.awaitMemoryIndex('u1')).toBe(true);
    expect(await a.index.awaitMemoryIndex(evil)).toBe(true);
    await a.index.memorySnapshotsSaved();
    await a.index.close();
    const root = join(dir, 'memory-snapshots', 'kaboodle-entities');
    const owners = (await readdir(root)).sort();
    expect(owners).toEqual(
      [ownerSnapshotDir(root, 'u1'), ownerSnapshotDir(root, evil)]
        .map((p) => p.slice(root.length + 1))
        .sort(),
    );
    for (const o of owners) expect(o).toMatch(/^[0-9a-f]{40}$/);

    const b = open(dir);
    await b.index.open();
    await until(() => b.index.memoryIndexes().owners === 2 && b.index.memoryIndexes().building === 0);
    const mine = await b.index.search({ ownerId: 'u1', mode: 'keyword', text: 'heron', limit: 100 });
    expect(b.index.lastTimings().memory).toBe(1);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((h) => Number(h.id.slice(1)) < 40)).toBe(true);
    const other = await b.index.search({
      ownerId: evil,
      mode: 'semantic',
      text: '',
      vector: vector(3),
      limit: 100,
    });
    expect(b.index.lastTimings().memory).toBe(1);
    expect(other.map((h) => h.id).sort()).toEqual(theirs.map((e) => e.id).sort());
    await b.index.deleteOwner(evil);
    expect(await readdir(root)).toEqual([ownerSnapshotDir(root, 'u1').slice(root.length + 1)]);
    await b.index.close();
  });
});

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if ((await stat(p)).isFile()) out.push(p);
  }
  return out;
}
