// Image measurement off the main thread: a worker pool (the extraction engine's, with its hard time
// limit and heap cap) runs measureImage, so a second of WASM inference never stalls the event loop
// and a hostile image costs one thread, not the service.
import { UnavailableError } from '@kaboodle/platform';
import { WorkerTaskError, abortReason, createWorkerPool, type WorkerPool } from '../limits/worker-pool.ts';
import { embedImage } from './image-embedder.ts';
import { ImageRejectedError, measureImage, type ImageMeasurements } from './measure-image.ts';
import type { MeasureTask } from './vision.worker.ts';

export interface ImageMeasurer {
  measure(bytes: Uint8Array, options?: { signal?: AbortSignal }): Promise<ImageMeasurements>;
  /** Only the image vector (a find-by-photo query): the same model as measure's `embedding`. */
  embed(bytes: Uint8Array, options?: { signal?: AbortSignal }): Promise<Float32Array>;
  close(): Promise<void>;
}

export interface PooledImageMeasurerOptions {
  /** Threads (default 1: each model run already saturates a core). */
  threads?: number;
  /** Per image, from when a thread picks it up (default 60 s: the first image also loads the models). */
  timeoutMs?: number;
  maxQueued?: number;
  /** Heap cap per thread in MB (default 1024). */
  maxMemoryMb?: number;
}

export function createPooledImageMeasurer(options: PooledImageMeasurerOptions = {}): ImageMeasurer {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const pool: WorkerPool<MeasureTask, ImageMeasurements | Float32Array> = createWorkerPool({
    script: new URL('./vision.worker.ts', import.meta.url),
    size: options.threads ?? 1,
    maxQueued: options.maxQueued ?? 16,
    idleTimeoutMs: 10 * 60_000,
    resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb ?? 1024, maxYoungGenerationSizeMb: 64 },
  });
  async function run(task: MeasureTask, signal: AbortSignal | undefined) {
    try {
      return await pool.run(task, { timeoutMs, ...(signal ? { signal } : {}) });
    } catch (err) {
      if (!(err instanceof WorkerTaskError)) throw err;
      switch (err.kind) {
        case 'task':
          if (err.remote?.name === 'ImageRejectedError') throw new ImageRejectedError(err.remote.message);
          throw new Error(`analysing the image: ${err.message}`, { cause: err });
        case 'timeout':
          throw new ImageRejectedError(
            `Analysing this picture took longer than ${Math.round(timeoutMs / 1000)} seconds, so it was stopped.`,
            { cause: err },
          );
        case 'out_of_memory':
          throw new ImageRejectedError('Analysing this picture needed too much memory, so it was stopped.', {
            cause: err,
          });
        case 'queue_full':
          throw new UnavailableError('Too many pictures are being analysed; try again shortly.', {
            cause: err,
          });
        case 'aborted':
          throw abortReason(err);
        default:
          throw new Error(`analysing the image: ${err.message}`, { cause: err });
      }
    }
  }
  return {
    measure: async (bytes, opts = {}) => (await run({ bytes }, opts.signal)) as ImageMeasurements,
    embed: async (bytes, opts = {}) => (await run({ bytes, kind: 'embed' }, opts.signal)) as Float32Array,
    close: () => pool.close(),
  };
}

/** In-thread measurer (tests, benchmarks): same results, blocks the event loop while it runs. */
export function createInThreadImageMeasurer(): ImageMeasurer {
  return {
    measure: (bytes, opts = {}) => {
      opts.signal?.throwIfAborted();
      return measureImage(bytes);
    },
    embed: (bytes, opts = {}) => {
      opts.signal?.throwIfAborted();
      return embedImage(bytes);
    },
    close: async () => {},
  };
}
