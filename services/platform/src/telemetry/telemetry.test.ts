import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, metrics, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { getTelemetry, shutdownTelemetry, startTelemetry } from './telemetry.ts';
import { currentTraceId, extractTraceContext, injectTraceHeaders, withSpan } from './trace-context.ts';

afterEach(async () => {
  await shutdownTelemetry();
});

function memorySpans() {
  const exporter = new InMemorySpanExporter();
  return { exporter, processor: new SimpleSpanProcessor({ exporter }) };
}

describe('startTelemetry', () => {
  it('is idempotent: a second call returns the running instance', () => {
    const first = startTelemetry({ serviceName: 'one' });
    const second = startTelemetry({ serviceName: 'two' });
    expect(second).toBe(first);
    expect(getTelemetry()).toBe(first);
    expect(first.options.serviceName).toBe('one');
  });

  it('registers the SDK providers and the W3C propagator globally', () => {
    const t = startTelemetry({ serviceName: 'globals' });
    expect(propagation.fields()).toEqual(expect.arrayContaining(['traceparent', 'tracestate', 'baggage']));
    const span = trace.getTracer('x').startSpan('s');
    expect(span.isRecording()).toBe(true);
    span.end();
    expect(metrics.getMeterProvider()).toBe(t.meterProvider);
  });

  it('can start again after shutdown, and shutdown twice is harmless', async () => {
    const first = startTelemetry({ serviceName: 'a' });
    await first.shutdown();
    await first.shutdown();
    expect(getTelemetry()).toBeUndefined();
    const span = trace.getTracer('x').startSpan('after shutdown');
    expect(span.isRecording()).toBe(false);
    span.end();
    const second = startTelemetry({ serviceName: 'b' });
    expect(second).not.toBe(first);
    expect(trace.getTracer('x').startSpan('again').isRecording()).toBe(true);
  });

  it('refuses an empty service name', () => {
    expect(() => startTelemetry({ serviceName: '' })).toThrow(/serviceName is required/);
  });

  it('exports spans over OTLP/HTTP only when an endpoint is configured', async () => {
    const received: { path: string; body: string }[] = [];
    const collector = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('latin1')));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    try {
      const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/`;
      const t = startTelemetry({ serviceName: 'otlp-test', otlpEndpoint: endpoint });
      await withSpan('exported-span', () => 'ok');
      await t.tracerProvider.forceFlush();
      const traces = received.filter((r) => r.path === '/v1/traces');
      expect(traces).toHaveLength(1);
      expect(traces[0]!.body).toContain('exported-span');
      expect(traces[0]!.body).toContain('otlp-test');
      await t.shutdown();

      // Without an endpoint nothing leaves the process.
      received.length = 0;
      const quiet = startTelemetry({ serviceName: 'quiet' });
      await withSpan('kept-local', () => 'ok');
      await quiet.tracerProvider.forceFlush();
      expect(received).toEqual([]);
    } finally {
      await new Promise((r) => collector.close(r));
    }
  });

  it('serves metrics as Prometheus text', async () => {
    const t = startTelemetry({ serviceName: 'prom' });
    metrics
      .getMeter('test')
      .createCounter('kaboodle.test.things', { description: 'Things counted' })
      .add(3, { kind: 'a' });
    const server = http.createServer((req, res) => t.metricsHandler(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toContain('# TYPE kaboodle_test_things_total counter');
      expect(text).toMatch(/^kaboodle_test_things_total\{[^}]*kind="a"[^}]*\} 3$/m);
      expect(text).toContain('target_info{service_name="prom"');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('resource and sampling from the environment (as the Helm chart sets it)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of ['OTEL_RESOURCE_ATTRIBUTES', 'OTEL_TRACES_SAMPLER', 'OTEL_TRACES_SAMPLER_ARG'])
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
  });

  it('labels every metric and span with the pod, namespace and node from OTEL_RESOURCE_ATTRIBUTES', async () => {
    process.env.OTEL_RESOURCE_ATTRIBUTES =
      'k8s.pod.name=kb-kaboodle-search-7d9f,k8s.namespace.name=kaboodle,k8s.node.name=node%2D1';
    const { exporter, processor } = memorySpans();
    const t = startTelemetry({ serviceName: 'kaboodle-search', spanProcessors: [processor] });
    await withSpan('op', () => undefined);
    expect(exporter.getFinishedSpans()[0]!.resource.attributes).toMatchObject({
      'service.name': 'kaboodle-search',
      'k8s.pod.name': 'kb-kaboodle-search-7d9f',
      'k8s.namespace.name': 'kaboodle',
      'k8s.node.name': 'node-1',
    });
    const server = http.createServer((req, res) => t.metricsHandler(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const text = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)).text();
      expect(text).toMatch(/target_info\{[^}]*k8s_pod_name="kb-kaboodle-search-7d9f"/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('samples as OTEL_TRACES_SAMPLER says, keeping a caller’s decision (parent-based)', async () => {
    process.env.OTEL_TRACES_SAMPLER = 'parentbased_traceidratio';
    process.env.OTEL_TRACES_SAMPLER_ARG = '0';
    const { exporter, processor } = memorySpans();
    startTelemetry({ serviceName: 'sampled', spanProcessors: [processor] });
    await withSpan('new trace', () => undefined);
    expect(exporter.getFinishedSpans()).toEqual([]);
    // A sampled parent (traceparent flags 01) is followed even at ratio 0.
    const parent = extractTraceContext({
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    await withSpan('continued', () => undefined, { parent });
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['continued']);
  });
});

describe('withSpan', () => {
  it('runs fn in an active child span and ends it', async () => {
    const { exporter, processor } = memorySpans();
    startTelemetry({ serviceName: 'spans', spanProcessors: [processor] });
    const result = await withSpan('parent', async (parent) => {
      const inner = await withSpan('child', async () => currentTraceId(), {
        attributes: { 'kaboodle.n': 1 },
      });
      expect(inner).toBe(parent.spanContext().traceId);
      return 42;
    });
    expect(result).toBe(42);
    const [child, parent] = exporter.getFinishedSpans();
    expect(child!.name).toBe('child');
    expect(child!.attributes['kaboodle.n']).toBe(1);
    expect(child!.parentSpanContext?.spanId).toBe(parent!.spanContext().spanId);
    expect(child!.spanContext().traceId).toBe(parent!.spanContext().traceId);
    expect(parent!.parentSpanContext).toBeUndefined();
  });

  it('records a thrown error on the span and rethrows it', async () => {
    const { exporter, processor } = memorySpans();
    startTelemetry({ serviceName: 'spans', spanProcessors: [processor] });
    await expect(
      withSpan('failing', () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    const [span] = exporter.getFinishedSpans();
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'disk full' });
    expect(span!.events.map((e) => e.name)).toContain('exception');
    expect(span!.ended).toBe(true);
  });

  it('uses an explicit parent and kind', async () => {
    const { exporter, processor } = memorySpans();
    startTelemetry({ serviceName: 'spans', spanProcessors: [processor] });
    const parent = extractTraceContext({
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    await withSpan('consume', () => undefined, { parent, kind: SpanKind.CONSUMER });
    const [span] = exporter.getFinishedSpans();
    expect(span!.kind).toBe(SpanKind.CONSUMER);
    expect(span!.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span!.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  });

  it('still runs fn when telemetry is not started (no-op spans)', async () => {
    expect(await withSpan('unstarted', () => 'ran')).toBe('ran');
  });
});

describe('trace headers', () => {
  it('inject writes the active span as traceparent; extract reads it back', async () => {
    startTelemetry({ serviceName: 'headers' });
    await withSpan('producer', async (span) => {
      const headers = injectTraceHeaders({ 'event-id': 'e-1' });
      const { traceId, spanId } = span.spanContext();
      expect(headers['event-id']).toBe('e-1');
      expect(headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);

      const remote = trace.getSpanContext(extractTraceContext(headers, context.active()));
      expect(remote).toMatchObject({ traceId, spanId, isRemote: true });
    });
  });

  it('extract accepts node header shapes: arrays and other letter case', () => {
    startTelemetry({ serviceName: 'headers' });
    const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(trace.getSpanContext(extractTraceContext({ traceparent: [tp] }))?.traceId).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(trace.getSpanContext(extractTraceContext({ Traceparent: tp }))?.spanId).toBe('00f067aa0ba902b7');
  });

  it('extract ignores a malformed traceparent', () => {
    startTelemetry({ serviceName: 'headers' });
    expect(trace.getSpanContext(extractTraceContext({ traceparent: '00-zz-01' }))).toBeUndefined();
  });

  it('inject writes nothing outside a span', () => {
    startTelemetry({ serviceName: 'headers' });
    expect(injectTraceHeaders({})).toEqual({});
  });
});
