// Embeddings benchmark (offline USE-lite): model load, ms/item one text per call and batched
// (8/16/32 per model call), a repeated query from the LRU cache, a 10-page document as passages,
// peak RSS; then the runtimes side by side: native (onnxruntime-node) against tfjs' WASM backend,
// with attention split onto XNNPACK's fast path and with tfjs' own kernel.
// Run: node services/processing/bench/embed.bench.ts [--runs N]
/* eslint-disable no-console -- a command-line benchmark: printing is its output */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  createUseLiteEmbedder,
  embedDocument,
  loadUseLiteModel,
  setUseLiteSplitMatMul,
  type TextEmbedder,
} from '../src/embed/index.ts';
import { argValue, loadNote, median, peakRssMb, printTable, time, timeCpu } from './bench-util.ts';

const RUNS = argValue('--runs', 5);
const sentence = (i: number) =>
  `Item ${i}: a handmade ${['bowl', 'stool', 'tote bag', 'bead necklace', 'hand fan'][i % 5]} in ${['red', 'blue', 'green', 'brown'][i % 4]} with a note about its maker number ${i * 7}.`;

// Model load in this thread, per runtime (the embedders below run the default, native where it
// loads, in their shared worker thread).
const [nativeModel, loadMs] = await time(() => loadUseLiteModel('auto'));
const [wasmModel, wasmLoadMs] = await time(() => loadUseLiteModel('wasm'));
const rows: Array<Record<string, string | number>> = [];
const embedders: TextEmbedder[] = [];

{
  const e = createUseLiteEmbedder({ cacheSize: 0, maxBatch: 1 });
  embedders.push(e);
  await e.embed([sentence(-1)]);
  const per: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS * 8; i++) {
    const [, ms, c] = await timeCpu(() => e.embed([sentence(i)]));
    per.push(ms);
    cpu.push(c);
  }
  rows.push({
    case: 'single (1 text per call)',
    'ms/item median': median(per),
    'cpu ms/item': median(cpu),
    items: per.length,
  });
}
for (const batch of [8, 16, 32]) {
  const e = createUseLiteEmbedder({ cacheSize: 0, maxBatch: batch });
  embedders.push(e);
  const per: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const texts = Array.from({ length: batch }, (_, i) => sentence(1000 + r * batch + i));
    const [, ms, c] = await timeCpu(() => e.embed(texts));
    per.push(ms / batch);
    cpu.push(c / batch);
  }
  rows.push({
    case: `batched ${batch} per model call`,
    'ms/item median': median(per),
    'cpu ms/item': median(cpu),
    items: RUNS * batch,
  });
}
{
  // Concurrent single-text callers (e.g. many search queries at once) coalesce into batches.
  const e = createUseLiteEmbedder({ cacheSize: 0 });
  embedders.push(e);
  const per: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const [, ms, c] = await timeCpu(() =>
      Promise.all(Array.from({ length: 16 }, (_, i) => e.embed([sentence(5000 + r * 16 + i)]))),
    );
    per.push(ms / 16);
    cpu.push(c / 16);
  }
  rows.push({
    case: '16 concurrent single calls (coalesced)',
    'ms/item median': median(per),
    'cpu ms/item': median(cpu),
    items: RUNS * 16,
  });
}
{
  const e = createUseLiteEmbedder();
  embedders.push(e);
  await e.embed(['red ceramic bowl']);
  const per: number[] = [];
  for (let i = 0; i < 50; i++) per.push((await time(() => e.embed(['red ceramic bowl'])))[1]);
  rows.push({
    case: 'repeated query (LRU cache)',
    'ms/item median': median(per),
    'cpu ms/item': 0,
    items: 50,
  });
}
{
  const e = createUseLiteEmbedder({ cacheSize: 0 });
  embedders.push(e);
  const page = Array.from({ length: 25 }, (_, i) => sentence(9000 + i)).join(' ');
  const per: number[] = [];
  const cpu: number[] = [];
  let passages = 0;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  for (let r = 0; r < RUNS; r++) {
    const text = Array.from({ length: 10 }, (_, p) => `${page} Page ${p} run ${r}.`).join('\n\n');
    const [doc, ms, c] = await timeCpu(() => embedDocument(e, text));
    passages = doc.passages.length;
    per.push(ms);
    cpu.push(c);
  }
  rows.push({
    case: `10-page document (${passages} passages + mean), per document`,
    'ms/item median': median(per),
    'cpu ms/item': median(cpu),
    items: RUNS,
  });
  loop.disable();
  rows.push({
    case: '  event-loop delay meanwhile: p50 / p99 / max (ms)',
    'ms/item median': `${(loop.percentile(50) / 1e6).toFixed(0)} / ${(loop.percentile(99) / 1e6).toFixed(0)} / ${(loop.max / 1e6).toFixed(0)}`,
    'cpu ms/item': '',
    items: '',
  });
}

{
  // Side by side, interleaved, in this thread: the native runtime, then tfjs' WASM backend with
  // attention's batched products split onto XNNPACK's fast path (its default) and with tfjs' own
  // kernel, for one full 128-token window and for eight in one call.
  const note = (i: number) => Array.from({ length: 8 }, (_, k) => sentence(20_000 + i * 8 + k)).join(' ');
  const cases = [
    { label: 'one full window (a ~950-character note)', texts: (i: number) => [note(i)] },
    {
      label: '8 full windows in one call, per window',
      texts: (i: number) => Array.from({ length: 8 }, (_, k) => note(i * 8 + k)),
    },
  ];
  const modes = ['native', 'split', 'tfjs'] as const;
  for (const c of cases) {
    const ms: Record<(typeof modes)[number], number[]> = { native: [], split: [], tfjs: [] };
    for (let r = 0; r < RUNS * 2; r++) {
      for (const [k, mode] of [...modes.slice(r % 3), ...modes.slice(0, r % 3)].entries()) {
        await setUseLiteSplitMatMul(mode !== 'tfjs');
        const texts = c.texts(r * 3 + k);
        const model = mode === 'native' ? nativeModel : wasmModel;
        const [, , cpu] = await timeCpu(() => model.embed(texts));
        ms[mode].push(cpu / texts.length);
      }
    }
    await setUseLiteSplitMatMul(true);
    rows.push({
      case: `${c.label}: ${nativeModel.runtime} / WASM split / WASM tfjs kernel (cpu ms)`,
      'ms/item median': '',
      'cpu ms/item': `${median(ms.native).toFixed(1)} / ${median(ms.split).toFixed(1)} / ${median(ms.tfjs).toFixed(1)}`,
      items: RUNS * 2,
    });
  }
}

console.log(
  `Offline embedder: universal-sentence-encoder-lite (512 dims) on ${nativeModel.runtime === 'native' ? 'onnxruntime-node' : 'WASM (onnxruntime-node did not load)'}; ` +
    `model load ${loadMs.toFixed(0)} ms (WASM ${wasmLoadMs.toFixed(0)} ms); ${await loadNote()}`,
);
printTable(rows);
console.log(`peak RSS ${peakRssMb().toFixed(0)} MB (main thread + embedding thread)`);
for (const e of embedders) await e.close?.();
