// `make bench`: runs every benchmark script in turn (each in its own process, so one's memory does not
// colour another's) and prints their figures. Each script prints medians and compares alternatives
// side by side itself; this file only sequences them and reports which ones are missing or failed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const benches: { title: string; script: string }[] = [
  {
    title: 'Startup: kaboodle --target=all (cold, PGlite template, + compile cache, warm), idle RSS',
    script: 'tests/bench/startup.bench.ts',
  },
  {
    title: 'Kafka: CPU of an idle producer and consumer, kafkajs as shipped and with the idle-timer fix',
    script: 'tests/bench/kafka-idle.bench.ts',
  },
  { title: 'Web: shell first-load JS (gzipped)', script: 'tests/bench/web-bundle.ts' },
  { title: 'Processing: text extraction and OCR', script: 'services/processing/bench/extract.bench.ts' },
  { title: 'Processing: embeddings', script: 'services/processing/bench/embed.bench.ts' },
  {
    title: 'Processing: a search query’s wait for the embedding threads during an upload, by call size',
    script: 'services/processing/bench/embed-contention.bench.ts',
  },
  { title: 'Processing: enrichment', script: 'services/processing/bench/enrich.bench.ts' },
  { title: 'Processing: vision', script: 'services/processing/bench/vision.bench.ts' },
  {
    title: 'Quality: find an item by photo, top-1 / top-5, and image embedding ms per photo',
    script: 'services/processing/bench/image-search.bench.ts',
  },
  {
    title: 'Quality: metadata accuracy, team set and real set (Debian PDFs) side by side, with misses',
    script: 'services/processing/bench/eval.ts',
  },
  {
    title: 'Quality: keyword / vector / hybrid on every set (team, real man pages), calibrated scores',
    script: 'tests/bench/search/eval.bench.ts',
  },
  {
    title: 'Ingestion: 10 parallel 20 MB uploads (RSS growth, MB/s)',
    script: 'tests/bench/pipeline-uploads.bench.ts',
  },
  {
    title: 'Pipeline: upload → searchable throughput (1,000 text files, 100 PDFs)',
    script: 'tests/bench/pipeline-throughput.bench.ts',
  },
  {
    title: 'Catalogue: storing processed files, list, keyword search, export, ListForIndex',
    script: 'services/catalogue/bench/catalogue.bench.ts',
  },
  {
    title: 'Inventory: import 10,000 rows, table filter latency, gallery first paint with 1,000 items',
    script: 'tests/bench/inventory.bench.ts',
  },
  {
    title: 'Search index: 100k items, indexing, recall@10, latency per stage, size',
    script: 'tests/bench/search/index.bench.ts',
  },
  {
    title: 'Search index: write cost by rows per write (embedded LanceDB)',
    script: 'tests/bench/search/index-writes.bench.ts',
  },
  {
    title: 'Search HTTP: POST /api/search at a fixed rate and at saturation',
    script: 'tests/bench/search/http.bench.ts',
  },
  {
    title:
      'Search on the product process: 100k items, keyword/hybrid/semantic at fixed rates, quiet and while ingesting, cold start, RSS, event loop, GC, recall',
    script: 'tests/bench/search/product.bench.ts',
  },
  {
    title: 'Screens: first load, route changes and actions in Chromium, 1,000 documents + 1,000 items',
    script: 'tests/bench/screens.bench.ts',
  },
  {
    title: 'Insights: GET /api/insights p95 and the observatory first render on a 10,000-entity library',
    script: 'tests/bench/insights.bench.ts',
  },
];

const only = process.argv[2];
// Anything after the filter goes to the benches that run (e.g. `search/product --count 1000000`).
const extra = process.argv.slice(3);
let failed = 0;
for (const { title, script } of benches) {
  if (only && !script.includes(only)) continue;
  console.log(`\n=== ${title} (${script}) ===`);
  if (!existsSync(path.join(root, script))) {
    console.log('(not present yet)');
    continue;
  }
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--expose-gc', script, ...extra], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  if (r.status !== 0) {
    failed += 1;
    console.log(`!! ${script} exited with ${r.status ?? r.signal}`);
  }
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
process.exitCode = failed > 0 ? 1 : 0;
