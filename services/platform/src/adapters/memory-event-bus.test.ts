// What only the in-process bus has to prove (the shared behaviour is in tests/contract): bounded
// memory (trimming what every group committed, retention), handover between members, and close().
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventBus, IncomingEvent } from '../ports/event-bus.ts';
import { createMemoryEventBus } from './memory-event-bus.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('memory event bus', () => {
  const buses: EventBus[] = [];
  const open = (options?: Parameters<typeof createMemoryEventBus>[0]): EventBus => {
    const bus = createMemoryEventBus(options);
    buses.push(bus);
    return bus;
  };
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });

  it('rejects bad options with a clear message', () => {
    expect(() => createMemoryEventBus({ partitions: 0 })).toThrow(
      /partitions must be an integer in 1\.\.1024/,
    );
    expect(() => createMemoryEventBus({ maxRetainedPerPartition: -1 })).toThrow(/maxRetainedPerPartition/);
  });

  it('drops events every group has committed, so a group that joins later does not see them', async () => {
    const bus = open({ partitions: 2 });
    const seen: string[] = [];
    await bus.subscribe({
      group: 'early',
      topics: ['t'],
      handler: async (e) => (seen.push(dec(e.value)), 'done'),
    });
    await bus.publish(
      Array.from({ length: 10 }, (_, i) => ({ topic: 't', key: `k${i}`, value: enc(`v${i}`) })),
    );
    await waitFor('the early group', () => seen.length === 10);

    const late: string[] = [];
    await bus.subscribe({
      group: 'late',
      topics: ['t'],
      handler: async (e) => (late.push(dec(e.value)), 'done'),
    });
    await bus.publish([{ topic: 't', key: 'k0', value: enc('after') }]);
    await waitFor('the late group', () => late.length === 1);
    await sleep(20);
    expect(late).toEqual(['after']);
  });

  it('keeps events a stopped group has not handled yet, and hands them over when it comes back', async () => {
    const bus = open({ partitions: 2 });
    const slow = await bus.subscribe({ group: 'slow', topics: ['t'], handler: async () => 'done' });
    await slow.close(); // the group exists, with nothing committed
    const fast: string[] = [];
    await bus.subscribe({
      group: 'fast',
      topics: ['t'],
      handler: async (e) => (fast.push(dec(e.value)), 'done'),
    });
    await bus.publish(
      Array.from({ length: 5 }, (_, i) => ({ topic: 't', key: `k${i}`, value: enc(`v${i}`) })),
    );
    await waitFor('the fast group', () => fast.length === 5);

    const back: string[] = [];
    await bus.subscribe({
      group: 'slow',
      topics: ['t'],
      handler: async (e) => (back.push(dec(e.value)), 'done'),
    });
    await waitFor('the slow group', () => back.length === 5);
    expect(back.sort()).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
  });

  /** Publish `count` events of one key to a topic nobody reads yet, then read what was retained. */
  async function retainedOf(bus: EventBus, count: number, expected: number): Promise<string[]> {
    await bus.publish(
      Array.from({ length: count }, (_, i) => ({ topic: 'nobody', key: 'k', value: enc(`v${i}`) })),
    );
    const got: string[] = [];
    await bus.subscribe({
      group: 'g',
      topics: ['nobody'],
      handler: async (e) => (got.push(dec(e.value)), 'done'),
    });
    await waitFor('the retained events', () => got.length === expected);
    await sleep(20); // nothing more comes
    return got;
  }

  it('caps an unconsumed topic at the retention limit, keeping the newest events', async () => {
    const bus = open({ partitions: 1, maxRetainedPerPartition: 3 });
    expect(await retainedOf(bus, 8, 3)).toEqual(['v5', 'v6', 'v7']);
  });

  it('by default retains 800,000 events per topic, split over its partitions (782 each at 1,024)', async () => {
    const got = await retainedOf(open({ partitions: 1024 }), 790, 782);
    expect(got.length).toBe(782);
    expect(got[0]).toBe('v8');
  });

  it('hands a partition to the remaining member when one leaves, continuing after its last commit', async () => {
    const bus = open({ partitions: 4 });
    const byMember: string[][] = [[], []];
    const first = await bus.subscribe({
      group: 'g',
      topics: ['t'],
      handler: async (e) => (byMember[0]!.push(dec(e.value)), 'done'),
    });
    await bus.subscribe({
      group: 'g',
      topics: ['t'],
      handler: async (e) => (byMember[1]!.push(dec(e.value)), 'done'),
    });
    await bus.publish(
      Array.from({ length: 20 }, (_, i) => ({ topic: 't', key: `k${i}`, value: enc(`a${i}`) })),
    );
    await waitFor('the first round', () => byMember[0]!.length + byMember[1]!.length === 20);
    expect(byMember[0]!.length).toBeGreaterThan(0);
    await first.close();
    const before = byMember[0]!.length;
    await bus.publish(
      Array.from({ length: 20 }, (_, i) => ({ topic: 't', key: `k${i}`, value: enc(`b${i}`) })),
    );
    await waitFor('the second round', () => byMember[1]!.filter((v) => v.startsWith('b')).length === 20);
    expect(byMember[0]!.length).toBe(before);
  });

  it('continues the attempt count when a retrying event is handed to another member', async () => {
    const bus = open({ partitions: 1 });
    const attempts: Array<[string, number]> = [];
    const retrying = await bus.subscribe({
      group: 'g',
      topics: ['t'],
      backoffMs: () => 60_000, // it would wait a minute: the handover must cut the wait short
      handler: async (e) => (attempts.push(['first', e.attempt]), 'retry'),
    });
    await bus.publish([{ topic: 't', key: 'k', value: enc('x') }]);
    await waitFor('the first attempt', () => attempts.length === 1);
    const started = Date.now();
    await retrying.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    await bus.subscribe({
      group: 'g',
      topics: ['t'],
      handler: async (e) => (attempts.push(['second', e.attempt]), 'done'),
    });
    await waitFor('the redelivery', () => attempts.length === 2);
    expect(attempts).toEqual([
      ['first', 1],
      ['second', 2],
    ]);
  });

  it('bounds handlers running at once by concurrency, across partitions', async () => {
    const bus = open({ partitions: 8 });
    let running = 0;
    let peak = 0;
    const done: IncomingEvent[] = [];
    await bus.subscribe({
      group: 'g',
      topics: ['t'],
      concurrency: 2,
      handler: async (e) => {
        peak = Math.max(peak, ++running);
        await sleep(5);
        running--;
        done.push(e);
        return 'done';
      },
    });
    await bus.publish(
      Array.from({ length: 40 }, (_, i) => ({ topic: 't', key: `k${i}`, value: enc(String(i)) })),
    );
    await waitFor('all events', () => done.length === 40);
    expect(peak).toBe(2);
  });

  it('by default runs as many handlers at once as concurrency asks (16), not one per 8 partitions', async () => {
    const bus = open();
    let running = 0;
    let peak = 0;
    let done = 0;
    await bus.subscribe({
      group: 'g',
      topics: ['t'],
      concurrency: 16,
      handler: async () => {
        peak = Math.max(peak, ++running);
        await sleep(20);
        running--;
        done++;
        return 'done';
      },
    });
    // 200 distinct keys: every partition has work, so only concurrency bounds the handlers.
    await bus.publish(
      Array.from({ length: 200 }, (_, i) => ({ topic: 't', key: `file-${i}`, value: enc(String(i)) })),
    );
    await waitFor('all events', () => done === 200);
    expect(peak).toBe(16);
  });

  it('warns when a subscription asks for more concurrency than there are partitions', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const bus = open({ partitions: 4, logger });
    await bus.subscribe({ group: 'g', topics: ['t'], concurrency: 10, handler: async () => 'done' });
    expect(warnings.join('')).toContain(
      'concurrency 10 is more than the 4 partitions per topic; at most 4 events per topic are handled at once',
    );
  });

  it('does not let a key in backoff hold up other partitions', async () => {
    const bus = open({ partitions: 8 });
    const handled: string[] = [];
    await bus.subscribe({
      group: 'g',
      topics: ['t'],
      concurrency: 1,
      backoffMs: () => 1_000,
      handler: async (e) => {
        if (e.key === 'stuck' && e.attempt === 1) return 'retry';
        handled.push(e.key);
        return 'done';
      },
    });
    await bus.publish([{ topic: 't', key: 'stuck', value: enc('x') }]);
    await sleep(20);
    // Keys on other partitions go ahead while `stuck` waits its second.
    const others = Array.from({ length: 30 }, (_, i) => `other-${i}`);
    await bus.publish(others.map((key) => ({ topic: 't', key, value: enc('y') })));
    await waitFor(
      'keys on other partitions',
      () => handled.filter((k) => k.startsWith('other-')).length >= 20,
      900,
    );
    await waitFor('the stuck key', () => handled.includes('stuck'), 3_000);
  });

  it('close() ends every subscription, then refuses publish and subscribe', async () => {
    const bus = createMemoryEventBus();
    let finished = false;
    let started = false;
    await bus.subscribe({
      group: 'g',
      topics: ['t'],
      handler: async () => {
        started = true;
        await sleep(100);
        finished = true;
        return 'done';
      },
    });
    await bus.publish([{ topic: 't', key: 'k', value: enc('x') }]);
    await waitFor('the handler', () => started);
    await bus.close();
    expect(finished).toBe(true);
    await expect(bus.publish([{ topic: 't', key: 'k', value: enc('x') }])).rejects.toThrow(/after close/);
    await expect(bus.subscribe({ group: 'g', topics: ['t'], handler: async () => 'done' })).rejects.toThrow(
      /after close/,
    );
    await expect(bus.ping()).rejects.toThrow(/closed/);
  });

  it('copies published bytes, so a reused buffer does not change an event', async () => {
    const bus = open();
    const buffer = enc('first');
    await bus.publish([{ topic: 't', key: 'k', value: buffer }]);
    buffer.set(enc('XXXXX'));
    const got: string[] = [];
    await bus.subscribe({
      group: 'g',
      topics: ['t'],
      handler: async (e) => (got.push(dec(e.value)), 'done'),
    });
    await waitFor('the event', () => got.length === 1);
    expect(got).toEqual(['first']);
  });
});
