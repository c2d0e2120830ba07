// The processing service as a module: stateless workers that turn a stored file into a document or an
// inventory item. One analyzer (extract → enrich → embed, or vision for photos) serves gRPC Analyze and
// the file.uploaded consumer; the embedder also answers Embed for the search service's queries.
// Models and worker threads load once per process, lazily, on first use.
import { childLogger } from '@kaboodle/platform';
import type { BlobStore, EventBus, Logger, ServiceModule, Subscription } from '@kaboodle/platform';
import { createAnalyzer, createAiProviders } from './analyze/index.ts';
import type { Analyzer, TextEmbedder } from './analyze/index.ts';
import { createPooledExtractor, type Extractor } from './extract/index.ts';
import { createOpenAiAssistedExtractor } from './extract/openai-assisted-extractor.ts';
import { subscribeFileUploaded } from './file-uploaded.consumer.ts';
import { extractionOptionsFromConfig } from './limits/index.ts';
import { createImageEmbeddingGrpcService } from './image-embedding.grpc.ts';
import { createProcessingGrpcService } from './processing.grpc.ts';
import type { ImageEmbedder } from './vision/index.ts';

import type { ProcessingModuleConfig } from './module-config.ts';

export { processingModuleConfig } from './module-config.ts';
export type { ProcessingModuleConfig } from './module-config.ts';

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
  /** For in-process callers (search's find by photo): the same model gRPC EmbedImage uses. */
  readonly imageEmbedder: ImageEmbedder;
  /** The text extractor in force: offline, or OpenAI-assisted when the provider is `openai`. */
  readonly extractor: Extractor;
}

export function createProcessingModule(deps: ProcessingModuleDeps): ProcessingModule {
  const { bus, blobs, config } = deps;
  const logger = childLogger(deps.logger, 'processing');
  const extractionOptions = extractionOptionsFromConfig(config);
  const offlineExtractor = createPooledExtractor(extractionOptions);
  const ai = createAiProviders(config, {
    embedThreads: config.EMBED_THREADS,
    embedRuntime: config.EMBED_RUNTIME,
    embedBatchChars: config.EMBED_BATCH_CHARS,
  });
  // With an endpoint configured, its vision model reads images and scanned pages; everything else
  // (and the fallback when the endpoint fails) stays with the offline extractor.
  const extractor = ai.openai
    ? createOpenAiAssistedExtractor({
        base: offlineExtractor,
        client: ai.openai,
        model: config.OPENAI_VISION_MODEL,
        logger,
        limits: extractionOptions.limits,
      })
    : offlineExtractor;
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
    imageEmbedder: ai.imageEmbedder,
    grpc: [
      createProcessingGrpcService({ analyzer, embedder: ai.embedder, blobs }),
      createImageEmbeddingGrpcService(ai.imageEmbedder),
    ],
    extractor,
    async start() {
      logger.info({ provider: ai.provider }, 'processing started');
      if (deps.consume !== false)
        subscription = await subscribeFileUploaded({
          bus,
          analyzer,
          logger,
          concurrency: config.PROCESSING_CONCURRENCY,
        });
    },
    // The uploads consumer and the cancel listener (none when consume is off).
    background: () => subscription?.ended ?? Promise.resolve(),
    async stop() {
      await subscription?.close();
      await Promise.all([ai.close(), extractor.close()]);
    },
  };
}
