// Shared by the HTTP kit's tests (http-server, http-tracing, listen): an HTTP kit on a random port
// with its log lines captured, a router exercising errors and tracing, and an in-memory span exporter
// (telemetry started once per file; servers closed and spans cleared after each test).
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import express, { Router } from 'express';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { InputError, NotFoundError, RateLimitError, UnavailableError } from '../errors.ts';
import { createLogger } from '../log/logger.ts';
import { startTelemetry } from '../telemetry/telemetry.ts';
import type { Telemetry } from '../telemetry/telemetry.ts';
import { currentTraceId } from '../telemetry/trace-context.ts';
import { createHttpServer } from './http-server.ts';
import type { HttpServer, HttpServerOptions } from './http-server.ts';
import { listen } from './listen.ts';
import type { RunningServer } from './listen.ts';

export type LogLine = Record<string, unknown> & { msg: string };

/** Registers the file's hooks; returns the span exporter and a server starter. */
export function useHttpTestKit() {
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
  return { spans, start };
}

export function apiRouter(): Router {
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
