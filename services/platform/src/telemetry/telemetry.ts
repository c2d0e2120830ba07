// OpenTelemetry for one process on @opentelemetry/sdk-node: traces and metrics, W3C trace context
// registered globally (so HTTP, gRPC metadata and event headers all carry it), Prometheus text for
// /metrics, OTLP export only when a collector endpoint is configured. The sampler follows
// OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (parent-based, always on by default), and the
// resource takes the pod's attributes from OTEL_RESOURCE_ATTRIBUTES (the Helm chart sets them from
// the downward API) plus the host and process detectors. With `instrument`, the auto-instrumentations
// of instrumentations.ts are registered too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import type { ProxyTracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import type { ReadableSpan, Sampler, Span, SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { kaboodleInstrumentations } from './instrumentations.ts';

export interface TelemetryOptions {
  /** service.name (OTEL_SERVICE_NAME). */
  serviceName: string;
  serviceVersion?: string;
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT), e.g. http://collector:4318; unset: no export. */
  otlpEndpoint?: string | undefined;
  /** How often metrics are pushed over OTLP (default 15 s). */
  metricExportIntervalMs?: number;
  /** Extra span processors, e.g. a SimpleSpanProcessor over an InMemorySpanExporter in tests. */
  spanProcessors?: SpanProcessor[];
  /** Register the auto-instrumentations (HTTP, express, pg, kafkajs, gRPC, fetch, runtime). */
  instrument?: boolean;
  /** Instead of OTEL_TRACES_SAMPLER from the environment. */
  sampler?: Sampler;
}

/**
 * OTEL_RESOURCE_ATTRIBUTES (`k8s.pod.name=x,k8s.namespace.name=y`, values percent-encoded), the
 * OpenTelemetry way to hand a process its resource: the chart fills it from the downward API.
 */
export function podAttributes(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    try {
      const value = decodeURIComponent(pair.slice(at + 1).trim());
      if (key && value) out[key] = value;
    } catch {
      // A malformed value is left out rather than failing the process.
    }
  }
  return out;
}

/** Keeps the SDK's tracer provider registered when nothing exports: spans still get ids (logs, propagation). */
class KeepSpans implements SpanProcessor {
  onStart(_span: Span): void {}
  onEnd(_span: ReadableSpan): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Telemetry {
  readonly options: Readonly<TelemetryOptions>;
  readonly tracerProvider: TracerProvider;
  readonly meterProvider: MeterProvider;
  /** Writes the current metrics as Prometheus text (content type text/plain; version=0.0.4). */
  metricsHandler(req: IncomingMessage, res: ServerResponse): void;
  /** Flush and stop exporters, unregister the globals; startTelemetry may be called again afterwards. */
  shutdown(): Promise<void>;
}

let active: Telemetry | undefined;

/** The running telemetry, if startTelemetry was called (the HTTP kit reads it for /metrics). */
export function getTelemetry(): Telemetry | undefined {
  return active;
}

/**
 * Start OpenTelemetry once per process. Idempotent: a second call returns the running instance
 * (its options are ignored), so several modules may call it safely.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  if (active) return active;
  if (!options.serviceName) throw new TypeError('startTelemetry: serviceName is required');

  const resource = resourceFromAttributes({
    ...podAttributes(process.env.OTEL_RESOURCE_ATTRIBUTES),
    'host.name': hostname(),
    'process.pid': process.pid,
    [ATTR_SERVICE_NAME]: options.serviceName,
    ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
  });
  const base = options.otlpEndpoint?.replace(/\/+$/, '');

  const spanProcessors: SpanProcessor[] = [...(options.spanProcessors ?? [])];
  if (base)
    spanProcessors.push(
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${base}/v1/traces` }) }),
    );
  if (spanProcessors.length === 0) spanProcessors.push(new KeepSpans());

  // The server serves /metrics itself, so the exporter never opens its own port.
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const readers: IMetricReader[] = [prometheus];
  if (base) {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${base}/v1/metrics` }),
        exportIntervalMillis: options.metricExportIntervalMs ?? 15_000,
      }),
    );
  }

  const sdk = new NodeSDK({
    resource,
    // The attributes above are known at once; detectors would make every span wait for theirs.
    autoDetectResources: false,
    // Named last, so no detector (which would say unknown_service) overrides it.
    serviceName: options.serviceName,
    spanProcessors,
    metricReaders: readers,
    // Logs go through pino (stdout); nothing is sent as OpenTelemetry logs.
    logRecordProcessors: [],
    instrumentations: options.instrument ? kaboodleInstrumentations() : [],
    contextManager: new AsyncLocalStorageContextManager(),
    textMapPropagator: new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
    ...(options.sampler && { sampler: options.sampler }),
  });
  sdk.start();
  const tracerProvider = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as TracerProvider;
  const meterProvider = metrics.getMeterProvider() as MeterProvider;

  let stopping: Promise<void> | undefined;
  const telemetry: Telemetry = {
    options: Object.freeze({ ...options }),
    tracerProvider,
    meterProvider,
    metricsHandler: (req, res) => prometheus.getMetricsRequestHandler(req, res),
    shutdown() {
      stopping ??= (async () => {
        if (active === telemetry) active = undefined;
        // Flush before unregistering so spans ended during shutdown still leave the process.
        const results = await Promise.allSettled([sdk.shutdown()]);
        trace.disable();
        metrics.disable();
        propagation.disable();
        context.disable();
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed)
          throw new Error(`shutting down telemetry: ${String(failed.reason)}`, { cause: failed.reason });
      })();
      return stopping;
    },
  };
  active = telemetry;
  return telemetry;
}

/** Stop the running telemetry, if any (safe to call when none is running). */
export async function shutdownTelemetry(): Promise<void> {
  await active?.shutdown();
}
