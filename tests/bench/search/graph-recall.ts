// Offline diagnosis of the vector graph's recall@10 on the bench corpus, in one process, no server:
// opens a saved usearch graph read-only (memory-mapped with `view`, so the snapshot is never written
// and costs page cache, not RSS) or builds one from a sample, then for each query compares the
// graph's answers with exact kNN over the same items (ties with the 10th count as right), per ef,
// with query time p50/p95; tells whether the misses are the right cluster ranked wrong (an exact
// re-rank of the candidates fixes them) or clusters never reached (only ef/m fix them).
//   node tests/bench/search/graph-recall.ts --snapshot DIR/vectors [--queries 100] [--efs 128,256,512,1024]
//   node tests/bench/search/graph-recall.ts --build 200000 [--texts-mod 8] [--shard-size 250000] [--m 16] [--efc 100]
//     [--k 20] [--save DIR | --load DIR]   (--build uses the product's OwnerVectorGraph, searched for k)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OwnerVectorGraph } from '@kaboodle/search';
import { Index, MetricKind, ScalarKind } from 'usearch';
import {
  embedTextOf,
  generateQueries,
  ownerOf,
  PERTURBATION,
  prng,
  queryVectors,
  textVectors,
  type Embedder,
} from './generate-items.ts';

const { values: opt } = parseArgs({
  options: {
    snapshot: { type: 'string' },
    build: { type: 'string' },
    'shard-size': { type: 'string', default: '250000' },
    // keep the built graph (a folder under /tmp) and measure it again without rebuilding
    save: { type: 'string' },
    load: { type: 'string' },
    // the answer's length in the product graph's searches (the product bench asks for 20)
    k: { type: 'string', default: '20' },
    m: { type: 'string', default: '16' },
    efc: { type: 'string', default: '100' },
    queries: { type: 'string', default: '100' },
    efs: { type: 'string', default: '128,256,512,1024' },
    rerank: { type: 'string', default: '0' },
    seed: { type: 'string', default: '42' },
    // keep only items whose text index is a multiple of this: fewer items, clusters as large as at 1M
    'texts-mod': { type: 'string', default: '1' },
  },
});
const seed = Number(opt.seed);
const dims = 512;
// the cache holds every text and query vector: nothing is embedded here
const cacheOnly: Embedder = {
  model: 'universal-sentence-encoder-lite',
  dimensions: dims,
  embed: () => Promise.reject(new Error('the text and query vector caches must be filled first')),
};
const log = (line: string) => console.log(line);
const t0 = performance.now();
const texts = await textVectors(cacheOnly);
const U = texts.index.size;
const queryCount = Number(opt.queries);
const qv = (await queryVectors(seed, generateQueries(seed, 200), cacheOnly)).vectors.slice(0, queryCount);

// the graph's items: label → corpus index
let itemOf: Int32Array;
let index: Index | undefined;
let graph: OwnerVectorGraph | undefined;
/** The ef nearest labels and their distances, nearest first. */
const searchOf = (q: Float32Array, ef: number): { labels: number[]; distances: number[] } => {
  if (index) {
    const found = index.search(q, ef, 1);
    return { labels: Array.from(found.keys, Number), distances: Array.from(found.distances) };
  }
  graph!.ef = ef;
  const found = graph!.search(q, Number(opt.k));
  return { labels: found.map((c) => Number(c.key)), distances: found.map((c) => c.distance) };
};
const vecOf = (i: number, out = new Float32Array(dims)): Float32Array => {
  const a = texts.index.get(embedTextOf(seed, i))!;
  const b = Math.floor(prng(seed * 7_777_777 + i)() * U);
  let n = 0;
  for (let d = 0; d < dims; d++) {
    const x = texts.vectors[a * dims + d]! + PERTURBATION * texts.vectors[b * dims + d]!;
    out[d] = x;
    n += x * x;
  }
  n = Math.sqrt(n) || 1;
  for (let d = 0; d < dims; d++) out[d] = out[d]! / n;
  return out;
};
if (opt.snapshot) {
  const lines = readFileSync(path.join(opt.snapshot, 'vectors.keys.txt'), 'utf8').split('\n');
  itemOf = new Int32Array(lines.length);
  lines.forEach((line, label) => {
    const key = (JSON.parse(line) as string[])[2]!;
    itemOf[label] = Number(key.slice(`bench-${seed}-`.length));
  });
  const manifest = JSON.parse(readFileSync(path.join(opt.snapshot, 'vectors.manifest.json'), 'utf8')) as {
    m: number;
    efConstruction: number;
  };
  index = new Index({
    dimensions: dims,
    metric: MetricKind.Cos,
    quantization: ScalarKind.F16,
    connectivity: manifest.m,
    expansion_add: manifest.efConstruction,
    expansion_search: 1,
    multi: false,
  });
  index.view(path.join(opt.snapshot, 'vectors.usearch'));
  log(
    `viewed ${index.size().toLocaleString('en')} vectors (m ${manifest.m}, efc ${manifest.efConstruction})`,
  );
} else {
  // the big owner's first N items, as the product bench's owner holds them, in the product's graph
  let n = Number(opt.build);
  const picked: number[] = [];
  const mod = Number(opt['texts-mod']);
  for (let i = 0; picked.length < n && i < 1_000_000; i++)
    if (ownerOf(i) === 'bench-big' && texts.index.get(embedTextOf(seed, i))! % mod === 0) picked.push(i);
  itemOf = Int32Array.from(picked);
  n = picked.length;
  const settings = {
    m: Number(opt.m),
    efConstruction: Number(opt.efc),
    shardSize: Number(opt['shard-size']),
  };
  const started = performance.now();
  let g: OwnerVectorGraph;
  if (opt.load) g = await OwnerVectorGraph.loadFrom(opt.load, dims, settings);
  else {
    g = new OwnerVectorGraph(dims, settings, n);
    const v = new Float32Array(dims);
    for (let l = 0; l < n; l++) g.load(String(l), 'document', vecOf(itemOf[l]!, v));
    g.markReady();
    if (opt.save) await g.saveTo(opt.save);
  }
  graph = g;
  log(
    `${opt.load ? 'loaded' : 'built'} m ${opt.m} efc ${opt.efc}, ${g.stats().shards} shard(s), over ${n.toLocaleString('en')} items in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}
const N = itemOf.length;

// exact cosines through the text vectors (product-recall.ts): an item is text a + 0.1 × text b
const qu = new Float64Array(queryCount * U);
for (let q = 0; q < queryCount; q++)
  for (let t = 0; t < U; t++) {
    let s = 0;
    for (let d = 0; d < dims; d++) s += qv[q]![d]! * texts.vectors[t * dims + d]!;
    qu[q * U + t] = s;
  }
const A = new Int32Array(N);
const B2 = new Int32Array(N);
const norm = new Float64Array(N);
for (let l = 0; l < N; l++) {
  const i = itemOf[l]!;
  A[l] = texts.index.get(embedTextOf(seed, i))!;
  B2[l] = Math.floor(prng(seed * 7_777_777 + i)() * U);
  let n = 0;
  for (let d = 0; d < dims; d++) {
    const x = texts.vectors[A[l]! * dims + d]! + PERTURBATION * texts.vectors[B2[l]! * dims + d]!;
    n += x * x;
  }
  norm[l] = Math.sqrt(n) || 1;
}
const cos = (q: number, l: number) => (qu[q * U + A[l]!]! + PERTURBATION * qu[q * U + B2[l]!]!) / norm[l]!;
// per query: the 10th best exact cosine and the exact top 10 labels
const tenth: number[] = [];
const top10: number[][] = [];
const all = new Float64Array(N);
let clustersInTop = 0;
for (let q = 0; q < queryCount; q++) {
  for (let l = 0; l < N; l++) all[l] = cos(q, l);
  const sorted = Float64Array.from(all).sort();
  const th = sorted[N - 10]!;
  tenth.push(th);
  const labels: number[] = [];
  for (let l = 0; l < N; l++) if (all[l]! >= th) labels.push(l);
  top10.push(labels);
  clustersInTop += new Set(labels.map((l) => A[l])).size;
}
log(
  `exact kNN for ${queryCount} queries over ${N.toLocaleString('en')} items: ${((performance.now() - t0) / 1000).toFixed(0)} s; ` +
    `${(clustersInTop / queryCount).toFixed(1)} distinct texts in a query's exact top 10 on average`,
);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const efs = opt.efs.split(',').map(Number);
const rerankExtra = Number(opt.rerank);
// warm the page cache (a viewed graph is read from the file)
for (let q = 0; q < queryCount; q++) searchOf(qv[q]!, efs[0]!);
for (const ef of efs) {
  const times: number[] = [];
  let hit = 0;
  let rerankHit = 0;
  let missed = 0;
  let missedCandidate = 0; // the missed item was among the ef candidates (a re-rank fixes it)
  let missedClusterReached = 0; // its text's cluster was reached, the item not
  let distErr = 0;
  for (let q = 0; q < queryCount; q++) {
    const started = performance.now();
    const found = searchOf(qv[q]!, ef);
    times.push(performance.now() - started);
    const labels = found.labels;
    for (let i = 0; i < labels.length; i++) {
      distErr = Math.max(distErr, Math.abs(1 - cos(q, labels[i]!) - found.distances[i]!));
    }
    const first = labels.slice(0, 10);
    const good = first.filter((l) => cos(q, l) >= tenth[q]! - 1e-5).length;
    hit += good;
    const reranked = labels
      .slice(0, Math.max(10, rerankExtra || labels.length))
      .sort((x, y) => cos(q, y) - cos(q, x))
      .slice(0, 10);
    rerankHit += reranked.filter((l) => cos(q, l) >= tenth[q]! - 1e-5).length;
    const got = new Set(first);
    const cands = new Set(labels);
    const reached = new Set(labels.map((l) => A[l]));
    // the best exact items not returned, as many as the answer lacks (ties counted once)
    const absent = top10[q]!.filter((l) => !got.has(l)).sort((x, y) => cos(q, y) - cos(q, x));
    for (const l of absent.slice(0, 10 - good)) {
      missed++;
      if (cands.has(l)) missedCandidate++;
      else if (reached.has(A[l]!)) missedClusterReached++;
    }
  }
  log(
    `ef ${String(ef).padStart(4)}: recall@10 ${(hit / (queryCount * 10)).toFixed(3)}, exact re-rank of the ${rerankExtra || ef} candidates ${(rerankHit / (queryCount * 10)).toFixed(3)}; ` +
      `p50 ${pct(times, 0.5).toFixed(2)} ms p95 ${pct(times, 0.95).toFixed(2)} ms; misses ${missed}: ${missedCandidate} among the candidates, ` +
      `${missedClusterReached} in a reached cluster, ${missed - missedCandidate - missedClusterReached} in clusters never reached; max |distance error| ${distErr.toExponential(1)}`,
  );
}
log(
  `done in ${((performance.now() - t0) / 1000).toFixed(0)} s, RSS ${(process.memoryUsage().rss / 2 ** 30).toFixed(2)} GB`,
);
