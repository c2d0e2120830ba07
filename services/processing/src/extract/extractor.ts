// The Extractor port: bytes (or a file path) in, plain text + pages + metadata out, or a typed
// ExtractionError whose message a user can act on. Adapters: createLocalExtractor (in this thread)
// and createPooledExtractor (worker threads with hard time/memory limits; the production one).
// The errors module only: the platform index pulls HTTP, gRPC and telemetry into every worker thread.
import { DomainError } from '@kaboodle/platform/errors';
import type { ExtractionLimits } from '../limits/limits.ts';

export type ExtractedKind = 'pdf' | 'docx' | 'doc' | 'txt' | 'html' | 'image';

export interface ExtractInput {
  /** The file's bytes, or an absolute path to it (preferred for workers: nothing is copied). */
  bytes: Uint8Array | string;
  /** The name the user gave the file (only its extension is used, to catch mismatches). */
  fileName: string;
  /** A MIME type or kind the caller claims (`application/pdf`, `pdf`); compared with the content. */
  declaredType?: string;
  /** Where the bytes came from: uploads may not be HTML; fetched URLs may. Default `upload`. */
  source?: 'upload' | 'url';
  /** The page's URL when source is `url` (readability resolves links and reads metadata with it). */
  url?: string;
}

export interface ExtractOptions {
  signal?: AbortSignal;
  limits?: Partial<ExtractionLimits>;
}

export interface ExtractedPage {
  /** 1-based page number. */
  n: number;
  text: string;
  /** True when the text came from OCR (no text layer on this page). */
  ocr: boolean;
}

export interface ExtractedMetadata {
  title?: string;
  author?: string;
  /** ISO 8601. */
  created?: string;
  /** ISO 8601. */
  modified?: string;
  subject?: string;
  keywords?: string[];
  publisher?: string;
  /** Site name for HTML pages. */
  siteName?: string;
  /** Short description (HTML meta description, readability excerpt). */
  excerpt?: string;
  /** Producing application (PDF Producer/Creator, DOCX Application). */
  producer?: string;
  /** Pages in the source (PDF), even when fewer were read. */
  pageCount?: number;
  /** Text encoding a TXT file was decoded from (`utf-8`, `utf-16le`, `windows-1252`...). */
  encoding?: string;
  /** Pixel size of an image as stored. */
  width?: number;
  height?: number;
  /** Mean OCR confidence (0–100) over OCR'd text. */
  ocrConfidence?: number;
  /** Fields a format carries that have no slot above. */
  extra?: Record<string, string>;
}

export interface ExtractionResult {
  kind: ExtractedKind;
  /** All text, pages joined by blank lines. */
  text: string;
  pages?: ExtractedPage[];
  metadata: ExtractedMetadata;
  /** ISO 639-1 code when the text is long enough to tell (`en`, `fr`...). */
  language?: string;
  /** Things the user may want to know: pages skipped, text cut, image downscaled. */
  warnings: string[];
  /** True when the text does not cover the whole file (page limit, OCR cap, text limit). */
  truncated: boolean;
}

export interface Extractor {
  extract(input: ExtractInput, opts?: ExtractOptions): Promise<ExtractionResult>;
  /** Release threads and OCR engines. */
  close(): Promise<void>;
}

export type ExtractionErrorCode =
  | 'password_protected'
  | 'corrupt'
  | 'empty'
  | 'type_mismatch'
  | 'too_large'
  | 'timeout'
  | 'unsupported'
  | 'aborted';

/** A file that cannot be extracted, with a reason written for the person who uploaded it. */
export class ExtractionError extends DomainError {
  readonly code: ExtractionErrorCode;
  readonly status: number;
  constructor(
    code: ExtractionErrorCode,
    reason: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(reason, options);
    this.code = code;
    // 422: the request was fine, this content cannot be processed; 413 for size; 499-ish cancel as 409.
    this.status = code === 'too_large' ? 413 : code === 'aborted' ? 409 : 422;
  }
  /** The user-readable reason (same as message; named for callers that store it). */
  get reason(): string {
    return this.message;
  }
}

export function isExtractionError(err: unknown): err is ExtractionError {
  return err instanceof ExtractionError;
}

/** The reasons used more than once, worded once. */
export const REASONS = {
  passwordProtectedPdf: 'This PDF is password-protected; remove the password and upload it again.',
  passwordProtectedOffice:
    'This Word document is password-protected; remove the password and upload it again.',
  empty: 'The file is empty.',
  noText: 'No text could be found in this file.',
  noTextInPhoto:
    'No text was found in this photo, so it cannot become a document. If it shows an item, upload it again with the destination Inventory item or Auto.',
  timeout: (ms: number) =>
    `Processing this file took longer than the ${ms >= 1000 ? `${Math.round(ms / 1000)}-second` : `${ms} ms`} limit, so it was stopped.`,
  memory: (mb: number) =>
    `Processing this file needed more than the ${mb} MB memory limit, so it was stopped.`,
  aborted: 'Processing was cancelled.',
  tooLarge: (bytes: number, max: number) => `The file is ${formatMb(bytes)}; the limit is ${formatMb(max)}.`,
  allowed: 'Allowed types: PDF, JPEG, PNG, TXT, DOC, DOCX.',
} as const;

export function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
