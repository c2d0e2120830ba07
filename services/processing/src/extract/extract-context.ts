// What every per-format extractor receives: the resolved limits, a signal to check between steps,
// the thread's shared OCR engine, and a list to add user-facing warnings to.
import type { ExtractionLimits } from '../limits/limits.ts';
import { ExtractionError, REASONS, type ExtractedMetadata, type ExtractedPage } from './extractor.ts';
import type { OcrEngine } from './ocr-engine.ts';

export interface ExtractContext {
  limits: ExtractionLimits;
  signal: AbortSignal;
  ocr(): OcrEngine;
  warnings: string[];
  url?: string;
}

/** What a format extractor returns; the dispatcher adds kind, language and the final warnings. */
export interface FormatResult {
  text: string;
  pages?: ExtractedPage[];
  metadata: ExtractedMetadata;
  /** A language the format itself declares (HTML lang), used when the text is too short to tell. */
  declaredLanguage?: string;
  /** Some of the file was left out (page limit, OCR cap, reading stopped at the text limit). */
  partial?: boolean;
}

/** Reason carried by the signal when the per-file time limit fires (vs a caller's cancel). */
export class TimeLimitReached extends Error {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`time limit of ${timeoutMs} ms reached`);
    this.timeoutMs = timeoutMs;
  }
}

export function abortError(signal: AbortSignal): ExtractionError {
  const reason: unknown = signal.reason;
  if (reason instanceof TimeLimitReached) {
    return new ExtractionError('timeout', REASONS.timeout(reason.timeoutMs), { cause: reason });
  }
  return new ExtractionError('aborted', REASONS.aborted, { cause: reason });
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

/** Collapses runs of blank lines and trailing spaces so texts from every format look alike. */
export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
