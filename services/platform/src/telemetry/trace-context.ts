// Helpers over @opentelemetry/api that every transport uses: run code in a span, and carry trace
// context in string headers (HTTP, event headers; gRPC metadata via the same propagation API).
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span, TextMapGetter } from '@opentelemetry/api';

/** Instrumentation scope for spans the kit and services create. */
export const TRACER_NAME = 'kaboodle';

export interface WithSpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /** Parent context (e.g. from extractTraceContext); default: the active context. */
  parent?: Context;
}

/**
 * Run fn inside a new active span; the span ends when fn settles, and a thrown error is recorded
 * on it (status ERROR) before being rethrown.
 */
export function withSpan<T>(
  name: string,
  fn: (span: Span) => Promise<T> | T,
  options: WithSpanOptions = {},
): Promise<T> {
  const tracer = trace.getTracer(TRACER_NAME);
  const parent = options.parent ?? context.active();
  return tracer.startActiveSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      ...(options.attributes ? { attributes: options.attributes } : {}),
    },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        recordError(span, err);
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Mark a span failed with the error's message and an exception event. */
export function recordError(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

/**
 * Write the active (or given) context's trace headers (traceparent, tracestate, baggage) into
 * `headers` and return it. Without a running telemetry nothing is written.
 */
export function injectTraceHeaders<H extends Record<string, string> = Record<string, string>>(
  headers: H = {} as H,
  ctx: Context = context.active(),
): H & Record<string, string> {
  propagation.inject(ctx, headers);
  return headers;
}

type HeaderValue = string | string[] | number | undefined;

// Header names arrive lower-cased from node:http, but event headers and hand-built maps may not be.
const headerGetter: TextMapGetter<Readonly<Record<string, HeaderValue>>> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    let value = carrier[key];
    if (value === undefined) {
      const match = Object.keys(carrier).find((k) => k.toLowerCase() === key);
      value = match === undefined ? undefined : carrier[match];
    }
    return typeof value === 'number' ? String(value) : value;
  },
};

/**
 * The context carried by incoming headers (HTTP request headers, event headers), on top of the
 * active context; use it as `parent` of a span or with `context.with(ctx, fn)`.
 */
export function extractTraceContext(
  headers: Readonly<Record<string, HeaderValue>>,
  base: Context = context.active(),
): Context {
  return propagation.extract(base, headers, headerGetter);
}

/** The active trace id, or undefined outside a recorded span (e.g. for error bodies and audit rows). */
export function currentTraceId(): string | undefined {
  const sc = trace.getSpan(context.active())?.spanContext();
  return sc && trace.isSpanContextValid(sc) ? sc.traceId : undefined;
}
