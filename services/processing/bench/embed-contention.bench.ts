// A search query's wait for the shared embedding threads while documents are being embedded (issue
// 21, search while ingesting). Queries go first among waiting texts, but behind the model call in
// flight: how long that call is decides their wait. Side by side: calls of 2000 characters (the
// default, USE_LITE_BATCH_CHARS) against 480 (one passage a call; EMBED_BATCH_CHARS=480). Per
// variant: passages a second embedded alone; then queries at a fixed rate (open loop) during the
// same document load, their latency and the passages a second meanwhile. Medians over the runs;
// variants interleaved within each run. The pipeline's own cost of small calls (a round trip through
// a busy main thread per call) shows in tests/bench/pipeline-throughput.bench.ts, not here.
// `--wasm` adds the WASM runtime (~5x slower; a quarter of the query rate).
// Run: node services/processing/bench/embed-contention.bench.ts [--runs 3] [--seconds 10] [--rate 20] [--threads 2] [--wasm]
/* eslint-disable no-console -- a command-line benchmark: printing is its output */
import { createUseLiteEmbedder, embedDocument, type TextEmbedder } from '../src/embed/index.ts';
import { argValue, loadNote, median, printTable } from './bench-util.ts';

const RUNS = argValue('--runs', 3);
const SECONDS = argValue('--seconds', 10);
const RATE = argValue('--rate', 20);
/** Model threads, as EMBED_THREADS (the product's default: 2). */
const THREADS = argValue('--threads', 2);
const runtimes: Array<'native' | 'wasm'> = process.argv.includes('--wasm') ? ['native', 'wasm'] : ['native'];
const variants = [
  { name: '2000 characters a call (default)', maxBatchChars: 2000 },
  { name: '480 characters a call (one passage)', maxBatchChars: 480 },
];

const WORDS = (
  'hand made ceramic bowl blue glaze receipt harbour market paper journal study weaving basket ' +
  'linen oak table lamp brass glass bead necklace printed year venue pottery kiln thread loom'
).split(' ');
let seed = 7;
const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const words = (n: number): string =>
  Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');

/**
 * Documents of 12 passages, two at a time, until `stop()`: the ingest side. Passages a second over a
 * window count whole documents, from the first to the last one finished in it.
 */
function documentLoad(embedder: TextEmbedder): {
  stop(): Promise<void>;
  rate(from: number, to: number): number;
} {
  let stopped = false;
  const finished: Array<{ at: number; passages: number }> = [];
  const stream = async (): Promise<void> => {
    while (!stopped) {
      const doc = Array.from({ length: 12 }, () => words(110)).join('\n\n');
      const { passages } = await embedDocument(embedder, doc);
      finished.push({ at: performance.now(), passages: passages.length });
    }
  };
  const streams = [stream(), stream()];
  return {
    rate(from, to) {
      const inWindow = finished.filter((f) => f.at >= from && f.at <= to);
      if (inWindow.length < 2) return NaN;
      const passages = inWindow.slice(1).reduce((n, f) => n + f.passages, 0);
      return (passages * 1000) / (inWindow.at(-1)!.at - inWindow[0]!.at);
    },
    async stop() {
      stopped = true;
      await Promise.all(streams);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(embedder: TextEmbedder, rate: number) {
  // Documents alone.
  let load = documentLoad(embedder);
  await sleep(1000);
  let t = performance.now();
  await sleep(SECONDS * 1000);
  const alone = load.rate(t, performance.now());
  await load.stop();
  // Queries at a fixed rate during the same load: each a text of its own (no cache hit).
  load = documentLoad(embedder);
  await sleep(1000);
  t = performance.now();
  const latencies: Array<Promise<number>> = [];
  for (let i = 0; performance.now() - t < SECONDS * 1000; i++) {
    const due = t + (i * 1000) / rate;
    await sleep(Math.max(0, due - performance.now()));
    const start = performance.now();
    latencies.push(embedder.embed([`${words(4)} ${i}`]).then(() => performance.now() - start));
  }
  const done = (await Promise.all(latencies)).sort((a, b) => a - b);
  const during = load.rate(t, performance.now());
  await load.stop();
  const q = (p: number) => done[Math.min(done.length - 1, Math.floor(p * done.length))]!;
  return { alone, during, p50: q(0.5), p95: q(0.95), p99: q(0.99), queries: done.length };
}

console.log(
  `Embedding contention: ${THREADS} model threads, ${RUNS} runs, ${SECONDS} s per phase, queries at ${RATE}/s (WASM ${RATE / 4}/s); ${await loadNote()}`,
);
const results = new Map<string, Array<Awaited<ReturnType<typeof measure>>>>();
for (let run = 0; run < RUNS; run++) {
  for (const runtime of runtimes) {
    for (const v of run % 2 ? [...variants].reverse() : variants) {
      const embedder = createUseLiteEmbedder({
        cacheSize: 0,
        runtime,
        threads: THREADS,
        maxBatchChars: v.maxBatchChars,
      });
      await embedder.embed(['warm up']);
      const key = `${runtime} | ${v.name}`;
      results.set(key, [
        ...(results.get(key) ?? []),
        await measure(embedder, runtime === 'wasm' ? RATE / 4 : RATE),
      ]);
      await embedder.close?.();
    }
  }
}
const rows = [...results].map(([key, r]) => ({
  'runtime | calls': key,
  'passages/s alone': median(r.map((x) => x.alone)).toFixed(1),
  'query p50 ms': median(r.map((x) => x.p50)).toFixed(1),
  'query p95 ms': median(r.map((x) => x.p95)).toFixed(1),
  'query p99 ms': median(r.map((x) => x.p99)).toFixed(1),
  'passages/s with queries': median(r.map((x) => x.during)).toFixed(1),
  queries: r.reduce((n, x) => n + x.queries, 0),
}));
printTable(rows);
console.log(
  `(medians of ${RUNS}; each run's figures: ${JSON.stringify([...results].map(([k, r]) => [k, r.map((x) => [x.alone.toFixed(1), x.p95.toFixed(1)])]))})`,
);
