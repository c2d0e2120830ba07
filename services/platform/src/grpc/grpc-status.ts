// Domain errors ⇄ gRPC status, the gRPC twin of http/error-handler.ts. The server side never leaks
// internals (5xx-like codes carry a generic text); the error's class travels in trailing metadata so
// a Kaboodle client restores the exact domain error, and other clients still get standard codes.
import { Metadata, status as Status } from '@grpc/grpc-js';
import type { ServiceError, StatusObject } from '@grpc/grpc-js';
import type { DomainError } from '../errors.ts';
import {
  AuthenticationError,
  ConflictError,
  InputError,
  isDomainError,
  NotAllowedError,
  NotFoundError,
  RateLimitError,
  TooLargeError,
  UnavailableError,
} from '../errors.ts';

/** Trailing metadata key naming the domain error class, e.g. `NotFoundError`. */
export const ERROR_CLASS_KEY = 'kaboodle-error';
/** Trailing metadata key with the domain error's details as JSON (binary header). */
export const ERROR_DETAILS_KEY = 'kaboodle-error-details-bin';
/** Trailing metadata key with RateLimitError's retry delay in seconds. */
export const RETRY_AFTER_KEY = 'retry-after';

const GENERIC_INTERNAL = 'Internal server error';
const GENERIC_UNAVAILABLE = 'Service temporarily unavailable';

/** Status name for logs and messages: `NOT_FOUND`. */
export function grpcCodeName(code: number): string {
  return (Status as unknown as Record<number, string>)[code] ?? `CODE_${code}`;
}

function codeForHttpStatus(status: number): Status {
  switch (status) {
    case 400:
      return Status.INVALID_ARGUMENT;
    case 401:
      return Status.UNAUTHENTICATED;
    case 403:
      return Status.PERMISSION_DENIED;
    case 404:
      return Status.NOT_FOUND;
    case 409:
      return Status.ALREADY_EXISTS;
    case 413:
    case 429:
      return Status.RESOURCE_EXHAUSTED;
    case 503:
      return Status.UNAVAILABLE;
    default:
      return Status.INTERNAL;
  }
}

export interface GrpcStatusMapping extends StatusObject {
  /** True when this is our fault (INTERNAL, UNKNOWN...) and should be logged as an error with its stack. */
  fault: boolean;
}

function isGrpcStatusLike(err: unknown): err is { code: number; details?: unknown; metadata?: unknown } {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'number' &&
    Number.isInteger((err as { code: number }).code) &&
    (err as { code: number }).code >= 0 &&
    (err as { code: number }).code <= 16
  );
}

const FAULT_CODES: ReadonlySet<number> = new Set([
  Status.UNKNOWN,
  Status.INTERNAL,
  Status.DATA_LOSS,
  Status.UNIMPLEMENTED,
]);

/** Map anything a handler threw to the status the client sees. Pure, so tests can table it. */
export function toGrpcStatus(err: unknown): GrpcStatusMapping {
  const metadata = new Metadata();
  if (isDomainError(err)) {
    const code = codeForHttpStatus(err.status);
    const safe = err.expose && err.status < 500;
    metadata.set(ERROR_CLASS_KEY, err.name);
    if (safe && err.details) metadata.set(ERROR_DETAILS_KEY, Buffer.from(JSON.stringify(err.details)));
    if (err instanceof RateLimitError)
      metadata.set(RETRY_AFTER_KEY, String(Math.max(0, Math.ceil(err.retryAfterSeconds))));
    const details = safe ? err.message : code === Status.UNAVAILABLE ? GENERIC_UNAVAILABLE : GENERIC_INTERNAL;
    return { code, details, metadata, fault: code === Status.INTERNAL };
  }
  if (isGrpcStatusLike(err) && err.code !== Status.OK) {
    // A status chosen on purpose by a raw grpc-js handler ({ code, details }); internal codes stay generic.
    const fault = FAULT_CODES.has(err.code);
    const details = fault
      ? GENERIC_INTERNAL
      : typeof err.details === 'string'
        ? err.details
        : grpcCodeName(err.code);
    const md = err.metadata instanceof Metadata ? err.metadata : metadata;
    return { code: err.code, details, metadata: md, fault };
  }
  return { code: Status.INTERNAL, details: GENERIC_INTERNAL, metadata, fault: true };
}

/** A grpc-js ServiceError carrying a mapped status (what a unary callback or stream 'error' takes). */
export function toServiceError(mapping: StatusObject, cause?: unknown): ServiceError {
  const error = new Error(`${mapping.code} ${grpcCodeName(mapping.code)}: ${mapping.details}`, {
    cause,
  }) as ServiceError;
  error.code = mapping.code;
  error.details = mapping.details;
  error.metadata = mapping.metadata ?? new Metadata();
  return error;
}

/** A gRPC failure that is no domain error (INTERNAL, UNIMPLEMENTED...): a 500 at the HTTP edge. */
export class GrpcStatusError extends Error {
  readonly code: number;
  readonly details: string;
  readonly path: string;
  constructor(path: string, code: number, details: string, options?: { cause?: unknown }) {
    super(`calling ${path}: ${grpcCodeName(code)}: ${details}`, options);
    this.name = 'GrpcStatusError';
    this.code = code;
    this.details = details;
    this.path = path;
  }
}

type DomainErrorClass = new (
  message: string,
  options?: { cause?: unknown; details?: Record<string, unknown> },
) => DomainError;

const CLASSES: Record<string, DomainErrorClass> = {
  InputError,
  NotFoundError,
  ConflictError,
  NotAllowedError,
  AuthenticationError,
  UnavailableError,
  TooLargeError,
};

const BY_CODE: Partial<Record<number, DomainErrorClass>> = {
  [Status.INVALID_ARGUMENT]: InputError,
  [Status.OUT_OF_RANGE]: InputError,
  [Status.NOT_FOUND]: NotFoundError,
  [Status.ALREADY_EXISTS]: ConflictError,
  [Status.ABORTED]: ConflictError,
  [Status.FAILED_PRECONDITION]: ConflictError,
  [Status.PERMISSION_DENIED]: NotAllowedError,
  [Status.UNAUTHENTICATED]: AuthenticationError,
  [Status.UNAVAILABLE]: UnavailableError,
  [Status.DEADLINE_EXCEEDED]: UnavailableError,
};

function firstString(metadata: Metadata | undefined, key: string): string | undefined {
  const value = metadata?.get(key)[0];
  return value === undefined ? undefined : String(value);
}

function parseDetails(metadata: Metadata | undefined): Record<string, unknown> | undefined {
  const raw = metadata?.get(ERROR_DETAILS_KEY)[0];
  if (raw === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Map a failed call's status back to a domain error (client side): the class named in trailing
 * metadata when a Kaboodle server sent one, else by code; anything else becomes GrpcStatusError.
 * The status itself stays reachable as `cause` (with `code`, `details`, `metadata`).
 */
export function fromGrpcStatus(path: string, err: Partial<StatusObject> & { code: number }): Error {
  const details = err.details ?? grpcCodeName(err.code);
  const metadata = err.metadata;
  const className = firstString(metadata, ERROR_CLASS_KEY);
  if (className === 'RateLimitError') {
    const retryAfter = Number(firstString(metadata, RETRY_AFTER_KEY) ?? '1');
    const rateLimit = new RateLimitError(details, Number.isFinite(retryAfter) ? retryAfter : 1);
    return Object.assign(rateLimit, { cause: err });
  }
  if (err.code === Status.DEADLINE_EXCEEDED) {
    return new UnavailableError(`calling ${path}: deadline exceeded`, { cause: err });
  }
  const Class = (className !== undefined ? CLASSES[className] : undefined) ?? BY_CODE[err.code];
  if (Class) {
    // Only the server's own details: they may reach a user, so no transport internals are added.
    const extra = parseDetails(metadata);
    // Unavailable never reaches a user verbatim (generic 503 at the edge), so it may name the call for logs.
    const message = Class === UnavailableError ? `calling ${path}: ${details}` : details;
    return new Class(message, extra ? { cause: err, details: extra } : { cause: err });
  }
  return new GrpcStatusError(path, err.code, details, { cause: err });
}
