// Fills a stopped server's embedded search index with the generated corpus, through the adapter of
// the checkout that will read it (the baseline's own code for the baseline: a newer table layout
// must not be handed to older code). Run by product.bench.ts as a child process:
//   node product-fill.ts <checkout root> <data dir> <count> <seed> <big owner id>
// The big owner (99 % of the items) becomes the signed-up user; the small owners keep their ids.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import type * as ProcessingPackage from '@kaboodle/processing';
import type * as SearchPackage from '@kaboodle/search';
import { corpusSource, entitiesWithVectors, offlineEmbedder } from './generate-items.ts';

const [root, dataDir, countArg, seedArg, owner] = process.argv.slice(2);
if (!root || !dataDir || !countArg || !seedArg || !owner) {
  console.error('usage: product-fill.ts <checkout> <data dir> <count> <seed> <owner id>');
  process.exit(2);
}
const count = Number(countArg);
const seed = Number(seedArg);
const BATCH = 1_000;

const search = (await import(pathToFileURL(path.join(root, 'services/search/src/index.ts')).href)) as Pick<
  typeof SearchPackage,
  'createLanceDbSearchIndex' | 'searchConfig'
>;
const { USE_LITE_SPACE } = (await import(
  pathToFileURL(path.join(root, 'services/processing/src/index.ts')).href
)) as Pick<typeof ProcessingPackage, 'USE_LITE_SPACE'>;

// The table the server opens: <data>/search, named as open-search-index.ts names it for the space.
const base = search.searchConfig.parse({}).SEARCH_INDEX_NAME;
const model = USE_LITE_SPACE.model
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, '-')
  .replace(/^-|-$/g, '')
  .slice(0, 48);
const table = `${base}_${USE_LITE_SPACE.dimensions}d_${model}`;

const embedder = await offlineEmbedder();
const source = await corpusSource(seed, embedder, { log: (l) => console.log(l) });
await embedder.close();

const index = search.createLanceDbSearchIndex({
  dir: path.join(dataDir, 'search'),
  dimensions: USE_LITE_SPACE.dimensions,
  table,
  memoryIndex: false,
  logger: pino({ level: 'silent' }),
});
await index.open();
const started = performance.now();
let last = started;
for (let from = 0; from < count; from += BATCH) {
  const batch = entitiesWithVectors(seed, from, Math.min(count, from + BATCH), source, source.dims, {
    total: count,
    ownerOf: (_, id) => (id === 'bench-big' ? owner : id),
  });
  await index.upsert(batch);
  if (performance.now() - last > 15_000) {
    last = performance.now();
    console.log(`  filled ${(from + BATCH).toLocaleString('en')}/${count.toLocaleString('en')}`);
  }
}
const writeS = (performance.now() - started) / 1000;
const tOpt = performance.now();
await index.optimize(); // ANN + FTS, as the running index does after a burst of writes
console.log(
  `filled ${table} with ${count.toLocaleString('en')} items in ${writeS.toFixed(0)} s, ANN + FTS ${((performance.now() - tOpt) / 1000).toFixed(0)} s`,
);
await index.close();
