// The one place errors become HTTP responses (fastify/demo setErrorHandler): domain errors keep their
// status and user-facing message; anything unexpected is a generic 500, logged in full with the request id.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDomainError, NotFoundError, RateLimitError } from '../errors.ts';

export interface ErrorBody {
  /** Same text as message (older clients read `error`). */
  error: string;
  /** The spec's API client shows this field. */
  message: string;
  /** The error class name, e.g. NotFoundError, for programs. */
  code: string;
  requestId?: string;
  details?: Record<string, unknown>;
}

export interface HttpErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when this is a fault of ours (5xx) and should be logged as an error. */
  fault: boolean;
}

const GENERIC: Record<number, { message: string; code: string }> = {
  500: { message: 'Internal server error', code: 'InternalError' },
  503: { message: 'Service temporarily unavailable', code: 'UnavailableError' },
};

function body(message: string, code: string, details?: Record<string, unknown>): ErrorBody {
  return { error: message, message, code, ...(details ? { details } : {}) };
}

/** Errors from body-parser / http-errors: a numeric status and a `type` or `expose` flag. */
interface HttpLibraryError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  limit?: number;
  name?: string;
  message?: string;
  code?: string;
  encoding?: string;
  charset?: string;
}

/**
 * Refusals of body-parser and the router, in the product's words (their own texts name library
 * internals: "unsupported content encoding", "incorrect header check"). All are the request's fault:
 * 400, like any other body that cannot be read.
 */
function libraryRefusal(err: unknown, e: HttpLibraryError): string | undefined {
  // express's router: a path segment whose %-escapes do not decode (`/files/%E0%A4%A`)
  if (err instanceof URIError && e.status === 400)
    return 'The address is not valid: it has a malformed %-escape';
  switch (e.type) {
    case 'encoding.unsupported':
      return `Content-Encoding ${JSON.stringify(e.encoding ?? '')} is not supported: send the body uncompressed, or as gzip, deflate or br`;
    case 'charset.unsupported':
      return `The charset ${JSON.stringify(e.charset ?? '')} is not supported: send JSON as UTF-8`;
    case 'request.size.invalid':
      return 'The request body does not match its Content-Length';
    case 'request.aborted':
      return 'The request was aborted before its body arrived';
  }
  // zlib's errors while inflating a gzip, deflate or br body
  if (e.status === 400 && /^(Z_|ERR_BROTLI|ERR__ERROR)/.test(e.code ?? ''))
    return 'The request body could not be decompressed: check its Content-Encoding';
  return undefined;
}

/** Map any thrown value to a response without leaking internals. Pure, so the gRPC kit can mirror it. */
export function toHttpError(err: unknown): HttpErrorResponse {
  if (isDomainError(err)) {
    const headers: Record<string, string> = {};
    if (err instanceof RateLimitError)
      headers['Retry-After'] = String(Math.max(0, Math.ceil(err.retryAfterSeconds)));
    if (err.status >= 500 || !err.expose) {
      const generic = GENERIC[err.status] ?? GENERIC[500]!;
      return { status: err.status, body: body(generic.message, err.name), headers, fault: err.status >= 500 };
    }
    return { status: err.status, body: body(err.message, err.name, err.details), headers, fault: false };
  }
  const e = (typeof err === 'object' && err !== null ? err : {}) as HttpLibraryError;
  if (e.type === 'entity.parse.failed') {
    return {
      status: 400,
      body: body('Invalid JSON in request body', 'InputError'),
      headers: {},
      fault: false,
    };
  }
  if (e.type === 'entity.too.large') {
    const limit = typeof e.limit === 'number' ? ` (limit ${e.limit} bytes)` : '';
    return {
      status: 413,
      body: body(`Request body is too large${limit}`, 'TooLargeError'),
      headers: {},
      fault: false,
    };
  }
  const refusal = libraryRefusal(err, e);
  if (refusal) return { status: 400, body: body(refusal, 'InputError'), headers: {}, fault: false };
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && e.expose === true && e.message) {
    return { status, body: body(e.message, e.name ?? 'HttpError'), headers: {}, fault: false };
  }
  return { status: 500, body: body(GENERIC[500]!.message, GENERIC[500]!.code), headers: {}, fault: true };
}

/** Terminal handler for requests no route matched: a JSON 404 (never Express's HTML page). */
export function notFoundHandler(): RequestHandler {
  return function notFound(req, _res, next) {
    next(new NotFoundError(`No route for ${req.method} ${req.originalUrl.split('?', 1)[0]}`));
  };
}

export function errorHandler(): ErrorRequestHandler {
  return function errorHandler(err, req, res, next) {
    const mapped = toHttpError(err);
    const log = req.log;
    if (mapped.fault) log?.error({ err, status: mapped.status }, 'request failed with an unexpected error');
    else
      log?.debug(
        { code: mapped.body.code, reason: (err as Error)?.message, status: mapped.status },
        'request rejected',
      );
    if (res.headersSent) {
      // Too late for a JSON body: let Express abort the connection so the client sees a failure.
      next(err);
      return;
    }
    res.status(mapped.status).set(mapped.headers);
    res.json({ ...mapped.body, ...(req.id ? { requestId: req.id } : {}) });
  };
}
