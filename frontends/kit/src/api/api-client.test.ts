// The API client against a scripted fetch (the server is not needed to check the client's rules).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, readCookie, AUTH_ERROR_EVENT, type UploadRequest } from './api-client.ts';
import { ApiError, API_MESSAGES } from './api-error.ts';
import type { KeyValueStorage } from './api-cache.ts';

class MemoryStorage implements KeyValueStorage {
  readonly map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(
  responder: (call: Call, index: number) => Response | Promise<Response>,
  opts: { cookie?: string; timeoutMs?: number } = {},
) {
  const calls: Call[] = [];
  const storage = new MemoryStorage();
  const events = new EventTarget();
  const authErrors: unknown[] = [];
  events.addEventListener(AUTH_ERROR_EVENT, (e) => authErrors.push((e as CustomEvent).detail));
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
    };
    calls.push(call);
    if (init?.signal?.aborted) throw init.signal.reason;
    return await new Promise<Response>((resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      Promise.resolve(responder(call, calls.length - 1)).then(resolve, reject);
    });
  });
  const client = createApiClient({
    baseUrl: 'http://kaboodle.test',
    fetch: fetchImpl as unknown as typeof fetch,
    storage: () => storage,
    cookies: () => opts.cookie ?? '',
    events: () => events,
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
  });
  return { client, calls, storage, authErrors };
}

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the call to fail');
}

afterEach(() => vi.useRealTimers());

describe('api client requests', () => {
  it('sends cookies, JSON and X-Requested-With, and returns the parsed body', async () => {
    const { client, calls } = setup(() => json(200, { ok: 1 }));
    await expect(client.post('/api/things', { a: 1 })).resolves.toEqual({ ok: 1 });
    expect(calls[0]).toMatchObject({
      url: 'http://kaboodle.test/api/things',
      method: 'POST',
      body: { a: 1 },
      headers: { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' },
    });
  });

  it('adds the bearer token from auth_token unless an Authorization header is given', async () => {
    const { client, calls, storage } = setup(() => json(200, {}));
    await client.get('/api/a');
    expect(calls[0]!.headers.Authorization).toBeUndefined();
    storage.setItem('auth_token', 'tok-1');
    await client.get('/api/a');
    expect(calls[1]!.headers.Authorization).toBe('Bearer tok-1');
    await client.get('/api/a', { headers: { authorization: 'Bearer mine' } });
    expect(calls[2]!.headers.authorization).toBe('Bearer mine');
    expect(calls[2]!.headers.Authorization).toBeUndefined();
  });

  it('sends X-CSRF-Token from the kaboodle_csrf cookie on state-changing calls only', async () => {
    const { client, calls } = setup(() => json(200, {}), { cookie: 'other=1; kaboodle_csrf=abc%3D; x=y' });
    await client.get('/api/a');
    await client.post('/api/a');
    await client.put('/api/a', {});
    await client.patch('/api/a', {});
    await client.delete('/api/a');
    expect(calls.map((c) => c.headers['X-CSRF-Token'])).toEqual([undefined, 'abc=', 'abc=', 'abc=', 'abc=']);
  });

  it('leaves unset query parameters out', () => {
    const { client } = setup(() => json(200, {}));
    expect(client.url('/api/inventory/search', { query: 'red', category: '', page: 1, x: undefined })).toBe(
      'http://kaboodle.test/api/inventory/search?query=red&page=1',
    );
  });

  it('reads a cookie value by exact name', () => {
    expect(readCookie('a_kaboodle_csrf=no; kaboodle_csrf=yes', 'kaboodle_csrf')).toBe('yes');
    expect(readCookie('', 'kaboodle_csrf')).toBeUndefined();
  });
});

describe('api client error mapping (docs/product.md#messages)', () => {
  it('maps a network failure to the connection text', async () => {
    const { client } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    const err = await caught(client.get('/api/a'));
    expect(err).toMatchObject({ status: 0, kind: 'network', message: API_MESSAGES.network });
    const map = await caught(client.get('/static/app.js.map'));
    expect(map.message).toBe('Source map loading error (this may not affect functionality)');
  });

  it('maps 403 and 5xx to the catalogue texts, keeping the server message aside', async () => {
    const { client } = setup((call) =>
      call.url.endsWith('/forbidden')
        ? json(403, { message: 'nope' })
        : json(502, { message: 'upstream died' }),
    );
    const forbidden = await caught(client.get('/api/forbidden'));
    expect(forbidden).toMatchObject({ status: 403, message: API_MESSAGES.forbidden, serverMessage: 'nope' });
    const server = await caught(client.get('/api/boom'));
    expect(server).toMatchObject({
      status: 502,
      message: 'Server error. Please try again later.',
      serverMessage: 'upstream died',
    });
  });

  it('uses the server message for other 4xx, else "HTTP error! status: N"', async () => {
    const { client } = setup((call) =>
      call.url.endsWith('/a')
        ? json(400, { message: 'Name is required' })
        : new Response('', { status: 409 }),
    );
    expect((await caught(client.post('/api/a', {}))).message).toBe('Name is required');
    expect((await caught(client.post('/api/b', {}))).message).toBe('HTTP error! status: 409');
  });

  it('reports a malformed JSON body as an invalid response', async () => {
    const { client } = setup(
      () => new Response('{not json', { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    expect(await caught(client.get('/api/a'))).toMatchObject({
      kind: 'invalid-response',
      message: 'Invalid API response',
    });
  });

  it('times out after the configured time (30 s by default)', async () => {
    vi.useFakeTimers();
    const { client } = setup(() => new Promise<Response>(() => undefined));
    const pending = caught(client.get('/api/slow'));
    await vi.advanceTimersByTimeAsync(29_999);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ status: 0, kind: 'timeout' });
  });

  it('reports a caller abort as cancelled, not as a network error', async () => {
    const { client } = setup(() => new Promise<Response>(() => undefined));
    const controller = new AbortController();
    const pending = caught(client.get('/api/slow', { signal: controller.signal }));
    controller.abort();
    expect(await pending).toMatchObject({ kind: 'aborted' });
  });
});

describe('api client 401 handling', () => {
  it('refreshes once, stores the new token and retries the original request', async () => {
    const { client, calls, storage, authErrors } = setup((call) => {
      if (call.url.endsWith('/api/auth/refresh')) return json(200, { user: { id: 'u1' }, token: 'fresh' });
      return call.headers.Authorization === 'Bearer fresh'
        ? json(200, { items: [] })
        : json(401, { message: 'expired' });
    });
    storage.setItem('auth_token', 'stale');
    await expect(client.get('/api/documents')).resolves.toEqual({ items: [] });
    expect(calls.map((c) => c.url.replace('http://kaboodle.test', ''))).toEqual([
      '/api/documents',
      '/api/auth/refresh',
      '/api/documents',
    ]);
    expect(storage.getItem('auth_token')).toBe('fresh');
    expect(authErrors).toEqual([]);
  });

  it('dispatches auth:error {401, "Session expired"} when the refresh fails', async () => {
    const { client, calls, authErrors } = setup(() => json(401, { message: 'Not signed in' }));
    const err = await caught(client.get('/api/documents'));
    expect(err).toMatchObject({ status: 401, message: 'Session expired' });
    expect(authErrors).toEqual([{ status: 401, message: 'Session expired' }]);
    expect(calls).toHaveLength(2); // the call and one refresh, no loop
  });

  it('releases the body of a refused refresh at once (no request left pending)', async () => {
    const released: string[] = [];
    const refused = () =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('{"message":"No session"}'));
          },
          cancel() {
            released.push('cancelled');
          },
        }),
        { status: 401, headers: { 'content-type': 'application/json' } },
      );
    const { client } = setup((call) => (call.url.endsWith('/refresh') ? refused() : json(401, {})));
    await caught(client.get('/api/documents'));
    expect(released).toEqual(['cancelled']);
  });

  it('dispatches auth:error when the retry is still 401', async () => {
    const { client, calls, authErrors } = setup((call) =>
      call.url.endsWith('/refresh') ? json(200, { user: {} }) : json(401, {}),
    );
    await caught(client.get('/api/documents'));
    expect(calls).toHaveLength(3);
    expect(authErrors).toHaveLength(1);
  });

  it('shares one refresh between concurrent 401s', async () => {
    let refreshed = false;
    const { client, calls } = setup((call) => {
      if (call.url.endsWith('/refresh')) {
        refreshed = true;
        return json(200, { token: 't2' });
      }
      return refreshed ? json(200, { ok: true }) : json(401, {});
    });
    await Promise.all([client.get('/api/a'), client.get('/api/b'), client.get('/api/c')]);
    expect(calls.filter((c) => c.url.endsWith('/refresh'))).toHaveLength(1);
  });

  it('never refreshes for the sign-in calls themselves: their 401 is the answer', async () => {
    const { client, calls, authErrors } = setup(() => json(401, { message: 'Login failed' }));
    const err = await caught(client.post('/api/auth/login', { email: 'a', password: 'b' }));
    expect(err).toMatchObject({ status: 401, serverMessage: 'Login failed' });
    expect(calls).toHaveLength(1);
    expect(authErrors).toEqual([]);
  });

  it('refreshes silently when asked (startup session check): no auth:error', async () => {
    const { client, calls, authErrors } = setup(() => json(401, {}));
    await caught(client.get('/api/auth/session', { onUnauthorized: 'silent' }));
    expect(calls.map((c) => c.url.endsWith('/refresh'))).toEqual([false, true]);
    expect(authErrors).toEqual([]);
  });
});

describe('api client cache', () => {
  it('serves a cached GET by full URL until its namespace TTL passes', async () => {
    let now = 1_000_000;
    const storage = new MemoryStorage();
    const fetchImpl = vi.fn(async () => json(200, [{ id: now }]));
    const client = createApiClient({
      fetch: fetchImpl as unknown as typeof fetch,
      storage: () => storage,
      cookies: () => '',
      events: () => undefined,
      now: () => now,
    });
    const first = await client.get('/api/inventory', {
      query: { page: 1 },
      cache: { namespace: 'inventory' },
    });
    now += 29 * 60 * 1000;
    expect(
      await client.get('/api/inventory', { query: { page: 1 }, cache: { namespace: 'inventory' } }),
    ).toEqual(first);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await client.get('/api/inventory', { query: { page: 2 }, cache: { namespace: 'inventory' } });
    expect(fetchImpl).toHaveBeenCalledTimes(2); // another URL, another entry
    now += 60 * 1000 + 1; // past 30 min
    await client.get('/api/inventory', { query: { page: 1 }, cache: { namespace: 'inventory' } });
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    expect([...storage.map.keys()].every((k) => k.startsWith('kaboodle:cache:inventory:'))).toBe(true);
  });

  it('does not cache failures or non-GET calls', async () => {
    const storage = new MemoryStorage();
    const fetchImpl = vi.fn(async () => json(500, {}));
    const client = createApiClient({
      fetch: fetchImpl as unknown as typeof fetch,
      storage: () => storage,
      cookies: () => '',
      events: () => undefined,
    });
    await caught(client.get('/api/documents', { cache: { namespace: 'documents' } }));
    expect(storage.length).toBe(0);
  });
});

describe('api client upload', () => {
  class FakeXhr implements UploadRequest {
    static instances: FakeXhr[] = [];
    withCredentials = false;
    timeout = 0;
    status = 0;
    responseText = '';
    headers: Record<string, string> = {};
    url = '';
    upload = { onprogress: null as UploadRequest['upload']['onprogress'] };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    constructor() {
      FakeXhr.instances.push(this);
    }
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(n: string, v: string) {
      this.headers[n] = v;
    }
    getResponseHeader() {
      return 'application/json';
    }
    send() {}
    abort() {
      this.onabort?.();
    }
    respond(status: number, body: unknown) {
      this.status = status;
      this.responseText = JSON.stringify(body);
      this.onload?.();
    }
  }

  it('reports progress only when the length is known and maps a failed status', async () => {
    FakeXhr.instances = [];
    const client = createApiClient({
      storage: () => undefined,
      cookies: () => 'kaboodle_csrf=c1',
      events: () => undefined,
      createUploadRequest: () => new FakeXhr(),
    });
    const progress: number[] = [];
    const form = new FormData();
    const ok = client.upload('/upload', form, { onProgress: (p) => progress.push(p) });
    const xhr = FakeXhr.instances[0]!;
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-Token': 'c1' });
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 5, total: 0 });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
    xhr.respond(200, { id: 'f1' });
    await expect(ok).resolves.toEqual({ id: 'f1' });
    expect(progress).toEqual([25]);

    const bad = client.upload('/upload', form);
    FakeXhr.instances[1]!.respond(413, { message: 'too big' });
    expect(await caught(bad)).toMatchObject({ status: 413, message: 'Upload failed with status: 413' });

    const controller = new AbortController();
    const cancelled = client.upload('/upload', form, { signal: controller.signal });
    controller.abort();
    expect(await caught(cancelled)).toMatchObject({ kind: 'aborted' });
  });
});
