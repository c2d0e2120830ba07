// Builds the three AI ports from config: offline adapters by default; with an OpenAI-compatible
// endpoint configured, the remote adapters, each keeping the offline findings that local code gets
// exactly (file metadata, rule hits, barcodes, pixel colours) as its baseline.
import type OpenAI from 'openai';
import { createOpenAiEnricher, createPooledOfflineEnricher, type DocumentEnricher } from '../enrich/index.ts';
import {
  createOpenAiEmbedder,
  createUseLiteEmbedder,
  type TextEmbedder,
  type UseLiteRuntime,
} from '../embed/index.ts';
import {
  createBarcodeLookup,
  createOfflineVision,
  createOpenAiVision,
  createPooledImageMeasurer,
  IMAGE_EMBEDDING_DIMENSIONS,
  IMAGE_EMBEDDING_MODEL,
  IMAGE_EMBEDDING_PROVIDER,
  type ImageEmbedder,
  type ImageMeasurer,
  type InventoryVision,
  type LocalBarcodeMatch,
} from '../vision/index.ts';
import { createOpenAiClient } from './openai-client.ts';
import { resolveAiProvider, type ProcessingConfig } from './processing-config.ts';

export interface AiProviders {
  provider: 'offline' | 'openai';
  embedder: TextEmbedder;
  enricher: DocumentEnricher;
  vision: InventoryVision;
  /** Photos as vectors (find an item by photo): always the offline image model. */
  imageEmbedder: ImageEmbedder;
  /** The endpoint's client when provider is `openai` (text extraction's vision transcription uses it too). */
  openai?: OpenAI;
  /** Stop the worker threads (embedding model, image measurement). */
  close(): Promise<void>;
}

export interface AiProviderOptions {
  /** The user's catalogue by barcode (local match first); absent: no local match. */
  localBarcodeMatch?: (value: string, format: string) => Promise<LocalBarcodeMatch | null>;
  /** Image measurement (default: a worker-thread pool). */
  measurer?: ImageMeasurer;
  /** A ready client (tests); otherwise one is made from the config. */
  openai?: OpenAI;
  /** Threads for the offline embedding model (default 1). */
  embedThreads?: number;
  /** The offline embedding model's runtime (default `auto`: native where onnxruntime-node loads). */
  embedRuntime?: UseLiteRuntime;
  /** Characters per offline embedding model call (default USE_LITE_BATCH_CHARS). */
  embedBatchChars?: number;
}

export function createAiProviders(config: ProcessingConfig, options: AiProviderOptions = {}): AiProviders {
  const provider = resolveAiProvider(config);
  const measurer = options.measurer ?? createPooledImageMeasurer();
  const barcodeLookup = createBarcodeLookup({
    ...(options.localBarcodeMatch ? { local: options.localBarcodeMatch } : {}),
    ...(config.BARCODE_LOOKUP_URL ? { externalUrl: config.BARCODE_LOOKUP_URL } : {}),
  });
  // In a worker thread: the rules and NLP are a few ms per note the main thread needs for uploads.
  const offlineEnricher = createPooledOfflineEnricher();
  const offlineVision = createOfflineVision({ measurer, barcodeLookup });
  const imageEmbedder: ImageEmbedder = {
    provider: IMAGE_EMBEDDING_PROVIDER,
    model: IMAGE_EMBEDDING_MODEL,
    dimensions: IMAGE_EMBEDDING_DIMENSIONS,
    embed: (bytes, opts = {}) => measurer.embed(bytes, opts),
  };
  if (provider === 'offline') {
    const embedder = createUseLiteEmbedder({
      threads: options.embedThreads ?? 1,
      runtime: options.embedRuntime ?? 'auto',
      ...(options.embedBatchChars ? { maxBatchChars: options.embedBatchChars } : {}),
    });
    return {
      provider,
      embedder,
      enricher: offlineEnricher,
      vision: offlineVision,
      imageEmbedder,
      close: async () => {
        await Promise.all([embedder.close?.(), offlineVision.close?.(), offlineEnricher.close()]);
      },
    };
  }
  const client = options.openai ?? createOpenAiClient(config);
  const vision = createOpenAiVision({ client, model: config.OPENAI_VISION_MODEL, baseline: offlineVision });
  const embedder = createOpenAiEmbedder({
    client,
    model: config.OPENAI_EMBEDDING_MODEL,
    ...(config.OPENAI_EMBEDDING_DIMENSIONS ? { dimensions: config.OPENAI_EMBEDDING_DIMENSIONS } : {}),
  });
  return {
    provider,
    openai: client,
    embedder,
    enricher: createOpenAiEnricher({ client, model: config.OPENAI_CHAT_MODEL, baseline: offlineEnricher }),
    vision,
    imageEmbedder,
    close: async () => {
      await Promise.all([embedder.close?.(), vision.close?.(), offlineEnricher.close()]);
    },
  };
}
