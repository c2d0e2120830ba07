// Public surface of the extraction engine (the processing module wires createPooledExtractor).
export * from './extractor.ts';
export { createLocalExtractor, type LocalExtractorOptions } from './local-extractor.ts';
export { createPooledExtractor, type PooledExtractorOptions } from './pooled-extractor.ts';
export { detectContentType, decideType, type DetectedType, type TypeDecision } from './detect-type.ts';
export { decodeText, type DecodedText } from './text-decode.ts';
export { createOcrEngine, type OcrEngine, type OcrResult } from './ocr-engine.ts';
export { DEFAULT_EXTRACTION_LIMITS, resolveLimits, type ExtractionLimits } from '../limits/limits.ts';
export {
  extractionConfig,
  extractionOptionsFromConfig,
  type ExtractionConfig,
} from '../limits/extraction-config.ts';
