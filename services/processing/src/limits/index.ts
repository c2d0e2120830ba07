export * from './limits.ts';
export * from './worker-pool.ts';
export { extractionConfig, extractionOptionsFromConfig, type ExtractionConfig } from './extraction-config.ts';
export { pipelineConfig, type PipelineConfig } from './pipeline-config.ts';
