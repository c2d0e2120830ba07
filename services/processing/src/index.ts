export * from './module.ts';

// Also public: what the server composes and the contract tests exercise (no deep imports).
export { documentHeadline, embedDocument } from './embed/document-embedding.ts';
export { cosine } from './embed/text-embedder.ts';
export type { TextEmbedder } from './embed/text-embedder.ts';
export { createUseLiteEmbedder, USE_LITE_SPACE } from './embed/use-lite-embedder.ts';
export { createOfflineEnricher } from './enrich/offline-enricher.ts';
export { ExtractionError } from './extract/extractor.ts';
export type { ExtractInput, ExtractOptions, Extractor } from './extract/extractor.ts';
export { createLocalExtractor } from './extract/local-extractor.ts';
export { createOpenAiAssistedExtractor } from './extract/openai-assisted-extractor.ts';
export { createPooledExtractor } from './extract/pooled-extractor.ts';
export { createImageEmbeddingGrpcService } from './image-embedding.grpc.ts';
export { createOpenAiClient } from './providers/openai-client.ts';
export { createBarcodeLookup } from './vision/barcode-lookup.ts';
export {
  IMAGE_EMBEDDING_DIMENSIONS,
  IMAGE_EMBEDDING_MODEL,
  IMAGE_EMBEDDING_PROVIDER,
} from './vision/image-embedder.ts';
export { createInThreadImageMeasurer, createPooledImageMeasurer } from './vision/image-measurer.ts';
export { createOfflineVision } from './vision/offline-vision.ts';
export { FIELD_CONFIDENCE, FIELD_THRESHOLD, guessField } from './enrich/classify-field.ts';
export type { DocumentEnricher, DocumentEnrichment } from './enrich/document-enricher.ts';
export { createOpenAiEnricher } from './enrich/openai-enricher.ts';
export type { ExtractedMetadata } from './extract/extractor.ts';
