// The env keys of the processing pipeline's throughput: files analysed at once and model threads.
// Defaults fit a small (2-core) machine; see docs/benchmarks/2026-11-25-pipeline-throughput.md before raising
// them.
import { defineConfig, env } from '@kaboodle/platform';
import { USE_LITE_BATCH_CHARS } from '../embed/use-lite-embedder.ts';

/** Files analysed at once per process unless PROCESSING_CONCURRENCY says otherwise. */
export const DEFAULT_PROCESSING_CONCURRENCY = 16;

export const pipelineConfig = defineConfig({
  PROCESSING_CONCURRENCY: env.int({
    min: 1,
    max: 64,
    default: DEFAULT_PROCESSING_CONCURRENCY,
    description:
      'file.uploaded events analysed at once per process (each holds one file, ≤ 20 MB; several keep the embedder’s batches full). With Kafka, at most the topic partitions this process holds',
  }),
  EMBED_THREADS: env.int({
    min: 1,
    max: 16,
    default: 2,
    description:
      'Worker threads for the offline embedding model (each holds its own copy: ~60 MB native, ~150 MB on WASM); 2 on a 2-core machine uses the core the main thread leaves idle',
  }),
  EMBED_RUNTIME: env.enum(['auto', 'native', 'wasm'] as const, {
    default: 'auto',
    description:
      'Runtime of the offline embedding model: native (onnxruntime-node, ~5x faster), wasm (tfjs) or auto (native where it loads, else wasm); the vectors are the same',
  }),
  EMBED_BATCH_CHARS: env.int({
    min: 100,
    max: 100_000,
    default: USE_LITE_BATCH_CHARS,
    description:
      'Characters per call of the offline embedding model; smaller calls shorten a search query’s wait behind an upload (480, one passage: p95 31 → 16 ms) and cost ingestion (−6 % text files, −11 % PDFs a minute)',
  }),
});

export type PipelineConfig = ReturnType<typeof pipelineConfig.parse>;
