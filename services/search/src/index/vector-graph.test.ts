import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OwnerVectorGraph } from './vector-graph.ts';

const DIMS = 24;

/** A deterministic unit vector, distinct per i. */
function vector(i: number): Float32Array {
  const v = new Float32Array(DIMS).map((_, j) => (Math.sin(i * 12.9898 + j * 78.233) * 43758.5453) % 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function cosineDistance(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i]! * b[i]!;
  return 1 - d;
}

/** Exact nearest keys of a query among the given vectors. */
function exact(all: Map<string, Float32Array>, q: Float32Array, k: number): string[] {
  return [...all]
    .map(([key, v]) => ({ key, d: cosineDistance(v, q) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, k)
    .map((x) => x.key);
}

describe('OwnerVectorGraph', () => {
  it('answers like an exact scan, with cosine distances, and grows past its first capacity', () => {
    const g = new OwnerVectorGraph(DIMS, {}, 16);
    const all = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i++) {
      all.set(`k${i}`, vector(i));
      g.load(`k${i}`, i % 3 === 0 ? 'inventory_item' : 'document', vector(i));
    }
    g.markReady();
    expect(g.size).toBe(300);
    for (const qi of [5, 77, 123, 250]) {
      const q = vector(qi + 1000);
      const got = g.search(q, 10);
      expect(got.map((c) => c.key)).toEqual(exact(all, q, 10));
      // f16 storage: distances agree to ~1e-4
      expect(got[0]!.distance).toBeCloseTo(cosineDistance(all.get(got[0]!.key)!, q), 3);
    }
  });

  it('filters by entity type and excluded keys, and returns at most what it holds', () => {
    const g = new OwnerVectorGraph(DIMS);
    for (let i = 0; i < 40; i++) g.load(`k${i}`, i % 2 ? 'inventory_item' : 'document', vector(i));
    g.markReady();
    const items = g.search(vector(3), 100, { entityTypes: ['inventory_item'] });
    expect(items).toHaveLength(20);
    expect(items.every((c) => Number(c.key.slice(1)) % 2 === 1)).toBe(true);
    expect(items[0]!.key).toBe('k3');
    const without = g.search(vector(3), 5, { excludeKeys: ['k3'] });
    expect(without.map((c) => c.key)).not.toContain('k3');
    expect(without).toHaveLength(5);
    expect(new OwnerVectorGraph(DIMS).search(vector(1), 10)).toEqual([]);
  });

  it('applies writes: a new vector replaces the old one, a delete removes it, slots are reused', () => {
    const g = new OwnerVectorGraph(DIMS, {}, 16);
    for (let i = 0; i < 16; i++) g.load(`k${i}`, 'document', vector(i));
    g.markReady();
    g.applyWrite('k1', 'document', vector(500));
    expect(g.search(vector(500), 1)[0]).toMatchObject({ key: 'k1' });
    expect(g.search(vector(1), 16).map((c) => c.key)).toContain('k1');
    expect(g.search(vector(1), 1)[0]!.key).not.toBe('k1');
    g.applyWrite('k2', 'document', null);
    expect(g.size).toBe(15);
    expect(g.search(vector(2), 16).map((c) => c.key)).not.toContain('k2');
    g.applyWrite('k99', 'document', vector(99));
    expect(g.size).toBe(16);
    expect(g.search(vector(99), 1)[0]!.key).toBe('k99');
  });

  it('keeps writes made during the build over the older snapshot rows, and leaves zero vectors out', () => {
    const g = new OwnerVectorGraph(DIMS);
    g.applyWrite('k1', 'document', vector(600)); // written while building: newer than the snapshot
    g.applyWrite('k2', 'document', null); // deleted while building
    g.load('k1', 'document', vector(1));
    g.load('k2', 'document', vector(2));
    g.load('k3', 'document', vector(3));
    g.load('zero', 'document', new Float32Array(DIMS));
    g.markReady();
    expect(g.size).toBe(2);
    expect(g.search(vector(600), 1)[0]!.key).toBe('k1');
    expect(
      g
        .search(vector(2), 10)
        .map((c) => c.key)
        .sort(),
    ).toEqual(['k1', 'k3']);
    // after the build, loads of old rows are no longer expected, but writes still apply
    g.applyWrite('k1', 'document', vector(1));
    expect(g.search(vector(1), 1)[0]!.key).toBe('k1');
  });

  it('refuses a vector of another size', () => {
    const g = new OwnerVectorGraph(DIMS);
    expect(() => g.applyWrite('k', 'document', new Float32Array(DIMS + 1).fill(1))).toThrow(/dimension/);
  });

  it('searches only the filtered type, exactly, even when it is rare and far from the query', () => {
    // 1,000 documents near the query, 12 items away from it: a filter over one shared graph would
    // have to wade through every document first.
    // its side graph, exhaustively or not; or over-fetched from the main graph when it has none
    for (const [settings, inSide] of [
      [{ exhaustiveBelow: 0 }, 12],
      [{ exhaustiveBelow: 2_048 }, 12],
      [{ exhaustiveBelow: 0, sideGraphMax: 0 }, 0],
    ] as const) {
      const g = new OwnerVectorGraph(DIMS, { ef: 16, ...settings });
      const items = new Map<string, Float32Array>();
      for (let i = 0; i < 1_000; i++) g.load(`d${i}`, 'document', vector(i));
      for (let i = 0; i < 12; i++) {
        const v = vector(5_000 + i).map((x) => -x);
        items.set(`i${i}`, v);
        g.load(`i${i}`, 'inventory_item', v);
      }
      g.markReady();
      expect(g.stats().inSideGraphs).toBe(inSide);
      const q = vector(3);
      const got = g.search(q, 5, { entityTypes: ['inventory_item'] });
      expect(got.map((c) => c.key)).toEqual(exact(items, q, 5));
      expect(g.search(q, 5, { entityTypes: ['document'] }).every((c) => c.key.startsWith('d'))).toBe(true);
      // unfiltered: both types' graphs, merged by distance
      expect(g.search(q, 3)[0]!.key).toBe('d3');
    }
  });

  it('drops a side graph once its type outgrows it, filtering the main graph instead', () => {
    const g = new OwnerVectorGraph(DIMS, { sideGraphMax: 50, exhaustiveBelow: 0, ef: 16 });
    const items = new Map<string, Float32Array>();
    for (let i = 0; i < 400; i++) g.load(`d${i}`, 'document', vector(i));
    for (let i = 0; i < 40; i++) {
      items.set(`i${i}`, vector(2_000 + i));
      g.load(`i${i}`, 'inventory_item', vector(2_000 + i));
    }
    g.markReady();
    expect(g.stats().inSideGraphs).toBe(40);
    for (let i = 40; i < 60; i++) {
      items.set(`i${i}`, vector(2_000 + i));
      g.applyWrite(`i${i}`, 'inventory_item', vector(2_000 + i));
    }
    expect(g.stats().inSideGraphs).toBe(0);
    for (const qi of [1, 2, 3]) {
      const q = vector(qi);
      const got = g.search(q, 5, { entityTypes: ['inventory_item'] }).map((c) => c.key);
      expect(got).toHaveLength(5);
      expect(got.filter((k) => exact(items, q, 5).includes(k)).length).toBeGreaterThanOrEqual(4);
    }
  });

  it('over-fetches past excluded keys (widening when the graph returns too few)', () => {
    const g = new OwnerVectorGraph(DIMS, { ef: 8, exhaustiveBelow: 0 });
    const all = new Map<string, Float32Array>();
    for (let i = 0; i < 600; i++) {
      all.set(`k${i}`, vector(i));
      g.load(`k${i}`, 'document', vector(i));
    }
    g.markReady();
    const q = vector(7);
    const nearest = exact(all, q, 60);
    const excluded = nearest.slice(0, 40);
    const got = g.search(q, 5, { excludeKeys: excluded });
    expect(got).toHaveLength(5);
    expect(got.some((c) => excluded.includes(c.key))).toBe(false);
    // what remains nearest after the excluded ones (the graph may miss one: at least 4 of 5)
    const rest = nearest.slice(40, 45);
    expect(got.filter((c) => rest.includes(c.key)).length).toBeGreaterThanOrEqual(4);
  });

  it('searches a small graph exhaustively: exact even with a tiny candidate list', () => {
    const dims = 64;
    const random = (seed: number) => {
      let s = seed;
      const v = new Float32Array(dims).map(() => {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        return s / 0x7fffffff - 0.5;
      });
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const g = new OwnerVectorGraph(dims, { ef: 1 });
    const all = new Map<string, Float32Array>();
    for (let i = 0; i < 1_500; i++) {
      all.set(`k${i}`, random(i + 1));
      g.load(`k${i}`, 'document', random(i + 1));
    }
    g.markReady();
    for (let qi = 0; qi < 20; qi++) {
      const q = random(90_000 + qi);
      // exact up to f16 rounding: every hit as near as the exact 10th (ties within 1e-3 may swap)
      const tenth = cosineDistance(all.get(exact(all, q, 10)[9]!)!, q);
      const got = g.search(q, 10);
      expect(got).toHaveLength(10);
      for (const c of got) expect(cosineDistance(all.get(c.key)!, q)).toBeLessThanOrEqual(tenth + 1e-3);
    }
  });

  it('finds every vector of a small graph loaded in threaded batches (usearch#735 strands some)', () => {
    // 40 vectors added as one batch on 4 threads left an unreachable node in ~30 % of builds
    // before small graphs took adds on one thread; 60 builds would all but surely catch one
    for (let build = 0; build < 60; build++) {
      const g = new OwnerVectorGraph(DIMS, { threads: 4 });
      for (let i = 0; i < 40; i++) g.load(`k${i}`, 'document', vector(build * 100 + i));
      g.markReady();
      expect(g.search(vector(build * 100), 41)).toHaveLength(40);
    }
  });

  it('frees the slots of deleted vectors for the next ones', () => {
    const g = new OwnerVectorGraph(DIMS, {}, 16);
    for (let i = 0; i < 500; i++) g.load(`k${i}`, 'document', vector(i));
    g.markReady();
    const before = g.stats();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 250; i++) g.applyWrite(`k${i}`, 'document', null);
      expect(g.size).toBe(250);
      expect(g.search(vector(10), 500).some((c) => Number(c.key.slice(1)) < 250)).toBe(false);
      for (let i = 0; i < 250; i++) g.applyWrite(`k${i}`, 'document', vector(i + 1_000 * (round + 1)));
    }
    expect(g.size).toBe(500);
    expect(g.stats()).toEqual(before);
    expect(g.search(vector(3_010), 1)[0]!.key).toBe('k10');
  });

  it('keeps a write that arrives while the loaded rows are still waiting to be added', () => {
    const g = new OwnerVectorGraph(DIMS);
    g.load('k1', 'document', vector(1));
    g.load('k2', 'document', vector(2));
    g.applyWrite('k1', 'document', vector(700));
    g.applyWrite('k2', 'document', null);
    g.load('k3', 'document', vector(3));
    g.markReady();
    expect(g.size).toBe(2);
    expect(g.search(vector(700), 1)[0]!.key).toBe('k1');
    expect(g.search(vector(2), 5).map((c) => c.key)).not.toContain('k2');
  });

  it('splits a large owner in shards, so clusters of near-duplicates do not hide the nearest', () => {
    // 200 clusters of 50 near-duplicates (a text and a little of another, as the bench's 1M corpus),
    // queries between two clusters: in one graph, a candidate list of ef 128 spans ~3 clusters and
    // recall@10 was 0.94; four shards of ~13 per cluster each reach 0.99.
    const dims = 128;
    let s = 7;
    const rnd = () => {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      return s / 0x7fffffff;
    };
    const unit = (v: Float32Array) => {
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const centres = Array.from({ length: 200 }, () => unit(new Float32Array(dims).map(() => rnd() - 0.5)));
    const all = new Map<string, Float32Array>();
    const g = new OwnerVectorGraph(dims, { shardSize: 2_500 }, 10_000);
    for (let i = 0; i < 10_000; i++) {
      const other = centres[Math.floor(rnd() * 200)]!;
      const v = unit(centres[i % 200]!.map((x, d) => x + 0.1 * other[d]!));
      all.set(`k${i}`, v);
      g.load(`k${i}`, 'document', v);
    }
    g.markReady();
    let hits = 0;
    const queries = 60;
    for (let q = 0; q < queries; q++) {
      const a = centres[Math.floor(rnd() * 200)]!;
      const b = centres[Math.floor(rnd() * 200)]!;
      const v = unit(a.map((x, d) => x + b[d]! + 0.5 * (rnd() - 0.5)));
      const tenth = cosineDistance(all.get(exact(all, v, 10)[9]!)!, v);
      for (const c of g.search(v, 10)) if (cosineDistance(all.get(c.key)!, v) <= tenth + 1e-4) hits++;
    }
    expect(hits / (queries * 10)).toBeGreaterThanOrEqual(0.98);
    expect(g.stats()).toMatchObject({ live: 10_000, shards: 4 });
  });

  it('keeps filters, excluded keys, deletes and reused slots right across shards', () => {
    const g = new OwnerVectorGraph(DIMS, { shardSize: 100, exhaustiveBelow: 0, ef: 64 }, 400);
    const all = new Map<string, Float32Array>();
    for (let i = 0; i < 400; i++) {
      const type = i % 5 === 0 ? 'inventory_item' : 'document';
      g.load(`k${i}`, type, vector(i));
      all.set(`k${i}`, vector(i));
    }
    g.markReady();
    expect(g.stats()).toMatchObject({ live: 400, shards: 4, inSideGraphs: 80 });
    const items = new Map([...all].filter(([k]) => Number(k.slice(1)) % 5 === 0));
    const q = vector(12);
    expect(g.search(q, 10).map((c) => c.key)).toEqual(exact(all, q, 10));
    expect(g.search(q, 5, { entityTypes: ['inventory_item'] }).map((c) => c.key)).toEqual(exact(items, q, 5));
    const docs = g.search(q, 30, { entityTypes: ['document'] });
    expect(docs).toHaveLength(30);
    expect(docs.every((c) => Number(c.key.slice(1)) % 5 !== 0)).toBe(true);
    const excluded = exact(all, q, 7);
    expect(g.search(q, 5, { excludeKeys: excluded }).map((c) => c.key)).toEqual(exact(all, q, 12).slice(7));
    for (let i = 0; i < 100; i++) g.applyWrite(`k${i}`, 'document', null);
    expect(g.search(q, 400).some((c) => Number(c.key.slice(1)) < 100)).toBe(false);
    for (let i = 0; i < 100; i++) g.applyWrite(`n${i}`, 'document', vector(9_000 + i));
    expect(g.stats()).toMatchObject({ live: 400, labels: 400, shards: 4 });
    expect(g.search(vector(9_042), 1)[0]!.key).toBe('n42');
    // a type with no side graph, held by one shard only: found there, the other shards hold none
    const few = new OwnerVectorGraph(
      DIMS,
      { shardSize: 100, sideGraphMax: 0, exhaustiveBelow: 0, ef: 16 },
      400,
    );
    for (let i = 0; i < 400; i++) few.load(`k${i}`, i % 4 === 1 && i < 20 ? 'rare' : 'document', vector(i));
    few.markReady();
    expect(few.search(vector(1), 10, { entityTypes: ['rare'] }).map((c) => c.key)).toEqual(
      exact(new Map([1, 5, 9, 13, 17].map((i) => [`k${i}`, vector(i)])), vector(1), 10),
    );
    // every shard answers (HNSW may leave a node or two unreachable after deletes)
    expect(g.search(vector(9_042), 400).length).toBeGreaterThan(390);
  });

  describe('saved and opened again', () => {
    const dirs: string[] = [];
    afterEach(async () => {
      for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
    });
    async function saved(shardSize?: number): Promise<{ g: OwnerVectorGraph; dir: string }> {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'vector-graph-'));
      dirs.push(dir);
      const g = new OwnerVectorGraph(DIMS, { ef: 64, ...(shardSize ? { shardSize } : {}) }, 400);
      for (let i = 0; i < 400; i++) g.load(`k${i}`, i % 4 ? 'document' : 'inventory_item', vector(i));
      g.markReady();
      for (let i = 0; i < 30; i++) g.applyWrite(`k${i}`, 'document', null); // free labels saved too
      await g.saveTo(dir);
      return { g, dir };
    }

    it('answers exactly as before, and takes writes after', async () => {
      const { g, dir } = await saved();
      const back = await OwnerVectorGraph.loadFrom(dir, DIMS, { ef: 64 });
      expect(back.state).toBe('ready');
      expect(back.size).toBe(g.size);
      for (const qi of [1, 50, 222]) {
        expect(back.search(vector(qi), 10)).toEqual(g.search(vector(qi), 10));
        const f = { entityTypes: ['inventory_item'], excludeKeys: ['k40'] };
        expect(back.search(vector(qi), 10, f)).toEqual(g.search(vector(qi), 10, f));
      }
      back.applyWrite('k5', 'document', vector(5));
      back.applyWrite('k50', 'document', null);
      back.applyWrite('new', 'inventory_item', vector(9_999));
      expect(back.size).toBe(g.size + 1);
      expect(back.search(vector(5), 1)[0]!.key).toBe('k5');
      expect(back.search(vector(9_999), 1, { entityTypes: ['inventory_item'] })[0]!.key).toBe('new');
      expect(back.search(vector(50), 400).map((c) => c.key)).not.toContain('k50');
      // a second save replaces the first in place
      await back.saveTo(dir);
      expect((await OwnerVectorGraph.loadFrom(dir, DIMS)).size).toBe(back.size);
    });

    it('saves its shards one at a time: writes meanwhile wait, stay out of the file, then apply', async () => {
      const { g, dir } = await saved(100);
      const before = g.size;
      const write = g.freeze(dir);
      // writes and searches arrive while the shards are saved, in the loop's turns between them
      const during: string[][] = [];
      let turns = 0;
      const meanwhile = () => {
        turns++;
        g.applyWrite(`new${turns}`, 'document', vector(10_000 + turns));
        g.applyWrite('k40', 'document', null);
        g.remove('k41');
        during.push(g.search(vector(10_000 + turns), 3).map((c) => c.key));
        if (turns < 3) setImmediate(meanwhile);
      };
      setImmediate(meanwhile);
      expect(() => g.freeze(dir)).toThrow(/under way/);
      await write();
      expect(turns).toBeGreaterThan(0);
      // searched meanwhile: the graph as of the freeze
      for (const keys of during) expect(keys.some((k) => k.startsWith('new'))).toBe(false);
      // after: every write applied, in order
      expect(g.size).toBe(before + turns - 2);
      expect(g.search(vector(10_001), 1)[0]!.key).toBe('new1');
      expect(g.search(vector(40), 400).map((c) => c.key)).not.toContain('k40');
      // the file: as of the freeze
      const back = await OwnerVectorGraph.loadFrom(dir, DIMS, { ef: 64, shardSize: 100 });
      expect(back.size).toBe(before);
      expect(back.search(vector(40), 1)[0]!.key).toBe('k40');
      expect(back.search(vector(10_001), 400).map((c) => c.key)).not.toContain('new1');
    });

    it('saves and opens a graph in shards, and refuses one with too few shards for its size', async () => {
      const { g, dir } = await saved(100);
      expect(g.stats().shards).toBe(4);
      const back = await OwnerVectorGraph.loadFrom(dir, DIMS, { ef: 64, shardSize: 100 });
      expect(back.stats()).toMatchObject({ live: g.size, shards: 4 });
      for (const qi of [1, 50, 222]) {
        expect(back.search(vector(qi), 10)).toEqual(g.search(vector(qi), 10));
        const f = { entityTypes: ['inventory_item'], excludeKeys: ['k40'] };
        expect(back.search(vector(qi), 10, f)).toEqual(g.search(vector(qi), 10, f));
      }
      back.applyWrite('k5', 'document', vector(5));
      expect(back.search(vector(5), 1)[0]!.key).toBe('k5');
      // one graph of 370 vectors where shards of 50 are asked for: its clusters would be too large
      const one = (await saved()).dir;
      await expect(OwnerVectorGraph.loadFrom(one, DIMS, { shardSize: 50 })).rejects.toThrow(
        /1 shard\(s\) for 370 vectors, 8 expected/,
      );
      expect((await OwnerVectorGraph.loadFrom(one, DIMS, { shardSize: 200 })).stats().shards).toBe(1);
    });

    it('refuses a version-1 snapshot (one graph, built before shards): it is rebuilt', async () => {
      const { dir } = await saved();
      const manifestFile = path.join(dir, 'vectors.manifest.json');
      const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, unknown>;
      await writeFile(
        manifestFile,
        JSON.stringify({ ...manifest, version: 1, main: { file: 'vectors.usearch', live: 370 } }),
      );
      await expect(OwnerVectorGraph.loadFrom(dir, DIMS)).rejects.toThrow(/not a version-2/);
    });

    it('refuses truncated, corrupt, missing or mismatched files with a clear error', async () => {
      const { dir } = await saved();
      await expect(OwnerVectorGraph.loadFrom(dir, DIMS + 1)).rejects.toThrow(
        /25 dimensions, 24 expected|24 dimensions, 25 expected/,
      );
      await expect(OwnerVectorGraph.loadFrom(dir, DIMS, { m: 8 })).rejects.toThrow(/m 16, f16 m 8 expected/);
      const keys = path.join(dir, 'vectors.keys.txt');
      const text = await readFile(keys, 'utf8');
      await writeFile(keys, text.replace('k77', 'k78'));
      await expect(OwnerVectorGraph.loadFrom(dir, DIMS)).rejects.toThrow(/vectors.keys.txt is corrupt/);
      await writeFile(keys, text);
      await truncate(path.join(dir, 'vectors.usearch'), 1_000);
      await expect(OwnerVectorGraph.loadFrom(dir, DIMS)).rejects.toThrow(/vectors.usearch has 1000 bytes/);
      await expect(OwnerVectorGraph.loadFrom(path.join(dir, 'none'), DIMS)).rejects.toThrow(/no manifest/);
      await writeFile(path.join(dir, 'vectors.manifest.json'), '{"format":"other"');
      await expect(OwnerVectorGraph.loadFrom(dir, DIMS)).rejects.toThrow(/not JSON/);
    });

    it('refuses a truncated graph file even when the manifest agrees with it', async () => {
      const { dir } = await saved();
      const file = path.join(dir, 'vectors.usearch');
      await truncate(file, 2_000);
      const manifestFile = path.join(dir, 'vectors.manifest.json');
      const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as {
        files: { name: string; bytes: number; sha256: string }[];
      };
      const { createHash } = await import('node:crypto');
      const f = manifest.files.find((x) => x.name === 'vectors.usearch')!;
      f.bytes = 2_000;
      f.sha256 = createHash('sha256')
        .update(await readFile(file))
        .digest('hex');
      await writeFile(manifestFile, JSON.stringify(manifest));
      await expect(OwnerVectorGraph.loadFrom(dir, DIMS)).rejects.toThrow(
        /vectors.usearch (does not load|holds)/,
      );
    });
  });
});
