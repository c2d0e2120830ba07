import http from 'node:http';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import express, { Router } from 'express';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InputError, NotFoundError, RateLimitError, UnavailableError } from '../errors.ts';
import { createLogger } from '../log/logger.ts';
import type { HealthCheck } from '../module.ts';
import { startTelemetry } from '../telemetry/telemetry.ts';
import type { Telemetry } from '../telemetry/telemetry.ts';
import { currentTraceId, injectTraceHeaders } from '../telemetry/trace-context.ts';
import { createHttpServer } from './http-server.ts';
import type { HttpServer, HttpServerOptions } from './http-server.ts';
import { listen } from './listen.ts';
import type { RunningServer } from './listen.ts';

const spans = new InMemorySpanExporter();
let telemetry: Telemetry;
beforeAll(() => {
  telemetry = startTelemetry({
    serviceName: 'http-kit-test',
    spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
  });
});
afterAll(async () => {
  await telemetry.shutdown();
});

type LogLine = Record<string, unknown> & { msg: string };

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close(1000)));
  spans.reset();
});

/** An HTTP kit on a random port, with its log lines captured. */
async function start(options: Partial<HttpServerOptions> = {}, setup?: (kit: HttpServer) => void) {
  const logs: LogLine[] = [];
  const logger = createLogger({
    component: 'test',
    level: 'debug',
    destination: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) },
  });
  const kit = createHttpServer({ logger, ...options });
  setup?.(kit);
  const server = await listen(kit.app, 0, '127.0.0.1');
  running.push(server);
  return { kit, server, logs, url: server.url };
}

function apiRouter(): Router {
  const r = Router();
  r.get('/api/things/:id', (req, res) => {
    req.log.info({ thing: req.params.id }, 'loading thing');
    if (req.params.id === 'missing') throw new NotFoundError('Thing not found');
    res.json({ id: req.params.id, traceId: currentTraceId() });
  });
  r.post('/api/things', express.json({ limit: 1024 }), (req, res) => {
    if (typeof req.body?.name !== 'string') throw new InputError('name is required');
    res.status(201).json({ name: req.body.name });
  });
  r.get('/api/explode', async () => {
    await Promise.resolve();
    throw new Error('connecting to 10.1.2.3:5432 as admin:hunter2 failed');
  });
  r.get('/api/limited', () => {
    throw new RateLimitError('Too many attempts, try again later', 30);
  });
  r.get('/api/unavailable', () => {
    throw new UnavailableError('kafka broker 10.0.0.9 is down');
  });
  return r;
}

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
    expect((logged!.err as { stack: string }).stack).toContain('http-server.test.ts');
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

describe('/metrics', () => {
  it('serves the request-duration histogram by route template and status as Prometheus text', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const scrape = async (): Promise<string> => {
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      return res.text();
    };
    const count = (text: string, route: string, status: number): number => {
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('http_server_request_duration_count{') &&
            l.includes(`http_route="${route}"`) &&
            l.includes(`http_response_status_code="${status}"`),
        );
      return line ? Number(line.split(' ').pop()) : 0;
    };
    // Counters are cumulative for the process (other tests share it): compare before and after.
    const before = await scrape();
    await fetch(`${url}/api/things/1`);
    await fetch(`${url}/api/things/2`);
    await fetch(`${url}/api/things/missing`);
    await fetch(`${url}/api/nowhere/123`);
    const text = await scrape();
    expect(text).toContain('# TYPE http_server_request_duration histogram');
    expect(count(text, '/api/things/:id', 200) - count(before, '/api/things/:id', 200)).toBe(2);
    expect(count(text, '/api/things/:id', 404) - count(before, '/api/things/:id', 404)).toBe(1);
    expect(count(text, 'unmatched', 404) - count(before, 'unmatched', 404)).toBe(1);
    expect(text).toMatch(/http_server_request_duration_bucket\{[^}]*le="0\.005"/);
    // Raw ids never become labels (unbounded cardinality).
    expect(text).not.toContain('/api/nowhere/123');
    expect(text).not.toContain('/api/things/1"');
  });
});

describe('tracing', () => {
  it('opens a server span per request named by route, with route and status', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    await fetch(`${url}/api/things/7`);
    await fetch(`${url}/api/explode`);
    const [ok, failed] = spans.getFinishedSpans();
    expect(ok!.name).toBe('GET /api/things/:id');
    expect(ok!.kind).toBe(SpanKind.SERVER);
    expect(ok!.attributes).toMatchObject({
      'http.route': '/api/things/:id',
      'http.response.status_code': 200,
    });
    expect(failed!.attributes['http.response.status_code']).toBe(500);
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('names the full route template of a router mounted under a prefix', async () => {
    const inner = Router()
      .post('/sessions/:sessionId/refresh', (_req, res) => void res.status(204).end())
      .get('/sessions/:sessionId', async () => {
        await Promise.resolve();
        throw new NotFoundError('Session not found');
      });
    const { url } = await start({ routers: [Router().use('/api/auth', inner)] });
    expect((await fetch(`${url}/api/auth/sessions/s-1/refresh`, { method: 'POST' })).status).toBe(204);
    // An error leaving the nested router must not lose the prefix.
    expect((await fetch(`${url}/api/auth/sessions/s-1`)).status).toBe(404);
    const [ok, failed] = spans.getFinishedSpans();
    expect(ok!.name).toBe('POST /api/auth/sessions/:sessionId/refresh');
    expect(ok!.attributes['http.route']).toBe('/api/auth/sessions/:sessionId/refresh');
    expect(failed!.name).toBe('GET /api/auth/sessions/:sessionId');
  });

  it('does not trace probes', async () => {
    const { url } = await start();
    await fetch(`${url}/healthz`);
    await fetch(`${url}/readyz`);
    expect(spans.getFinishedSpans()).toEqual([]);
  });

  it('continues an incoming traceparent and puts its trace id on the handler’s log lines', async () => {
    const { url, logs } = await start({ routers: [apiRouter()] });
    const res = await fetch(`${url}/api/things/1`, {
      headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
    expect(((await res.json()) as { traceId: string }).traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    const [span] = spans.getFinishedSpans();
    expect(span!.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    const handlerLine = logs.find((l) => l.msg === 'loading thing');
    expect(handlerLine).toMatchObject({
      trace_id: '0af7651916cd43dd8448eb211c80319c',
      span_id: span!.spanContext().spanId,
    });
    expect(logs.find((l) => l.msg === 'request completed')).toMatchObject({
      trace_id: '0af7651916cd43dd8448eb211c80319c',
    });
  });

  it('propagates trace context through an HTTP hop between two apps', async () => {
    // Back end: reports the trace it runs in.
    const back = await start({
      routers: [
        Router().get(
          '/api/back',
          (req, res) => void res.json({ traceId: currentTraceId(), traceparent: req.get('traceparent') }),
        ),
      ],
    });
    // Front end: calls the back end with the active context injected.
    const front = await start({
      routers: [
        Router().get('/api/front', async (_req, res) => {
          const answer = await fetch(`${back.url}/api/back`, { headers: injectTraceHeaders({}) });
          res.json({ front: currentTraceId(), back: await answer.json() });
        }),
      ],
    });

    const res = await fetch(`${front.url}/api/front`);
    const body = (await res.json()) as { front: string; back: { traceId: string; traceparent: string } };
    expect(body.front).toMatch(/^[0-9a-f]{32}$/);
    expect(body.back.traceId).toBe(body.front);

    const finished = spans.getFinishedSpans();
    const frontSpan = finished.find((s) => s.name === 'GET /api/front')!;
    const backSpan = finished.find((s) => s.name === 'GET /api/back')!;
    expect(backSpan.spanContext().traceId).toBe(frontSpan.spanContext().traceId);
    expect(backSpan.parentSpanContext?.spanId).toBe(frontSpan.spanContext().spanId);
    expect(body.back.traceparent).toBe(
      `00-${frontSpan.spanContext().traceId}-${frontSpan.spanContext().spanId}-01`,
    );
    expect(frontSpan.parentSpanContext).toBeUndefined();
  });

  it('does not leak one request’s context into the next on a kept-alive connection', async () => {
    const { url } = await start({ routers: [apiRouter()] });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const get = (headers: Record<string, string>) =>
        new Promise<string>((resolve, reject) => {
          http
            .get(`${url}/api/things/1`, { agent, headers }, (res) => {
              let data = '';
              res.on('data', (c: Buffer) => (data += c.toString()));
              res.on('end', () => resolve((JSON.parse(data) as { traceId: string }).traceId));
            })
            .on('error', reject);
        });
      const first = await get({ traceparent: '00-11111111111111111111111111111111-2222222222222222-01' });
      const second = await get({});
      expect(first).toBe('11111111111111111111111111111111');
      expect(second).not.toBe(first);
    } finally {
      agent.destroy();
    }
  });
});

describe('listen and graceful close', () => {
  it('binds a free port when asked for 0 and reports its URL', async () => {
    const { server } = await start();
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.server.keepAliveTimeout).toBe(65_000);
    expect(server.server.headersTimeout).toBeGreaterThan(65_000);
  });

  it('says which address is in use', async () => {
    const { server } = await start();
    const { app } = createHttpServer({ logger: createLogger({ component: 't', level: 'silent' }) });
    await expect(listen(app, server.port, '127.0.0.1')).rejects.toThrow(
      `listening on 127.0.0.1:${server.port}: address already in use`,
    );
  });

  it('rejects an invalid port', async () => {
    const { app } = createHttpServer({ logger: createLogger({ component: 't', level: 'silent' }) });
    await expect(listen(app, 70000)).rejects.toThrow(/port must be an integer between 0 and 65535/);
  });

  it('answers /readyz 503 while draining, before it stops accepting', async () => {
    const logger = createLogger({ component: 't', level: 'silent' });
    const { app } = createHttpServer({ logger });
    const server = await listen(app, 0, '127.0.0.1', { drainDelayMs: 300 });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const closing = server.close();
    const res = await fetch(`${server.url}/readyz`, { headers: { connection: 'close' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'shutting down' });
    expect((await fetch(`${server.url}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
    await closing;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('finishes in-flight requests, then refuses new connections', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const slow = Router().get('/api/slow', async (_req, res) => {
      entered();
      await gate;
      res.json({ done: true });
    });
    const { url, server } = await start({ routers: [slow] });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const inflight = fetch(`${url}/api/slow`);
      await inside;
      const closing = server.close(5000);
      let closed = false;
      void closing.then(() => (closed = true));

      await new Promise((r) => setTimeout(r, 50));
      expect(closed).toBe(false);
      release();
      const res = await inflight;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ done: true });
      await closing;
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      agent.destroy();
    }
  });

  it('closes idle keep-alive connections instead of waiting for their timeout', async () => {
    const { url, server } = await start();
    const agent = new http.Agent({ keepAlive: true });
    try {
      await new Promise<void>((resolve, reject) => {
        http.get(`${url}/healthz`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
      });
      const started = performance.now();
      await server.close(10_000);
      // Node's keep-alive timeout is 5 s; a graceful close must not wait for it.
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      agent.destroy();
    }
  });

  it('cuts requests still running at the deadline', async () => {
    const never = Router().get('/api/never', () => new Promise<void>(() => undefined));
    const { url, server } = await start({ routers: [never] });
    const request = fetch(`${url}/api/never`).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    await server.close(100);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(2000);
    expect(await request).toBeInstanceOf(Error);
  });
});
