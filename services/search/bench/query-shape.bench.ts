// What a LanceDB query costs by what it asks for: display columns or keys only, with or without the
// owner prefilter, and IVF nprobes, on the 100k table that index.bench.ts keeps with --keep DIR.
// Run: node tests/bench/search/index.bench.ts --keep /tmp/kb-idx100k   (once, builds the table)
//      node services/search/bench/query-shape.bench.ts /tmp/kb-idx100k
/* eslint-disable no-console -- a command-line benchmark: printing is its output */
import * as lancedb from '@lancedb/lancedb';
import { HIT_COLUMNS } from '../src/index/lancedb-search-index.ts';
const dir = process.argv[2];
if (!dir) {
  console.log('usage: query-shape.bench.ts DIR (a table kept by index.bench.ts --keep DIR); skipped');
  process.exit(0);
}
const db = await lancedb.connect(dir);
const tb = await db.openTable('kaboodle-entities');
console.log(
  'rows',
  await tb.countRows(),
  'indices',
  JSON.stringify((await tb.listIndices()).map((i) => [i.name, i.indexType])),
);
const sample = (await tb
  .query()
  .where("owner_id = 'bench-big' AND deleted = false")
  .select(['vector', 'title'])
  .limit(400)
  .toArray()) as { vector: Float32Array; title: string }[];
const vecs = sample.map((r) => Array.from(r.vector).map((x) => x + (Math.random() - 0.5) * 0.02));
const words = sample.map((r) => String(r.title).split(/\s+/).slice(0, 2).join(' '));
const HIT = HIT_COLUMNS;
const filt = "deleted = false AND owner_id = 'bench-big'";
async function time(name: string, fn: (i: number) => Promise<unknown>) {
  const xs: number[] = [];
  for (let i = 0; i < 120; i++) {
    const t = performance.now();
    await fn(i);
    xs.push(performance.now() - t);
  }
  xs.sort((a, b) => a - b);
  console.log(name.padEnd(60), 'p50', xs[60]!.toFixed(1), 'p95', xs[114]!.toFixed(1));
}
const knn =
  (nprobes: number, cols: string[], where?: string, post = false) =>
  async (i: number) => {
    let q = tb
      .query()
      .nearestTo(vecs[i % vecs.length]!)
      .distanceType('cosine');
    if (where) q = q.where(where);
    if (post) q = q.postfilter();
    q = q
      .select([...cols, '_distance'])
      .limit(60)
      .maximumNprobes(0)
      .minimumNprobes(nprobes);
    return q.toArray();
  };
const bm =
  (cols: string[], where?: string, limit = 20) =>
  async (i: number) => {
    let q = tb.query().fullTextSearch(words[i % words.length]!, { columns: 'search_text' });
    if (where) q = q.where(where);
    return q
      .select([...cols, '_score'])
      .limit(limit)
      .toArray();
  };
await time('warm', knn(20, HIT, filt));
await time('knn np20 display columns + filter (before)', knn(20, HIT, filt));
await time('knn np20 keys only + filter (now)', knn(20, ['key'], filt));
await time('knn np20 HIT no filter', knn(20, HIT));
await time('knn np20 key no filter', knn(20, ['key']));
await time('knn np20 HIT postfilter', knn(20, HIT, filt, true));
await time('knn np5 HIT filter', knn(5, HIT, filt));
await time('knn np5 keys only + filter (now)', knn(5, ['key'], filt));
await time('knn np10 HIT filter', knn(10, HIT, filt));
await time('bm25 display columns + filter (before, limit 20)', bm(HIT, filt));
await time('bm25 keys only + filter (now)', bm(['key'], filt));
await time('bm25 HIT no filter', bm(HIT));
await time('bm25 key no filter', bm(['key']));
await time('bm25 HIT filter limit 60', bm(HIT, filt, 60));
