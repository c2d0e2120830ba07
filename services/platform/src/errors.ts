// Domain errors: thrown by service code, mapped once at the edge (HTTP status, gRPC code).
// `expose` says whether the message is safe to show a user; 5xx never leaks internals.

export abstract class DomainError extends Error {
  abstract readonly status: number;
  readonly expose: boolean = true;
  readonly details: Record<string, unknown> | undefined;
  constructor(message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.details = options?.details;
  }
}

/** Bad input from a caller (400). The message is the user-facing text. */
export class InputError extends DomainError {
  readonly status = 400;
}
/** Not signed in, or the credentials are not valid (401). */
export class AuthenticationError extends DomainError {
  readonly status = 401;
}
/** Signed in but not allowed (403). */
export class NotAllowedError extends DomainError {
  readonly status = 403;
}
/** Missing, or not the caller's (404: another user's data is indistinguishable from none). */
export class NotFoundError extends DomainError {
  readonly status = 404;
}
/** The request conflicts with current state, e.g. a duplicate (409). */
export class ConflictError extends DomainError {
  readonly status = 409;
}
/** Payload too large (413). */
export class TooLargeError extends DomainError {
  readonly status = 413;
}
/** Too many requests (429). */
export class RateLimitError extends DomainError {
  readonly status = 429;
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
/**
 * The client went away before its request was read (an aborted upload). Nobody reads the answer;
 * it is a 400 so it is logged as a rejection, not a fault of ours.
 */
export class ClientAbortError extends DomainError {
  readonly status = 400;
}
/** A dependency (engine, another service) is not answering (503). Message is generic at the edge. */
export class UnavailableError extends DomainError {
  readonly status = 503;
}

/** Wrap a cause as "doing X: cause" so logs read as a chain of what was being done. */
export function wrapError(doing: string, cause: unknown): Error {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new Error(`${doing}: ${message}`, { cause });
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
