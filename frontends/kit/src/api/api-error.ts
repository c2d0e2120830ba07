// The one error type every API call throws, carrying the user-facing text of the product's error
// catalogue (docs/product.md#messages) and, separately, whatever the server said.

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'invalid-response';

export const API_MESSAGES = {
  network: 'Unable to connect to the server. Please check your connection and try again.',
  sourceMap: 'Source map loading error (this may not affect functionality)',
  sessionExpired: 'Session expired',
  forbidden: 'Access denied. You may not have permission for this action.',
  server: 'Server error. Please try again later.',
  invalidResponse: 'Invalid API response',
  timeout: 'The server took too long to answer. Please try again.',
  aborted: 'Request cancelled',
} as const;

export class ApiError extends Error {
  /** HTTP status; 0 when no response arrived (network, timeout, cancelled). */
  readonly status: number;
  readonly kind: ApiErrorKind;
  /** The server's own `message` (or `error`) field, when it sent one. */
  readonly serverMessage: string | undefined;
  /** The parsed response body, for callers that need more than the message. */
  readonly body: unknown;

  constructor(init: {
    status: number;
    kind: ApiErrorKind;
    message: string;
    serverMessage?: string | undefined;
    body?: unknown;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.kind = init.kind;
    this.serverMessage = init.serverMessage;
    this.body = init.body;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** Reads a human message out of an error body ({message} or {error}), if there is one. */
export function serverMessageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const field of ['message', 'error']) {
      const value = record[field];
      if (typeof value === 'string' && value.trim() !== '') return value;
    }
  }
  return undefined;
}

/** docs/product.md#messages: what a person sees for an HTTP failure with this status. */
export function messageForStatus(status: number, serverMessage: string | undefined): string {
  if (status === 401) return serverMessage ?? API_MESSAGES.sessionExpired;
  if (status === 403) return API_MESSAGES.forbidden;
  if (status >= 500) return API_MESSAGES.server;
  return serverMessage ?? `HTTP error! status: ${status}`;
}

/** docs/product.md#messages: network failures read the same everywhere, except for source maps. */
export function networkMessageFor(url: string): string {
  return /\.map(\?|#|$)/.test(url) ? API_MESSAGES.sourceMap : API_MESSAGES.network;
}
