// OpenTelemetry for one process: traces and metrics, W3C trace context registered globally (so HTTP,
// gRPC metadata and event headers all carry it), Prometheus text for /metrics, OTLP export only when a
// collector endpoint is configured. JS SDK v3 names: TracerProvider from @opentelemetry/sdk-trace
// (formerly sdk-trace-base's BasicTracerProvider), resourceFromAttributes from @opentelemetry/resources.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

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
    [ATTR_SERVICE_NAME]: options.serviceName,
    ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
  });
  const base = options.otlpEndpoint?.replace(/\/+$/, '');

  const spanProcessors: SpanProcessor[] = [...(options.spanProcessors ?? [])];
  if (base)
    spanProcessors.push(
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${base}/v1/traces` }) }),
    );
  // With no processor spans are still created (ids for logs and propagation), just not exported.
  const tracerProvider = new TracerProvider({ resource, spanProcessors });

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
  const meterProvider = new MeterProvider({ resource, readers });

  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);

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
        const results = await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
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
