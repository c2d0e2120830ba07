// The HTTP kit (createHttpServer): request ids, errors mapped once at the edge (no internals on 5xx),
// the request log, and /healthz and /readyz. Metrics and tracing: http-tracing.test.ts; listen: listen.test.ts.
import { Router } from 'express';
import { beforeEach, describe, expect, it } from 'vitest';
import type { HealthCheck } from '../module.ts';
import { useHttpTestKit, apiRouter } from './http-test-kit.ts';

const { start } = useHttpTestKit();

describe('request ids', () => {
  it('generates one when the caller sends none, and returns it in X-Request-Id', async () => {
    const { url, logs } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/things/1`);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const other = await fetch(`${url}/api/things/1`);
    expect(other.headers.get('x-request-id')).not.toBe(id);
    expect(logs.filter((l) => l.request_id === id).map((l) => l.msg)).toEqual([
      'loading thing',
      'request completed',
    ]);
  });

  it('keeps a valid incoming id', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/things/1`, { headers: { 'X-Request-Id': 'edge-7f3a:01' } });
    expect(res.headers.get('x-request-id')).toBe('edge-7f3a:01');
  });

  it.each(['has spaces', 'x'.repeat(129), '<script>', 'a"b'])(
    'replaces an invalid incoming id %j',
    async (bad) => {
      const { url, logs } = await start({ routers: [apiRouter()] });
      const res = await fetch(`${url}/api/things/1`, { headers: { 'X-Request-Id': bad } });
      const id = res.headers.get('x-request-id');
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(logs)).not.toContain(bad);
    },
  );

  it('puts the request id in error bodies', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/things/missing`, { headers: { 'X-Request-Id': 'req-404' } });
    expect(await res.json()).toMatchObject({ requestId: 'req-404' });
  });
});

describe('errors', () => {
  it('maps a domain error to its status and the JSON shape the client reads', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/things/missing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toMatchObject({
      error: 'Thing not found',
      message: 'Thing not found',
      code: 'NotFoundError',
    });
  });

  it('answers an unexpected error with a generic 500 and logs the real one with the request id', async () => {
    const { url, logs } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/explode`, { headers: { 'X-Request-Id': 'req-500' } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: 'Internal server error',
      message: 'Internal server error',
      code: 'InternalError',
      requestId: 'req-500',
    });
    expect(text).not.toMatch(/hunter2|10\.1\.2\.3|at |explode/);
    const logged = logs.find((l) => l.msg === 'request failed with an unexpected error');
    expect(logged).toMatchObject({ level: 'error', request_id: 'req-500', component: 'http' });
    expect((logged!.err as { message: string; stack: string }).message).toContain('hunter2');
    expect((logged!.err as { stack: string }).stack).toContain('http-test-kit.ts'); // where apiRouter threw
  });

  it('keeps a 503’s cause out of the response', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/unavailable`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      message: 'Service temporarily unavailable',
      code: 'UnavailableError',
    });
  });

  it('sets Retry-After on RateLimitError', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/limited`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.json()).toMatchObject({
      code: 'RateLimitError',
      message: 'Too many attempts, try again later',
    });
  });

  it('answers invalid JSON with 400 and parses valid JSON', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const bad = await fetch(`${url}/api/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: 'Invalid JSON in request body', code: 'InputError' });
    const good = await fetch(`${url}/api/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'lamp' }),
    });
    expect(good.status).toBe(201);
    expect(await good.json()).toEqual({ name: 'lamp' });
  });

  it('refuses a JSON body over the limit with 413', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      code: 'TooLargeError',
      message: 'Request body is too large (limit 1024 bytes)',
    });
  });

  it('answers an unknown route with a JSON 404, also for other methods', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/nothing-here?token=abc`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      code: 'NotFoundError',
      message: 'No route for GET /api/nothing-here',
    });
    const del = await fetch(`${url}/api/things/1`, { method: 'DELETE' });
    expect(del.status).toBe(404);
    expect(await del.json()).toMatchObject({ message: 'No route for DELETE /api/things/1' });
  });

  it('serves routers mounted after creation, before the 404 handler', async () => {
    const late = Router().get('/api/late', (_req, res) => void res.json({ late: true }));
    const { url } = await start({}, (kit) => kit.mount(late));
    const res = await fetch(`${url}/api/late`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ late: true });
  });
});

describe('request log', () => {
  it('writes one line per request without query, body, cookies or auth headers', async () => {
    const { url, logs } = await start({ routers: [apiRouter()] });
    await fetch(`${url}/api/things?token=sekret`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: 'sid=cookie-value',
        authorization: 'Bearer bearer-value',
      },
      body: JSON.stringify({ name: 'body-value' }),
    });
    const lines = logs.filter((l) => l.msg === 'request completed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      component: 'http',
      req: { method: 'POST', path: '/api/things', route: '/api/things' },
      res: { statusCode: 201 },
    });
    expect(typeof lines[0]!.duration_ms).toBe('number');
    expect(JSON.stringify(logs)).not.toMatch(/sekret|cookie-value|bearer-value|body-value/);
  });

  it('logs probes at debug level', async () => {
    const { url, logs } = await start();
    await fetch(`${url}/healthz`);
    expect(logs.find((l) => (l.req as { path: string }).path === '/healthz')).toMatchObject({
      level: 'debug',
    });
  });
});

describe('/healthz and /readyz', () => {
  let healthy = true;
  const flaky: HealthCheck = {
    name: 'database',
    check: async () => {
      if (!healthy) throw new Error('connection refused');
    },
  };
  beforeEach(() => {
    healthy = true;
  });

  it('/healthz answers while the process is up, whatever the dependencies', async () => {
    healthy = false;
    const { url } = await start({ checks: [flaky] });
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it('/readyz is 200 with each check’s status when all pass', async () => {
    const { url } = await start({ checks: [flaky, { name: 'blob-store', check: async () => undefined }] });
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; checks: { name: string; status: string }[] };
    expect(body.status).toBe('ready');
    expect(body.checks.map((c) => [c.name, c.status])).toEqual([
      ['database', 'ok'],
      ['blob-store', 'ok'],
    ]);
  });

  it('/readyz flips to 503 naming the failed check and why, and back when it recovers', async () => {
    const { url } = await start({ checks: [flaky, { name: 'blob-store', check: async () => undefined }] });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    healthy = false;
    const down = await fetch(`${url}/readyz`);
    expect(down.status).toBe(503);
    const body = (await down.json()) as {
      status: string;
      failed: string[];
      checks: { name: string; status: string }[];
    };
    expect(body.status).toBe('not ready');
    expect(body.failed).toEqual(['database: connection refused']);
    expect(body.checks.find((c) => c.name === 'blob-store')?.status).toBe('ok');

    healthy = true;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });

  it('/readyz stays 200 while a non-critical dependency fails, reporting it degraded', async () => {
    const broker: HealthCheck = {
      name: 'event-bus.kafka',
      critical: false,
      check: async () => {
        if (!healthy) throw new Error('broker unreachable');
      },
    };
    const { url } = await start({ checks: [{ name: 'database', check: async () => undefined }, broker] });
    healthy = false;
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; checks: { name: string; status: string }[] };
    expect(body.status).toBe('ready');
    expect(body.checks.map((c) => [c.name, c.status])).toEqual([
      ['database', 'ok'],
      ['event-bus.kafka', 'degraded'],
    ]);
  });

  it('/readyz fails a check that does not answer within the timeout', async () => {
    const hang: HealthCheck = { name: 'event-bus', check: () => new Promise(() => undefined) };
    const { url } = await start({ checks: [hang], readyTimeoutMs: 50 });
    const started = performance.now();
    const res = await fetch(`${url}/readyz`);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ failed: ['event-bus: timed out after 50ms'] });
  });

  it('/readyz counts a check that throws synchronously as failed', async () => {
    const broken = {
      name: 'broken',
      check: () => {
        throw new Error('not configured');
      },
    } as unknown as HealthCheck;
    const { url } = await start({ checks: [broken] });
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ failed: ['broken: not configured'] });
  });

  it('includes checks added after creation, and refuses a duplicate name', async () => {
    const { url, kit } = await start();
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    kit.addChecks({ name: 'search-index', check: async () => Promise.reject(new Error('index locked')) });
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    expect(() => kit.addChecks({ name: 'search-index', check: async () => undefined })).toThrow(
      /already registered/,
    );
    expect((await kit.readiness()).ready).toBe(false);
  });
});
