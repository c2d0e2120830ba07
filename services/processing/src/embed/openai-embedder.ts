// Embeddings from any OpenAI-compatible endpoint (OpenAI, Azure, vLLM, Ollama) through the openai
// SDK. encoding_format is always 'float': the SDK's default asks for base64, which several
// compatible servers do not implement.
import type OpenAI from 'openai';
import { createBatchingEmbedder } from './batching-embedder.ts';
import type { TextEmbedder } from './text-embedder.ts';

/** Sizes of well-known models, so `dimensions` is right before the first call. */
const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
};

export interface OpenAiEmbedderOptions {
  client: OpenAI;
  model: string;
  /** Ask the endpoint for this size (text-embedding-3 models support it). */
  dimensions?: number;
  /** Inputs per request (OpenAI allows 2048; 128 keeps requests small). */
  maxBatch?: number;
  cacheSize?: number;
}

export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): TextEmbedder {
  const { client, model } = options;
  let dimensions = options.dimensions ?? KNOWN_DIMENSIONS[model] ?? 0;
  return createBatchingEmbedder({
    space: () => ({ provider: 'openai', model, dimensions }),
    maxBatch: options.maxBatch ?? 128,
    maxChars: 8000,
    cacheSize: options.cacheSize ?? 2000,
    async embedBatch(texts) {
      const response = await client.embeddings.create({
        model,
        input: texts,
        encoding_format: 'float',
        ...(options.dimensions ? { dimensions: options.dimensions } : {}),
      });
      const data = [...response.data].sort((a, b) => a.index - b.index);
      const vectors = data.map((d) => d.embedding);
      const size = vectors[0]?.length ?? 0;
      if (vectors.some((v) => !Array.isArray(v) || v.length !== size || size === 0)) {
        throw new Error(`the embedding endpoint returned malformed vectors for model ${model}`);
      }
      // A vector of another size than before means the endpoint changed its model under us.
      if (dimensions !== 0 && size !== dimensions) {
        throw new Error(
          `the embedding endpoint returned ${size}-dimensional vectors for ${model}, expected ${dimensions}`,
        );
      }
      dimensions = size;
      return vectors;
    },
  });
}
