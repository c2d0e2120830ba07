// The processing service as a module: stateless workers that turn a stored file into a document or an
// inventory item. One analyzer (extract → enrich → embed, or vision for photos) serves gRPC Analyze and
// the file.uploaded consumer; the embedder also answers Embed for the search service's queries.
// Models and worker threads load once per process, lazily, on first use.
import { childLogger, combineConfigs } from '@kaboodle/platform';
import type { BlobStore, EventBus, Logger, ServiceModule, Subscription } from '@kaboodle/platform';
import { createAnalyzer, createAiProviders, processingConfigSchema } from './analyze/index.ts';
import type { Analyzer, TextEmbedder } from './analyze/index.ts';
import { createPooledExtractor } from './extract/index.ts';
import { subscribeFileUploaded } from './file-uploaded.consumer.ts';
import { extractionConfig, extractionOptionsFromConfig } from './limits/index.ts';
import { createProcessingGrpcService } from './processing.grpc.ts';

/** Every key the processing module reads (AI providers and extraction limits). */
export const processingModuleConfig = combineConfigs(processingConfigSchema, extractionConfig);
export type ProcessingModuleConfig = ReturnType<typeof processingModuleConfig.parse>;

export interface ProcessingModuleDeps {
  bus: EventBus;
  blobs: BlobStore;
  logger: Logger;
  config: ProcessingModuleConfig;
  /** Consume file.uploaded in this process (default true). */
  consume?: boolean;
}

export interface ProcessingModule extends ServiceModule {
  readonly analyzer: Analyzer;
  /** For in-process callers (search in `--target=all`): the same embedder gRPC Embed uses. */
  readonly embedder: TextEmbedder;
}

export function createProcessingModule(deps: ProcessingModuleDeps): ProcessingModule {
  const { bus, blobs, config } = deps;
  const logger = childLogger(deps.logger, 'processing');
  const extractor = createPooledExtractor(extractionOptionsFromConfig(config));
  const ai = createAiProviders(config);
  const analyzer = createAnalyzer({
    extractor,
    blobs,
    embedder: ai.embedder,
    enricher: ai.enricher,
    vision: ai.vision,
  });
  let subscription: Subscription | undefined;

  return {
    name: 'processing',
    analyzer,
    embedder: ai.embedder,
    grpc: [createProcessingGrpcService({ analyzer, embedder: ai.embedder, blobs })],
    async start() {
      logger.info({ provider: ai.provider }, 'processing started');
      if (deps.consume !== false) subscription = await subscribeFileUploaded({ bus, analyzer, logger });
    },
    async stop() {
      await subscription?.close();
      await Promise.all([ai.close(), extractor.close()]);
    },
  };
}
