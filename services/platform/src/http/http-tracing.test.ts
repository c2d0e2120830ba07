// The HTTP kit's telemetry: the request-duration histogram on /metrics, and a server span per request
// (route templates, probes left out, trace context continued across hops and never leaked between requests).
import http from 'node:http';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { Router } from 'express';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../errors.ts';
import { currentTraceId, injectTraceHeaders } from '../telemetry/trace-context.ts';
import { useHttpTestKit, apiRouter } from './http-test-kit.ts';

const { spans, start } = useHttpTestKit();

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
