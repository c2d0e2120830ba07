// Per-file resource limits for extraction: one typed object, validated once, with defaults that fit
// the product (20 MB uploads) on a 2-core machine. Every extractor reads its caps from here.

export interface ExtractionLimits {
  /** Largest input accepted, in bytes (the 20 MB upload limit, docs/product.md#limits). */
  maxBytes: number;
  /** Wall-clock time for one file; past it the worker thread running it is terminated. */
  timeoutMs: number;
  /** JS heap cap of a worker thread (worker_threads resourceLimits.maxOldGenerationSizeMb). */
  maxMemoryMb: number;
  /** Pages read from a PDF; later pages are skipped with a warning. */
  maxPages: number;
  /** PDF pages without a text layer that get OCR'd; later ones are skipped with a warning. */
  maxOcrPages: number;
  /** Characters of text kept; the rest is cut with a warning. */
  maxTextChars: number;
  /** Largest image (width × height, read from its header before decoding) that is decoded at all. */
  maxImagePixels: number;
  /** Longest side an image is scaled down to before OCR (bigger costs time without helping tesseract). */
  ocrMaxSide: number;
  /** Sum of the uncompressed sizes a DOCX's central directory may declare. */
  maxZipUncompressedBytes: number;
  /** Largest uncompressed ÷ compressed ratio, for the whole archive and for any entry bigger than 1 MiB. */
  maxZipRatio: number;
  /** Entries a DOCX may have. */
  maxZipEntries: number;
}

export const DEFAULT_EXTRACTION_LIMITS: Readonly<ExtractionLimits> = Object.freeze({
  maxBytes: 20 * 1024 * 1024,
  timeoutMs: 120_000,
  maxMemoryMb: 768,
  maxPages: 2_000,
  maxOcrPages: 30,
  maxTextChars: 5_000_000,
  maxImagePixels: 1_000_000_000,
  ocrMaxSide: 3_500,
  maxZipUncompressedBytes: 256 * 1024 * 1024,
  maxZipRatio: 200,
  maxZipEntries: 10_000,
});

/**
 * Merge overrides onto the defaults; throws listing every bad field (fail fast,
 * docs/conventions.md#5-config-fails-fast).
 */
export function resolveLimits(overrides?: Partial<ExtractionLimits>): ExtractionLimits {
  const merged: ExtractionLimits = { ...DEFAULT_EXTRACTION_LIMITS, ...stripUndefined(overrides ?? {}) };
  const problems: string[] = [];
  for (const [key, value] of Object.entries(merged)) {
    // maxOcrPages may be 0 (OCR off); every other limit must leave room for work.
    const min = key === 'maxOcrPages' ? 0 : Number.MIN_VALUE;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
      problems.push(
        `${key} must be a ${min === 0 ? 'non-negative' : 'positive'} number (got ${String(value)})`,
      );
    }
  }
  if (problems.length > 0) throw new Error(`invalid extraction limits: ${problems.join('; ')}`);
  return merged;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
