// The one typed API client every Kaboodle front end uses (docs/product.md#calls, #messages, the auth
// contract): cookies + bearer, JSON, X-Requested-With, CSRF on state-changing calls, 30 s timeout, the error
// catalogue's mapping, refresh-once-then-`auth:error` on 401, and the namespaced cache
// (docs/product.md#limits).
import { API_MESSAGES, ApiError, messageForStatus, networkMessageFor, serverMessageOf } from './api-error.ts';
import { createApiCache, type ApiCache, type KeyValueStorage } from './api-cache.ts';

export const API_TIMEOUT_MS = 30_000;
export const CSRF_COOKIE = 'kaboodle_csrf';
export const AUTH_ERROR_EVENT = 'auth:error';
export const STORAGE_KEYS = {
  user: 'user',
  token: 'token',
  authToken: 'auth_token',
  session: 'auth_session',
} as const;

/** Calls that are themselves part of signing in: a 401 from them is an answer, not an expiry. */
const AUTH_FLOW_PATHS = /^\/api\/auth\/(login|register|google|admin\/login|logout|session|refresh)(\/|$|\?)/;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RequestOptions {
  headers?: Record<string, string>;
  /**
   * Query parameters; undefined, null and '' values are left out (docs/product.md#calls: "only the set
   * parameters").
   */
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Serve GETs from (and store them in) this cache namespace, keyed by the full URL. */
  cache?: { namespace: string; ttlMs?: number; bypassRead?: boolean };
  /**
   * On 401: 'refresh' (default) refreshes once and retries, then dispatches `auth:error`;
   * 'silent' refreshes and retries but never dispatches; 'none' just throws.
   * Sign-in calls default to 'none'.
   */
  onUnauthorized?: 'refresh' | 'silent' | 'none';
}

export interface UploadOptions {
  onProgress?: (percent: number, loaded: number, total: number) => void;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface ApiClient {
  get<T>(path: string, opts?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  delete<T>(path: string, opts?: RequestOptions): Promise<T>;
  upload<T>(path: string, formData: FormData, opts?: UploadOptions): Promise<T>;
  /** Builds the absolute URL a path resolves to (for links such as downloads). */
  url(path: string, query?: RequestOptions['query']): string;
  readonly cache: ApiCache;
}

/** Just enough of XMLHttpRequest for uploads with progress. */
export interface UploadRequest {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  withCredentials: boolean;
  timeout: number;
  readonly status: number;
  readonly responseText: string;
  getResponseHeader(name: string): string | null;
  upload: { onprogress: ((ev: { lengthComputable: boolean; loaded: number; total: number }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  ontimeout: (() => void) | null;
  onabort: (() => void) | null;
  send(body: FormData): void;
  abort(): void;
}

export interface ApiClientEnv {
  /** Origin (and optional path) prepended to every path; '' means the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  storage?: () => KeyValueStorage | undefined;
  cookies?: () => string;
  events?: () => EventTarget | undefined;
  createUploadRequest?: () => UploadRequest;
  timeoutMs?: number;
  now?: () => number;
}

function browserStorage(): KeyValueStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage disabled (privacy mode, sandboxed frame)
  }
}

export function readCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

async function readBody(res: Response): Promise<{ body: unknown; parsed: boolean }> {
  if (res.status === 204 || res.status === 205) return { body: undefined, parsed: true };
  const text = await res.text();
  if (text === '') return { body: undefined, parsed: true };
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return { body: JSON.parse(text) as unknown, parsed: true };
    } catch {
      return { body: text, parsed: false };
    }
  }
  return { body: text, parsed: true };
}

export function createApiClient(env: ApiClientEnv = {}): ApiClient {
  const baseUrl = (env.baseUrl ?? '').replace(/\/$/, '');
  const doFetch: typeof fetch = (input, init) => (env.fetch ?? globalThis.fetch)(input, init);
  const storage = env.storage ?? browserStorage;
  const cookies = env.cookies ?? (() => (typeof document === 'undefined' ? '' : document.cookie));
  const events = env.events ?? (() => (typeof window === 'undefined' ? undefined : window));
  const defaultTimeout = env.timeoutMs ?? API_TIMEOUT_MS;
  const cache = createApiCache({ storage, ...(env.now ? { now: env.now } : {}) });
  let refreshing: Promise<boolean> | null = null;

  const url = (path: string, query?: RequestOptions['query']): string => {
    const absolute = /^https?:\/\//.test(path) ? path : `${baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
    if (!query) return absolute;
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
    }
    const qs = params.toString();
    if (qs === '') return absolute;
    return `${absolute}${absolute.includes('?') ? '&' : '?'}${qs}`;
  };

  const headersFor = (method: string, extra: Record<string, string> | undefined, json: boolean) => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      ...(json ? { 'Content-Type': 'application/json' } : {}),
      ...extra,
    };
    const hasAuthorization = Object.keys(headers).some((h) => h.toLowerCase() === 'authorization');
    if (!hasAuthorization) {
      const token = storage()?.getItem(STORAGE_KEYS.authToken);
      if (token) headers.Authorization = `Bearer ${token}`;
    }
    if (STATE_CHANGING.has(method)) {
      const csrf = readCookie(cookies(), CSRF_COOKIE);
      if (csrf) headers['X-CSRF-Token'] = csrf;
    }
    return headers;
  };

  /** One refresh for any number of concurrent 401s. */
  const refreshSession = (): Promise<boolean> => {
    refreshing ??= (async () => {
      try {
        const res = await doFetch(url('/api/auth/refresh'), {
          method: 'POST',
          credentials: 'include',
          headers: headersFor('POST', undefined, true),
          body: '{}',
          signal: AbortSignal.timeout(defaultTimeout),
        });
        if (!res.ok) {
          // An unread body keeps the request open (pending in the browser until its timeout).
          await res.body?.cancel().catch(() => undefined);
          return false;
        }
        const { body } = await readBody(res);
        const token = body && typeof body === 'object' ? (body as { token?: unknown }).token : undefined;
        if (typeof token === 'string' && token !== '') {
          storage()?.setItem(STORAGE_KEYS.authToken, token);
          storage()?.setItem(STORAGE_KEYS.token, token);
        }
        return true;
      } catch {
        return false;
      } finally {
        // Let the next expiry (minutes later) refresh again.
        setTimeout(() => (refreshing = null), 0);
      }
    })();
    return refreshing;
  };

  const sessionExpired = (mode: 'refresh' | 'silent', body: unknown): ApiError => {
    if (mode === 'refresh') {
      events()?.dispatchEvent(
        new CustomEvent(AUTH_ERROR_EVENT, { detail: { status: 401, message: API_MESSAGES.sessionExpired } }),
      );
    }
    return new ApiError({
      status: 401,
      kind: 'http',
      message: API_MESSAGES.sessionExpired,
      serverMessage: serverMessageOf(body),
      body,
    });
  };

  async function send<T>(method: string, path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
    const target = url(path, opts.query);
    const cacheable = method === 'GET' && opts.cache !== undefined;
    if (cacheable && !opts.cache!.bypassRead) {
      const hit = cache.get<T>(opts.cache!.namespace, target);
      if (hit !== undefined) return hit;
    }
    const onUnauthorized = opts.onUnauthorized ?? (AUTH_FLOW_PATHS.test(path) ? 'none' : 'refresh');

    const attempt = async (): Promise<Response> => {
      const timeoutMs = opts.timeoutMs ?? defaultTimeout;
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new DOMException('timeout', 'TimeoutError')),
        timeoutMs,
      );
      const signal = opts.signal ? AbortSignal.any([opts.signal, controller.signal]) : controller.signal;
      const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
      try {
        return await doFetch(target, {
          method,
          credentials: 'include',
          headers: headersFor(method, opts.headers, body !== undefined && !isForm),
          body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
          signal,
        });
      } catch (err) {
        if (opts.signal?.aborted) {
          throw new ApiError({ status: 0, kind: 'aborted', message: API_MESSAGES.aborted, cause: err });
        }
        if (controller.signal.aborted) {
          throw new ApiError({ status: 0, kind: 'timeout', message: API_MESSAGES.timeout, cause: err });
        }
        throw new ApiError({ status: 0, kind: 'network', message: networkMessageFor(target), cause: err });
      } finally {
        clearTimeout(timer);
      }
    };

    let res = await attempt();
    if (res.status === 401 && onUnauthorized !== 'none') {
      const first = await readBody(res);
      if (!(await refreshSession())) throw sessionExpired(onUnauthorized, first.body);
      res = await attempt();
      if (res.status === 401) throw sessionExpired(onUnauthorized, (await readBody(res)).body);
    }

    const { body: data, parsed } = await readBody(res);
    if (!res.ok) {
      const serverMessage = serverMessageOf(data);
      throw new ApiError({
        status: res.status,
        kind: 'http',
        message: messageForStatus(res.status, serverMessage),
        serverMessage,
        body: data,
      });
    }
    if (!parsed) {
      throw new ApiError({
        status: res.status,
        kind: 'invalid-response',
        message: API_MESSAGES.invalidResponse,
      });
    }
    if (cacheable) cache.set(opts.cache!.namespace, target, data, opts.cache!.ttlMs);
    return data as T;
  }

  function upload<T>(path: string, formData: FormData, opts: UploadOptions = {}): Promise<T> {
    const target = url(path);
    const create = env.createUploadRequest ?? (() => new XMLHttpRequest() as unknown as UploadRequest);
    const once = (): Promise<{ status: number; text: string; type: string }> =>
      new Promise((resolve, reject) => {
        if (opts.signal?.aborted) {
          reject(new ApiError({ status: 0, kind: 'aborted', message: API_MESSAGES.aborted }));
          return;
        }
        const xhr = create();
        xhr.open('POST', target);
        xhr.withCredentials = true;
        xhr.timeout = opts.timeoutMs ?? defaultTimeout;
        for (const [name, value] of Object.entries(headersFor('POST', opts.headers, false))) {
          xhr.setRequestHeader(name, value);
        }
        xhr.upload.onprogress = (ev) => {
          if (ev.lengthComputable && ev.total > 0) {
            opts.onProgress?.(Math.round((ev.loaded / ev.total) * 100), ev.loaded, ev.total);
          }
        };
        const onAbort = () => xhr.abort();
        opts.signal?.addEventListener('abort', onAbort, { once: true });
        const done = () => opts.signal?.removeEventListener('abort', onAbort);
        xhr.onload = () => {
          done();
          resolve({
            status: xhr.status,
            text: xhr.responseText,
            type: xhr.getResponseHeader('content-type') ?? '',
          });
        };
        xhr.onerror = () => {
          done();
          reject(new ApiError({ status: 0, kind: 'network', message: networkMessageFor(target) }));
        };
        xhr.ontimeout = () => {
          done();
          reject(new ApiError({ status: 0, kind: 'timeout', message: API_MESSAGES.timeout }));
        };
        xhr.onabort = () => {
          done();
          reject(new ApiError({ status: 0, kind: 'aborted', message: API_MESSAGES.aborted }));
        };
        xhr.send(formData);
      });

    return (async () => {
      let res = await once();
      if (res.status === 401) {
        if (!(await refreshSession())) throw sessionExpired('refresh', undefined);
        res = await once();
        if (res.status === 401) throw sessionExpired('refresh', undefined);
      }
      let data: unknown = res.text;
      if (res.type.includes('json') && res.text !== '') {
        try {
          data = JSON.parse(res.text);
        } catch {
          throw new ApiError({
            status: res.status,
            kind: 'invalid-response',
            message: API_MESSAGES.invalidResponse,
          });
        }
      }
      if (res.status < 200 || res.status >= 300) {
        const serverMessage = serverMessageOf(data);
        const generic = res.status === 403 || res.status >= 500;
        throw new ApiError({
          status: res.status,
          kind: 'http',
          message: generic
            ? messageForStatus(res.status, serverMessage)
            : `Upload failed with status: ${res.status}`,
          serverMessage,
          body: data,
        });
      }
      return data as T;
    })();
  }

  return {
    get: (path, opts) => send('GET', path, undefined, opts),
    post: (path, body, opts) => send('POST', path, body, opts),
    put: (path, body, opts) => send('PUT', path, body, opts),
    patch: (path, body, opts) => send('PATCH', path, body, opts),
    delete: (path, opts) => send('DELETE', path, undefined, opts),
    upload,
    url,
    cache,
  };
}

/** The shared client: same-origin (the server serves the shell and the API from one origin). */
export const api: ApiClient = createApiClient();
