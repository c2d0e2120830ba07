// The env keys of the extraction engine, declared with the platform config kit so the entrypoint
// parses them with every other module's keys and reports all problems at once. Defaults run as is.
import { defineConfig, env } from '@kaboodle/platform';
import { DEFAULT_EXTRACTION_LIMITS, type ExtractionLimits } from './limits.ts';

const d = DEFAULT_EXTRACTION_LIMITS;

export const extractionConfig = defineConfig({
  EXTRACT_THREADS: env.int({
    min: 1,
    max: 16,
    default: 1,
    description: 'Worker threads for text extraction/OCR (each holds its own OCR model, ~100 MB)',
  }),
  EXTRACT_TIMEOUT: env.duration({
    min: 1_000,
    default: d.timeoutMs,
    description: 'Per-file time limit; the worker thread is terminated when it passes',
  }),
  EXTRACT_MAX_MEMORY_MB: env.int({
    min: 64,
    default: d.maxMemoryMb,
    description: 'JS heap cap of an extraction thread (worker_threads resourceLimits)',
  }),
  EXTRACT_MAX_PAGES: env.int({ min: 1, default: d.maxPages, description: 'PDF pages read per file' }),
  EXTRACT_MAX_OCR_PAGES: env.int({
    min: 0,
    default: d.maxOcrPages,
    description: 'Scanned PDF pages OCR’d per file (0: none)',
  }),
  EXTRACT_MAX_TEXT_CHARS: env.int({
    min: 1_000,
    default: d.maxTextChars,
    description: 'Characters of text kept per file',
  }),
});

export type ExtractionConfig = ReturnType<typeof extractionConfig.parse>;

/** Options for createPooledExtractor from the parsed keys. */
export function extractionOptionsFromConfig(config: ExtractionConfig): {
  threads: number;
  limits: Partial<ExtractionLimits>;
} {
  return {
    threads: config.EXTRACT_THREADS,
    limits: {
      timeoutMs: config.EXTRACT_TIMEOUT,
      maxMemoryMb: config.EXTRACT_MAX_MEMORY_MB,
      maxPages: config.EXTRACT_MAX_PAGES,
      maxOcrPages: config.EXTRACT_MAX_OCR_PAGES,
      maxTextChars: config.EXTRACT_MAX_TEXT_CHARS,
    },
  };
}
