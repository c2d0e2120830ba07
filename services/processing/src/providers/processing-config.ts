// The processing service's AI settings. Offline models by default; one env change (OPENAI_BASE_URL,
// or PROCESSING_AI_PROVIDER=openai for api.openai.com) moves enrichment, embeddings and vision to
// any OpenAI-compatible endpoint (OpenAI, Azure, vLLM, Ollama).
import { defineConfig, env } from '@kaboodle/platform';
import type { ConfigOf } from '@kaboodle/platform';

export const processingFields = {
  PROCESSING_AI_PROVIDER: env.enum(['offline', 'openai'] as const, {
    description:
      'AI provider for enrichment, embeddings, vision and OCR transcription; unset: openai when OPENAI_BASE_URL is set, else offline',
  }),
  OPENAI_BASE_URL: env.url({
    protocols: ['http', 'https'],
    description:
      'OpenAI-compatible endpoint, e.g. http://ollama:11434/v1; setting it switches to that provider',
  }),
  OPENAI_API_KEY: env.string({
    secret: true,
    description: 'API key for the endpoint (local servers such as Ollama or vLLM accept any value)',
  }),
  OPENAI_CHAT_MODEL: env.string({
    default: 'gpt-4o-mini',
    description: 'Chat model for document enrichment (JSON output)',
  }),
  OPENAI_EMBEDDING_MODEL: env.string({
    default: 'text-embedding-3-small',
    description: 'Embedding model; changing it makes every stored vector stale (re-embedded, never mixed)',
  }),
  OPENAI_EMBEDDING_DIMENSIONS: env.int({
    min: 1,
    max: 8192,
    description: 'Requested embedding size (text-embedding-3 models can shorten); unset: the model default',
  }),
  OPENAI_VISION_MODEL: env.string({
    default: 'gpt-4o-mini',
    description: 'Vision-capable chat model for inventory photos and for reading images and scanned pages',
  }),
  OPENAI_TIMEOUT: env.duration({
    default: '60s',
    min: 1000,
    description: 'Per-request timeout for the endpoint',
  }),
  BARCODE_LOOKUP_URL: env.url({
    protocols: ['http', 'https'],
    description:
      'External barcode lookup, {code} replaced by the value (e.g. https://world.openfoodfacts.org/api/v2/product/{code}.json); unset: local catalogue only',
  }),
};

export const processingConfigSchema = defineConfig(processingFields, {
  validate(c) {
    const problems: string[] = [];
    if (
      c.PROCESSING_AI_PROVIDER === 'openai' &&
      c.OPENAI_BASE_URL === undefined &&
      c.OPENAI_API_KEY === undefined
    ) {
      problems.push(
        'OPENAI_API_KEY: is required when PROCESSING_AI_PROVIDER=openai and OPENAI_BASE_URL is not set (api.openai.com needs a key)',
      );
    }
    return problems;
  },
});

export type ProcessingConfig = ConfigOf<typeof processingFields>;

/** The provider in force: explicit setting first, else an endpoint URL present means openai. */
export function resolveAiProvider(config: ProcessingConfig): 'offline' | 'openai' {
  return config.PROCESSING_AI_PROVIDER ?? (config.OPENAI_BASE_URL !== undefined ? 'openai' : 'offline');
}
