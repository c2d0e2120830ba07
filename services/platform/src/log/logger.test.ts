import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelemetry } from '../telemetry/telemetry.ts';
import type { Telemetry } from '../telemetry/telemetry.ts';
import { withSpan } from '../telemetry/trace-context.ts';
import { childLogger, createLogger } from './logger.ts';
import type { CreateLoggerOptions } from './logger.ts';

/** A logger writing to memory; returns it with the raw lines and their parsed form. */
function capture(options: Partial<CreateLoggerOptions> = {}) {
  const raw: string[] = [];
  const logger = createLogger({
    component: 'test',
    destination: { write: (line: string) => void raw.push(line) },
    ...options,
  });
  return { logger, raw, lines: () => raw.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

let telemetry: Telemetry;
beforeAll(() => {
  telemetry = startTelemetry({ serviceName: 'logger-test' });
});
afterAll(async () => {
  await telemetry.shutdown();
});

describe('createLogger', () => {
  it('writes one JSON object per line with msg, component, level name and time', () => {
    const { logger, raw, lines } = capture();
    logger.info({ files: 3 }, 'indexed files');
    expect(raw).toHaveLength(1);
    expect(raw[0]!.endsWith('\n')).toBe(true);
    expect(lines()[0]).toMatchObject({ level: 'info', component: 'test', msg: 'indexed files', files: 3 });
    expect(Date.parse(lines()[0]!.time as string)).not.toBeNaN();
  });

  it('respects the level', () => {
    const { logger, lines } = capture({ level: 'warn' });
    logger.info('hidden');
    logger.warn('shown');
    expect(lines().map((l) => l.msg)).toEqual(['shown']);
  });

  it('serialises errors under err with type, message and stack', () => {
    const { logger, lines } = capture();
    const cause = new Error('connection refused');
    logger.error({ err: new Error('loading documents: connection refused', { cause }) }, 'request failed');
    const err = lines()[0]!.err as Record<string, unknown>;
    expect(err.type).toBe('Error');
    expect(err.message).toContain('loading documents: connection refused');
    expect(String(err.stack)).toContain('logger.test.ts');
  });

  it('has no trace fields outside a span', () => {
    const { logger, lines } = capture();
    logger.info('no span');
    expect(lines()[0]).not.toHaveProperty('trace_id');
    expect(lines()[0]).not.toHaveProperty('span_id');
  });

  it('adds the active span’s trace and span ids to every line inside it', async () => {
    const { logger, lines } = capture();
    const ids = await withSpan('outer', async (span) => {
      logger.info('in outer');
      await new Promise((r) => setTimeout(r, 5)); // context survives an await
      logger.info('after await');
      return span.spanContext();
    });
    const [first, second] = lines();
    expect(first).toMatchObject({ trace_id: ids.traceId, span_id: ids.spanId, trace_flags: '01' });
    expect(second).toMatchObject({ trace_id: ids.traceId, span_id: ids.spanId });
    expect(ids.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('redacts credentials wherever a caller logs them', () => {
    const { logger, raw } = capture();
    logger.info(
      {
        password: 'hunter2',
        user: { token: 'tok-1' },
        req: { headers: { authorization: 'Bearer abc', cookie: 'sid=1' } },
      },
      'careless',
    );
    expect(raw[0]).not.toMatch(/hunter2|tok-1|Bearer abc|sid=1/);
    expect(raw[0]).toContain('[redacted]');
  });

  it('refuses a logger without a component', () => {
    expect(() => createLogger({ component: '' })).toThrow(/component is required/);
  });

  it('writes plain JSON when pretty output is turned off', () => {
    const { logger, raw } = capture({ pretty: false });
    logger.info('plain');
    expect(() => JSON.parse(raw[0]!)).not.toThrow();
  });
});

describe('childLogger', () => {
  it('replaces the component without printing the key twice and keeps other bindings', () => {
    const { logger, raw, lines } = capture();
    const request = logger.child({ request_id: 'r-1' });
    const http = childLogger(request, 'http');
    http.info('served');
    expect(raw[0]!.match(/"component"/g)).toHaveLength(1);
    expect(lines()[0]).toMatchObject({ component: 'http', request_id: 'r-1', msg: 'served' });
  });

  it('keeps the parent’s current level', () => {
    const { logger, lines } = capture();
    logger.level = 'error';
    const child = childLogger(logger, 'quiet');
    child.warn('dropped');
    child.error('kept');
    expect(lines().map((l) => l.msg)).toEqual(['kept']);
  });

  it('adds extra bindings', () => {
    const { logger, lines } = capture();
    childLogger(logger, 'search.indexer', { group: 'search' }).info('x');
    expect(lines()[0]).toMatchObject({ component: 'search.indexer', group: 'search' });
  });
});
