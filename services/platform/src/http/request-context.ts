// Per-request plumbing that runs before any route: a validated request id, the server span (continuing
// an incoming traceparent), the request-duration histogram and one log line per request.
import { randomUUID } from 'node:crypto';
import { context, metrics, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Histogram, MeterProvider } from '@opentelemetry/api';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../log/logger.ts';
import { extractTraceContext, TRACER_NAME } from '../telemetry/trace-context.ts';
import { httpSpansByInstrumentation } from '../telemetry/instrumentations.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request id (X-Request-Id): the caller's when valid, else generated. */
    id: string;
    /** Logger bound to this request (request_id; trace ids come from the active span). */
    log: Logger;
  }
}

export const REQUEST_ID_HEADER = 'X-Request-Id';

// Caller-supplied ids end up in logs and response headers: accept only short, plain tokens.
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID_PATTERN.test(value);
}

/** Probes hit every few seconds: no spans for them and their log lines go to debug. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Seconds, per OpenTelemetry HTTP semantic conventions (exported as http_server_request_duration). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

// The global meter provider changes when telemetry starts or restarts; instruments follow it.
const histograms = new WeakMap<MeterProvider, Histogram>();
function durationHistogram(): Histogram {
  const provider = metrics.getMeterProvider();
  let h = histograms.get(provider);
  if (!h) {
    h = provider.getMeter(TRACER_NAME).createHistogram('http.server.request.duration', {
      description: 'Duration of HTTP server requests',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    histograms.set(provider, h);
  }
  return h;
}

/**
 * Remember the full route template (`/api/auth/sessions/:id`) when Express matches a route. Read
 * later it would be wrong: once an error leaves a nested router, Express has already reset
 * req.baseUrl to the parent's while req.route still holds only the inner path. The router assigns
 * req.route at dispatch time, when baseUrl is right, so a setter on this request catches it.
 */
function trackRoute(req: Request): () => string | undefined {
  let value: unknown;
  let template: string | undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => value,
    set: (route: { path?: unknown } | undefined) => {
      value = route;
      if (route?.path !== undefined) template = `${req.baseUrl}${String(route.path)}` || '/';
    },
  });
  return () => template;
}

export function requestContext(logger: Logger): RequestHandler {
  // named: the route-coverage test tells the app's own middleware from routes by name
  return function requestContext(req, res, next) {
    const started = performance.now();
    const incoming = req.get(REQUEST_ID_HEADER);
    const id = isValidRequestId(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    req.log = logger.child({ request_id: id });
    const routeOf = trackRoute(req);

    const path = req.originalUrl.split('?', 1)[0] ?? '/';
    const probe = PROBE_PATHS.has(path);
    // With the HTTP auto-instrumentation the request's SERVER span is already active (continuing the
    // caller's trace): name it by route below instead of making a second one.
    const instrumented = !probe && httpSpansByInstrumentation() ? trace.getActiveSpan() : undefined;
    // Otherwise trace context comes only from the caller's headers, never from whatever was active before.
    const parent = instrumented ? context.active() : extractTraceContext(req.headers, ROOT_CONTEXT);
    const own =
      probe || instrumented
        ? undefined
        : // Looked up per request: a tracer taken before telemetry (re)starts would stay a no-op.
          trace.getTracer(TRACER_NAME).startSpan(
            req.method,
            {
              kind: SpanKind.SERVER,
              attributes: {
                'http.request.method': req.method,
                'url.path': path,
                'url.scheme': req.protocol,
                'http.request_id': id,
                ...(req.get('user-agent') ? { 'user_agent.original': req.get('user-agent') } : {}),
              },
            },
            parent,
          );
    instrumented?.setAttribute('http.request_id', id);
    const span = own ?? instrumented;
    const ctx = own ? trace.setSpan(parent, own) : parent;

    let finished = false;
    const done = context.bind(ctx, () => {
      if (finished) return;
      finished = true;
      const seconds = (performance.now() - started) / 1000;
      const aborted = !res.writableFinished;
      const status = res.statusCode;
      const route = routeOf();
      durationHistogram().record(seconds, {
        'http.request.method': req.method,
        'http.route': route ?? 'unmatched',
        'http.response.status_code': status,
      });
      if (span) {
        if (route) {
          span.updateName(`${req.method} ${route}`);
          span.setAttribute('http.route', route);
        }
        span.setAttribute('http.response.status_code', status);
        if (status >= 500 || aborted) {
          span.setStatus({
            code: SpanStatusCode.ERROR,
            ...(aborted ? { message: 'client closed the connection' } : {}),
          });
        }
        own?.end(); // the instrumentation ends its own
      }
      logRequest(req, res, { path, route, seconds, aborted, probe });
    });
    res.once('finish', done);
    res.once('close', done);
    context.with(ctx, next);
  };
}

function logRequest(
  req: Request,
  res: Response,
  info: { path: string; route: string | undefined; seconds: number; aborted: boolean; probe: boolean },
): void {
  const status = res.statusCode;
  // Method, path without query (queries can carry tokens), no headers, no bodies, no cookies.
  const fields = {
    req: { method: req.method, path: info.path, ...(info.route ? { route: info.route } : {}) },
    res: { statusCode: status },
    duration_ms: Math.round(info.seconds * 1000 * 10) / 10,
  };
  if (info.aborted) req.log.warn(fields, 'request aborted by the client');
  // A failing /readyz is news for the operator, not a fault of this request.
  else if (info.probe) req.log[status < 500 ? 'debug' : 'warn'](fields, 'request completed');
  else if (status >= 500) req.log.error(fields, 'request failed');
  else req.log.info(fields, 'request completed');
}
