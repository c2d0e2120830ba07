// The processing engine's entry points for the module: createAnalyzer (Analyze and the
// file.uploaded consumer share it) plus the ports it is built from.
export { createAnalyzer } from './analyzer.service.ts';
export { classifyFailure, EXTRACTION_FAILURE_OWNER, FILE_GONE_REASON } from './failures.ts';
export type { ClassifiedFailure, FailureOwner } from './failures.ts';
export type {
  AnalyzeInput,
  AnalyzeOptions,
  AnalyzeResult,
  Analyzer,
  AnalyzerDeps,
  Destination,
  DocumentAnalysisInit,
  InventoryAnalysisInit,
} from './analyzer.service.ts';
export { createAiProviders, processingConfigSchema, resolveAiProvider } from '../providers/index.ts';
export type { AiProviders, AiProviderOptions, ProcessingConfig } from '../providers/index.ts';
export type { TextEmbedder } from '../embed/index.ts';
export type { DocumentEnricher, TagUse } from '../enrich/index.ts';
export type { InventoryVision, LocalBarcodeMatch } from '../vision/index.ts';
