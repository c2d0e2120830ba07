// The in-memory vector graph alone: hnswlib f32 against usearch f16 (vector-graph-compare.ts), without
// building a LanceDB table first. Vectors: the bench corpus' cached USE-lite vectors (--corpus, the
// big owner's items) or clustered synthetic 512-d unit vectors (default; no embedding needed).
// Run: node --expose-gc tests/bench/search/vector-graph.bench.ts [--count N] [--corpus] [--threads T]
// (the same script measures one engine when given --engine NAME --data DIR: the parent's child process).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type hnswlibTypes from 'hnswlib-node';
import { OwnerVectorGraph } from '@kaboodle/search';
import { intArg } from './bench-args.ts';
import { compareVectorGraphs, figureRows, type EngineFigures } from './vector-graph-compare.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
/**
 * Anonymous RSS (Linux's RssAnon; RSS elsewhere), counting V8's heap as what is live in it, once garbage is collected and freed array buffers
 * returned (V8 sweeps them afterwards). Anonymous only: under memory pressure the kernel drops the
 * node binary's file-backed pages from RSS, which made plain RSS growth negative on a busy machine.
 */
const rss = async () => {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 100));
  }
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const anon = /RssAnon:\s+(\d+) kB/.exec(status);
  // less V8's own heap, which the memory reducer shrinks in the middle of a quiet native build
  const m = process.memoryUsage();
  return (anon ? Number(anon[1]) * 1024 : m.rss) - m.heapTotal + m.heapUsed;
};
const round = (x: number, digits: number) => Number(x.toFixed(digits));

async function runEngine(engine: string, dir: string, threads: number): Promise<EngineFigures> {
  const meta = JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8')) as {
    dims: number;
    types: string[];
    exact: number[][];
  };
  const dims = meta.dims;
  // one allocation per file (readFile's chunks, once freed, would stay in malloc's arenas and be
  // reused by the graph, hiding part of its growth)
  const asFloats = (file: string) => {
    const bytes = statSync(file).size;
    const out = new Float32Array(bytes / 4);
    const fd = openSync(file, 'r');
    try {
      for (let at = 0; at < bytes;) at += readSync(fd, new Uint8Array(out.buffer), at, bytes - at, at);
    } finally {
      closeSync(fd);
    }
    return out;
  };
  const vectors = asFloats(path.join(dir, 'vectors.f32'));
  const qs = asFloats(path.join(dir, 'queries.f32'));
  const queries = Array.from({ length: qs.length / dims }, (_, i) => qs.subarray(i * dims, (i + 1) * dims));
  const count = vectors.length / dims;
  const keys = Array.from({ length: count }, (_, i) => `bench:${meta.types[i]}:${i}`);
  const rss0 = await rss();
  const t = performance.now();
  let search: (q: Float32Array) => number[];
  let buildS: number;
  let grew: number;
  const extra: Partial<EngineFigures> = {};
  if (engine === 'hnswlib f32') {
    // As OwnerVectorGraph held it before issue 21: one point at a time, f32, filterless search.
    const hnswlib = createRequire(import.meta.url)('hnswlib-node') as typeof hnswlibTypes;
    const index = new hnswlib.HierarchicalNSW('cosine', dims);
    index.initIndex({
      maxElements: count,
      m: 16,
      efConstruction: 100,
      randomSeed: 100,
      allowReplaceDeleted: true,
    });
    for (let i = 0; i < count; i++) index.addPoint(Array.from(vectors.subarray(i * dims, (i + 1) * dims)), i);
    index.setEf(128);
    buildS = (performance.now() - t) / 1000;
    grew = (await rss()) - rss0;
    search = (q) => index.searchKnn(Array.from(q), 10).neighbors;
  } else {
    const graph = new OwnerVectorGraph(dims, { threads });
    for (let i = 0; i < count; i++)
      graph.load(keys[i]!, meta.types[i]!, vectors.subarray(i * dims, (i + 1) * dims));
    graph.markReady();
    buildS = (performance.now() - t) / 1000;
    grew = (await rss()) - rss0;
    const label = (k: string) => Number(k.slice(k.lastIndexOf(':') + 1));
    search = (q) => graph.search(q, 10).map((c) => label(c.key));
    const snap = await mkdtemp(path.join(os.tmpdir(), 'kaboodle-graph-snap-'));
    let s = performance.now();
    await graph.saveTo(snap);
    extra.saveMs = Math.round(performance.now() - s);
    let bytes = 0;
    for (const f of await readdir(snap)) bytes += (await stat(path.join(snap, f))).size;
    extra.snapshotMb = Math.round(bytes / 1e6);
    s = performance.now();
    const loaded = await OwnerVectorGraph.loadFrom(snap, dims, { threads });
    extra.loadMs = Math.round(performance.now() - s);
    if (loaded.size !== graph.size) throw new Error(`loaded ${loaded.size} of ${graph.size} vectors`);
    await rm(snap, { recursive: true, force: true });
  }
  for (let i = 0; i < 20; i++) search(queries[i % queries.length]!); // warm-up
  const lat: number[] = [];
  let hit = 0;
  queries.forEach((q, i) => {
    const s = performance.now();
    const got = search(q);
    lat.push(performance.now() - s);
    const want = new Set(meta.exact[i]);
    hit += got.filter((x) => want.has(x)).length;
  });
  return {
    engine,
    vectors: count,
    buildS: round(buildS, 1),
    p50Ms: round(pct(lat, 50), 3),
    p95Ms: round(pct(lat, 95), 3),
    recall10: round(hit / (queries.length * 10), 3),
    rssMb: Math.round(grew / 1e6),
    bytesPerVector: Math.round(grew / count),
    ...extra,
  };
}

/** Clustered unit vectors (2,000 centres plus noise), and queries near corpus items. */
function synthetic(count: number, dims: number, queries: number) {
  let s = 1;
  const r = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff - 0.5;
  };
  const C = 2_000;
  const centres = Float32Array.from({ length: C * dims }, r);
  const vectors = new Float32Array(count * dims);
  for (let i = 0; i < count; i++) {
    const c = (i * 7919) % C;
    let n = 0;
    for (let d = 0; d < dims; d++) n += (vectors[i * dims + d] = centres[c * dims + d]! + 0.35 * r()) ** 2;
    for (let d = 0; d < dims; d++) vectors[i * dims + d]! /= Math.sqrt(n);
  }
  const qs = Array.from({ length: queries }, (_, q) => {
    const at = (q * 104729) % count;
    return vectors.slice(at * dims, (at + 1) * dims).map((x) => x + 0.05 * r());
  });
  // two documents for every inventory item, as the corpus
  return {
    vectors,
    dims,
    types: Array.from({ length: count }, (_, i) => (i % 3 === 2 ? 'inventory_item' : 'document')),
    queries: qs,
  };
}

async function corpus(count: number, queries: number) {
  const g = await import('./generate-items.ts');
  const embedder = await g.offlineEmbedder();
  const vec = await g.corpusVectors(42, count, embedder, { log: (l: string) => console.log(l) });
  const qv = await g.queryVectors(42, g.generateQueries(42, queries), embedder);
  await embedder.close();
  const dims = embedder.dimensions;
  const big = Array.from({ length: count }, (_, i) => i).filter((i) => g.ownerOf(i) === 'bench-big');
  const vectors = new Float32Array(big.length * dims);
  big.forEach((item, j) => vectors.set(vec.vectors.subarray(item * dims, (item + 1) * dims), j * dims));
  const types = big.map((i) => (i % 3 === 2 ? 'inventory_item' : 'document'));
  return { vectors, dims, types, queries: qv.vectors };
}

const engine = arg('--engine');
const threads = intArg('--threads', 2);
if (engine) {
  console.log(JSON.stringify(await runEngine(engine, arg('--data')!, threads)));
} else {
  const count = intArg('--count', 100_000);
  const queries = intArg('--queries', 200);
  const c = process.argv.includes('--corpus') ? await corpus(count, queries) : synthetic(count, 512, queries);
  console.log(
    `vector graphs: ${(c.vectors.length / c.dims).toLocaleString('en')} ${c.dims}-d vectors (${process.argv.includes('--corpus') ? 'bench corpus, big owner' : 'synthetic, clustered'}), ${c.queries.length} queries, k 10, m 16, efConstruction 100, ef 128, ${threads} thread(s) for usearch adds; ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const figs = await compareVectorGraphs(c, { threads, log: (l) => console.log(l) });
  const rows = figureRows(figs);
  const keys = Object.keys(rows[0]!);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i]!)).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => String(r[k]).padEnd(widths[i]!)).join('  '));
}
