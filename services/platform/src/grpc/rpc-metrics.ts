// RPC duration histograms (OpenTelemetry RPC semantic conventions), served on /metrics as
// rpc_server_call_duration and rpc_client_call_duration (seconds; _bucket, _sum, _count).
import { metrics } from '@opentelemetry/api';
import type { Histogram, MeterProvider } from '@opentelemetry/api';
import { TRACER_NAME } from '../telemetry/index.ts';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

// The global meter provider changes when telemetry starts or restarts; instruments follow it.
const instruments = new WeakMap<MeterProvider, { server: Histogram; client: Histogram }>();

function histograms(): { server: Histogram; client: Histogram } {
  const provider = metrics.getMeterProvider();
  let h = instruments.get(provider);
  if (!h) {
    const meter = provider.getMeter(TRACER_NAME);
    const options = { unit: 's', advice: { explicitBucketBoundaries: BUCKETS } };
    h = {
      server: meter.createHistogram('rpc.server.call.duration', {
        ...options,
        description: 'Duration of gRPC calls served',
      }),
      client: meter.createHistogram('rpc.client.call.duration', {
        ...options,
        description: 'Duration of gRPC calls made, retries included',
      }),
    };
    instruments.set(provider, h);
  }
  return h;
}

export function recordRpcDuration(
  side: 'server' | 'client',
  seconds: number,
  attributes: { service: string; method: string; code: number },
): void {
  histograms()[side].record(seconds, {
    'rpc.system': 'grpc',
    'rpc.service': attributes.service,
    'rpc.method': attributes.method,
    'rpc.grpc.status_code': attributes.code,
  });
}
