// Whose failure is it? Every error the analyser can raise is sorted here, once, for both the
// file.uploaded consumer (retry or not) and its callers: the user's (their file, their choice of
// destination: not retried, and the reason says what they can do) or the system's (an engine down,
// a bug: retried with backoff, and the user reads only that it failed on our side).
import { isDomainError, NotFoundError, UnavailableError } from '@kaboodle/platform';
import { ExtractionError } from '../extract/extractor.ts';
import type { ExtractionErrorCode } from '../extract/extractor.ts';

export const FILE_GONE_REASON = 'The uploaded file is no longer stored. Please upload it again.';

export type FailureOwner = 'user' | 'system' | 'cancelled';

/**
 * Each extraction outcome, decided once. A Record so that a new code cannot be added without
 * deciding whose it is (the compiler asks). `timeout` and `too_large` are the file's: the limits
 * are per file and the same file would hit them again.
 */
export const EXTRACTION_FAILURE_OWNER: Record<ExtractionErrorCode, FailureOwner> = {
  password_protected: 'user',
  corrupt: 'user',
  empty: 'user',
  type_mismatch: 'user',
  too_large: 'user',
  timeout: 'user',
  unsupported: 'user',
  aborted: 'cancelled',
};

export type ClassifiedFailure =
  { owner: 'user'; reason: string } | { owner: 'system'; error: unknown } | { owner: 'cancelled' };

export function classifyFailure(err: unknown): ClassifiedFailure {
  if (err instanceof ExtractionError) {
    const owner = EXTRACTION_FAILURE_OWNER[err.code];
    if (owner === 'user') return { owner, reason: err.message };
    if (owner === 'cancelled') return { owner };
    return { owner, error: err };
  }
  // The stored bytes are gone (deleted meanwhile): only a new upload helps.
  if (err instanceof NotFoundError) return { owner: 'user', reason: FILE_GONE_REASON };
  if ((err as Error | undefined)?.name === 'AbortError') return { owner: 'cancelled' };
  // Other domain errors below 500 are refusals of this input (InputError and the like), except an
  // engine that is busy or down, which may answer next time.
  if (isDomainError(err) && !(err instanceof UnavailableError) && err.status < 500) {
    return { owner: 'user', reason: err.message };
  }
  return { owner: 'system', error: err };
}
