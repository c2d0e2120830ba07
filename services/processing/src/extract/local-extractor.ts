// The in-thread Extractor: size check, type by content, per-format extraction, then the shared
// post-processing (text cap, language, "no text" rule). Time limits here are cooperative (checked
// between pages and raced against the work); createPooledExtractor adds the hard kill and memory cap.
import { readFile, stat } from 'node:fs/promises';
import { resolveLimits, type ExtractionLimits } from '../limits/limits.ts';
import {
  ExtractionError,
  REASONS,
  type ExtractInput,
  type ExtractOptions,
  type ExtractedKind,
  type ExtractionResult,
  type Extractor,
} from './extractor.ts';
import { type ExtractContext, type FormatResult, TimeLimitReached, abortError } from './extract-context.ts';
import { decideType, detectContentType } from './detect-type.ts';
import { createOcrEngine, type OcrEngine } from './ocr-engine.ts';
import type { ZipEntry } from './zip-reader.ts';
import { detectLanguage } from './language.ts';
import { storableMetadata, storableText } from './storable-text.ts';

export interface LocalExtractorOptions {
  /** Limits applied when a call gives none (merged over the defaults). */
  limits?: Partial<ExtractionLimits>;
  /** Share an OCR engine (one tesseract worker) across extractors in this thread. */
  ocr?: OcrEngine;
}

const LABELS: Record<ExtractedKind, string> = {
  pdf: 'PDF',
  docx: 'Word document',
  doc: 'Word document',
  txt: 'text file',
  html: 'page',
  image: 'image',
};

export function createLocalExtractor(options: LocalExtractorOptions = {}): Extractor {
  const baseLimits = resolveLimits(options.limits);
  const ownsOcr = options.ocr === undefined;
  let ocr: OcrEngine | null = options.ocr ?? null;
  const getOcr = (): OcrEngine => (ocr ??= createOcrEngine());

  async function extract(input: ExtractInput, opts: ExtractOptions = {}): Promise<ExtractionResult> {
    const limits = opts.limits ? resolveLimits({ ...baseLimits, ...opts.limits }) : baseLimits;
    const timer = new AbortController();
    // setTimeout fires at once past 2^31-1 ms, so a huge limit is clamped rather than inverted.
    const delay = Math.min(limits.timeoutMs, 2 ** 31 - 1);
    const timeout = setTimeout(() => timer.abort(new TimeLimitReached(limits.timeoutMs)), delay);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timer.signal]) : timer.signal;
    try {
      if (signal.aborted) throw abortError(signal);
      // Whatever a library is doing, the caller gets its answer when the signal fires.
      return await new Promise<ExtractionResult>((resolve, reject) => {
        const onAbort = () => reject(abortError(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        run(input, limits, signal)
          .then(resolve, reject)
          .finally(() => signal.removeEventListener('abort', onAbort));
      });
    } finally {
      clearTimeout(timeout);
    }
  }

  async function run(
    input: ExtractInput,
    limits: ExtractionLimits,
    signal: AbortSignal,
  ): Promise<ExtractionResult> {
    assertInput(input);
    const bytes = await loadBytes(input.bytes, limits);
    if (bytes.length === 0) throw new ExtractionError('empty', REASONS.empty);
    const detected = detectContentType(bytes);
    const decision = decideType(detected, input.fileName, input.declaredType, input.source ?? 'upload');
    const warnings = [...decision.warnings];
    const ctx: ExtractContext = {
      limits,
      signal,
      ocr: getOcr,
      warnings,
      ...(input.url ? { url: input.url } : {}),
    };
    let result: FormatResult;
    try {
      result = await extractKind(decision.kind, bytes, ctx, detected.zipEntries);
    } catch (err) {
      if (err instanceof ExtractionError) throw err;
      if (signal.aborted) throw abortError(signal);
      throw new ExtractionError(
        'corrupt',
        `The ${LABELS[decision.kind]} could not be read; it may be damaged.`,
        { cause: err },
      );
    }
    return finish(decision.kind, result, warnings, limits);
  }

  return {
    extract,
    async close() {
      if (ownsOcr && ocr) await ocr.close();
      ocr = null;
    },
  };
}

// Format extractors load on first use: a fresh worker thread starts fast, and a text-only
// workload never loads pdf.js, sharp or tesseract.
async function extractKind(
  kind: ExtractedKind,
  bytes: Uint8Array,
  ctx: ExtractContext,
  zipEntries: ZipEntry[] | undefined,
): Promise<FormatResult> {
  switch (kind) {
    case 'pdf':
      return (await import('./pdf-extractor.ts')).extractPdf(bytes, ctx);
    case 'docx':
      return (await import('./docx-extractor.ts')).extractDocx(bytes, ctx, zipEntries);
    case 'doc':
      return (await import('./doc-extractor.ts')).extractDoc(bytes, ctx);
    case 'txt':
      return (await import('./txt-extractor.ts')).extractTxt(bytes, ctx);
    case 'html':
      return (await import('./html-extractor.ts')).extractHtml(bytes, ctx);
    case 'image':
      return (await import('./image-extractor.ts')).extractImage(bytes, ctx);
  }
}

/** Caller mistakes (not the user's file): plain TypeErrors, so they surface as bugs, not as reasons. */
function assertInput(input: ExtractInput): void {
  if (!input || typeof input !== 'object') throw new TypeError('extract: input must be an object');
  if (typeof input.fileName !== 'string') throw new TypeError('extract: input.fileName must be a string');
  if (input.declaredType !== undefined && typeof input.declaredType !== 'string') {
    throw new TypeError('extract: input.declaredType must be a string');
  }
  if (input.source !== undefined && input.source !== 'upload' && input.source !== 'url') {
    throw new TypeError("extract: input.source must be 'upload' or 'url'");
  }
}

async function loadBytes(source: Uint8Array | string, limits: ExtractionLimits): Promise<Uint8Array> {
  if (typeof source === 'string') {
    let size: number;
    try {
      size = (await stat(source)).size;
    } catch (err) {
      // A missing path is our fault, not the user's: a plain error, not an ExtractionError.
      throw new Error(`reading the file to extract: ${(err as Error).message}`, { cause: err });
    }
    if (size > limits.maxBytes)
      throw new ExtractionError('too_large', REASONS.tooLarge(size, limits.maxBytes));
    return readFile(source);
  }
  if (!(source instanceof Uint8Array))
    throw new TypeError('extract: input.bytes must be a Uint8Array or a file path');
  if (source.length > limits.maxBytes)
    throw new ExtractionError('too_large', REASONS.tooLarge(source.length, limits.maxBytes));
  return source;
}

function finish(
  kind: ExtractedKind,
  result: FormatResult,
  warnings: string[],
  limits: ExtractionLimits,
): ExtractionResult {
  let text = storableText(result.text);
  let pages = result.pages?.map((p) => ({ ...p, text: storableText(p.text) }));
  let truncated = result.partial === true;
  if (text.length > limits.maxTextChars) {
    truncated = true;
    text = text.slice(0, limits.maxTextChars);
    warnings.push(
      `The text was cut to its first ${limits.maxTextChars.toLocaleString('en')} characters (text limit).`,
    );
    if (pages) {
      let budget = limits.maxTextChars;
      pages = pages.map((p) => {
        const kept = p.text.slice(0, Math.max(0, budget));
        budget -= kept.length;
        return { ...p, text: kept };
      });
    }
  }
  // Documents exist to be read: one without any text is a failure the user should hear about.
  // Photos (inventory items) often have no text, which is fine.
  if (text.trim().length === 0 && kind !== 'image') {
    const scannedSkipped = warnings.some((w) => /not OCR'd/.test(w));
    throw new ExtractionError(
      'empty',
      scannedSkipped
        ? `No text was found in the pages that were read; ${warnings.find((w) => /not OCR'd/.test(w))}`
        : REASONS.noText,
    );
  }
  const language = detectLanguage(text) ?? result.declaredLanguage;
  return {
    kind,
    text,
    ...(pages ? { pages } : {}),
    metadata: storableMetadata(result.metadata),
    ...(language ? { language } : {}),
    warnings,
    truncated,
  };
}
