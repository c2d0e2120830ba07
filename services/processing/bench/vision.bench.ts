// Vision benchmark (offline): per-step medians in this thread (decode, COCO detection, palette,
// barcodes), ms/image through the worker thread (the production path) with the main thread's
// longest event-loop stall meanwhile, and peak RSS.
// Run: node services/processing/bench/vision.bench.ts [--runs N]
/* eslint-disable no-console -- a command-line benchmark: printing is its output */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createPooledImageMeasurer, measureImage } from '../src/vision/index.ts';
import { evalPhotos } from '../src/vision/test-fixtures/generate-photos.ts';
import { argValue, loadNote, median, peakRssMb, printTable, time, timeCpu } from './bench-util.ts';

const RUNS = argValue('--runs', 2);
const photos = await evalPhotos();

// Worker thread first (its own models), so the in-thread load below does not hide its cold start.
const pooled = createPooledImageMeasurer({ timeoutMs: 120_000 });
const [, coldMs] = await time(() => pooled.measure(photos[0]!.bytes));
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const pooledMs: number[] = [];
for (let r = 0; r < RUNS; r++)
  for (const p of photos) pooledMs.push((await time(() => pooled.measure(p.bytes)))[1]);
loop.disable();
await pooled.close();

const steps: Record<string, number[]> = {};
const totals: number[] = [];
const cpus: number[] = [];
await measureImage(photos[0]!.bytes);
for (let r = 0; r < RUNS; r++) {
  for (const p of photos) {
    const [m, ms, c] = await timeCpu(() => measureImage(p.bytes));
    totals.push(ms);
    cpus.push(c);
    for (const [k, v] of Object.entries(m.timings)) (steps[k] ??= []).push(v);
  }
}

console.log(
  `Offline vision: human centernet (COCO) on tfjs-wasm, node-vibrant, zxing-wasm; ${photos.length} photos x ${RUNS} runs; ${await loadNote()}`,
);
printTable([
  { case: 'worker thread: first image (loads models)', 'ms median': coldMs },
  { case: 'worker thread: ms/image', 'ms median': median(pooledMs) },
  {
    case: '  main-thread event-loop delay meanwhile: p99 / max',
    'ms median': `${(loop.percentile(99) / 1e6).toFixed(0)} / ${(loop.max / 1e6).toFixed(0)}`,
  },
  { case: 'in-thread: ms/image', 'ms median': median(totals) },
  { case: 'in-thread: cpu ms/image', 'ms median': median(cpus) },
  ...Object.entries(steps)
    .filter(([k]) => k !== 'loadDetector')
    .map(([k, v]) => ({ case: `  step ${k}`, 'ms median': median(v) })),
]);
console.log(`peak RSS ${peakRssMb().toFixed(0)} MB`);
