// OpenTelemetry propagation over gRPC metadata: the W3C `traceparent`/`tracestate` (and baggage)
// travel as ordinary metadata entries, read and written by the globally registered propagator.
import { context, propagation } from '@opentelemetry/api';
import type { Context, TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import type { Metadata } from '@grpc/grpc-js';

const metadataGetter: TextMapGetter<Metadata> = {
  keys: (carrier) => Object.keys(carrier.getMap()),
  get(carrier, key) {
    const values = carrier.get(key).filter((v): v is string => typeof v === 'string');
    if (values.length === 0) return undefined;
    return values.length === 1 ? values[0] : values;
  },
};

const metadataSetter: TextMapSetter<Metadata> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

/** Write the active (or given) context's trace headers into gRPC metadata. */
export function injectTraceMetadata(metadata: Metadata, ctx: Context = context.active()): Metadata {
  propagation.inject(ctx, metadata, metadataSetter);
  return metadata;
}

/** The trace context carried by incoming gRPC metadata, on top of `base` (default: the active context). */
export function extractTraceMetadata(metadata: Metadata, base: Context = context.active()): Context {
  return propagation.extract(base, metadata, metadataGetter);
}
