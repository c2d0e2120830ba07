// Every env key the processing module reads (AI providers, extraction limits, pipeline throughput), in
// a file that loads no model code: the entrypoint parses it for every target, the web one included.
import { combineConfigs } from '@kaboodle/platform';
import { processingConfigSchema } from './providers/processing-config.ts';
import { extractionConfig } from './limits/extraction-config.ts';
import { pipelineConfig } from './limits/pipeline-config.ts';

export const processingModuleConfig = combineConfigs(
  processingConfigSchema,
  extractionConfig,
  pipelineConfig,
);
export type ProcessingModuleConfig = ReturnType<typeof processingModuleConfig.parse>;
