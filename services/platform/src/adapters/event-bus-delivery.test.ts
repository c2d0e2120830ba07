// The delivery loop both EventBus adapters share: option checks, backoff clamping, the permit
// semaphore, and what happens to an outcome that is not one of the four.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ConsumeOutcome } from '../ports/event-bus.ts';
import {
  DLQ_HEADERS,
  abortableSleep,
  createSemaphore,
  deliver,
  normaliseSubscribeOptions,
  prepareOutgoing,
} from './event-bus-delivery.ts';
import type { DeliveryRecord } from './event-bus-delivery.ts';

const logger = pino({ level: 'silent' });
const handler = async (): Promise<ConsumeOutcome> => 'done';
const record: DeliveryRecord = {
  topic: 't',
  partition: 0,
  offset: '7',
  key: 'k',
  value: new Uint8Array([1]),
  headers: {},
};

describe('event bus delivery', () => {
  it('lists what is wrong with subscribe options', () => {
    const ok = { group: 'g', topics: ['t'], handler };
    expect(() => normaliseSubscribeOptions({ ...ok, group: '' })).toThrow(/group must be a non-empty string/);
    expect(() => normaliseSubscribeOptions({ ...ok, topics: [] })).toThrow(
      /topics must be a non-empty array/,
    );
    expect(() => normaliseSubscribeOptions({ ...ok, topics: ['a b'] })).toThrow(/"a b" is not a valid topic/);
    expect(() => normaliseSubscribeOptions({ ...ok, concurrency: 1.5 })).toThrow(/concurrency/);
    expect(() => normaliseSubscribeOptions({ ...ok, maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(normaliseSubscribeOptions({ ...ok, topics: ['t', 't'] }).topics).toEqual(['t']);
  });

  it('uses the default backoff schedule and clamps a broken backoff function', () => {
    const defaults = normaliseSubscribeOptions({ group: 'g', topics: ['t'], handler });
    expect([1, 2, 3, 20].map(defaults.backoffMs)).toEqual([200, 400, 800, 30_000]);
    const broken = normaliseSubscribeOptions({
      group: 'g',
      topics: ['t'],
      handler,
      backoffMs: (n) => (n === 1 ? -5 : NaN),
    });
    expect(broken.backoffMs(1)).toBe(0);
    expect(broken.backoffMs(2)).toBe(400); // NaN falls back to the default schedule
  });

  it('checks a publish whole and fills in the event id', () => {
    const [e] = prepareOutgoing([{ topic: 't', key: 'k', value: new Uint8Array(), headers: { a: 'b' } }]);
    expect(e!.headers['event-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(e!.headers.a).toBe('b');
    expect(() => prepareOutgoing('x' as unknown as [])).toThrow(/publish takes an array/);
    expect(() => prepareOutgoing([{ topic: 't', key: 'k', value: 'text' as unknown as Uint8Array }])).toThrow(
      /value must be a Uint8Array/,
    );
    expect(() =>
      prepareOutgoing([
        { topic: 't', key: 'k', value: new Uint8Array(), headers: { n: 1 as unknown as string } },
      ]),
    ).toThrow(/header n must be a string/);
  });

  it('semaphore hands permits over in order and lets an aborted waiter go', async () => {
    const sem = createSemaphore(1);
    const never = new AbortController().signal;
    expect(await sem.acquire(never)).toBe(true);
    const abort = new AbortController();
    const waiting = sem.acquire(abort.signal);
    abort.abort();
    expect(await waiting).toBe(false);
    const next = sem.acquire(never);
    sem.release();
    expect(await next).toBe(true);
  });

  it('abortableSleep ends early on abort and when keepAlive fails', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 20);
    const t0 = Date.now();
    expect(await abortableSleep(5_000, abort.signal)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(1_000);
    const failing = {
      fn: async () => {
        throw new Error('rebalancing');
      },
      everyMs: 10,
    };
    expect(await abortableSleep(5_000, new AbortController().signal, failing)).toBe(false);
    expect(await abortableSleep(15, new AbortController().signal)).toBe(true);
  });

  it('treats an unknown outcome as a fault: retried, then dead-lettered with the reason', async () => {
    const subscription = normaliseSubscribeOptions({
      group: 'g',
      topics: ['t'],
      maxAttempts: 2,
      backoffMs: () => 0,
      handler: async () => 'ok' as unknown as ConsumeOutcome,
    });
    const result = await deliver(record, {
      system: 'memory',
      subscription,
      permits: createSemaphore(1),
      logger,
      signal: new AbortController().signal,
    });
    expect(result.kind).toBe('dead-letter');
    if (result.kind !== 'dead-letter') return;
    expect(result.attempts).toBe(2);
    expect(result.headers[DLQ_HEADERS.reason]).toMatch(/handler returned "ok"/);
    expect(result.headers['event-id']).toBe('t/0/7'); // no header: the log position is the id
  });

  it('stops retrying when aborted, reporting the attempt to resume from', async () => {
    const abort = new AbortController();
    const subscription = normaliseSubscribeOptions({
      group: 'g',
      topics: ['t'],
      backoffMs: () => 60_000,
      handler: async () => {
        setTimeout(() => abort.abort(), 10);
        return 'retry';
      },
    });
    const result = await deliver(record, {
      system: 'memory',
      subscription,
      permits: createSemaphore(1),
      logger,
      signal: abort.signal,
      firstAttempt: 3,
    });
    expect(result).toEqual({ kind: 'aborted', nextAttempt: 4 });
  });
});
