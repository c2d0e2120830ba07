// Public surface of the embeddings capability.
export * from './text-embedder.ts';
export { createBatchingEmbedder, type BatchingEmbedderOptions } from './batching-embedder.ts';
export {
  createUseLiteEmbedder,
  loadUseLiteModel,
  setUseLiteSplitMatMul,
  USE_LITE_SPACE,
  type UseLiteEmbedderOptions,
  type UseLiteRuntime,
} from './use-lite-embedder.ts';
export { createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openai-embedder.ts';
export { chunkText, splitSentences, type ChunkOptions, type TextChunk } from './chunk-text.ts';
export {
  documentHeadline,
  embedDocument,
  type DocumentEmbedding,
  type EmbeddedPassage,
  type EmbedDocumentOptions,
} from './document-embedding.ts';
