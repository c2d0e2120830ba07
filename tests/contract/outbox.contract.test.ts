// Transactional outbox contract, over every Database adapter × every EventBus adapter available:
// PGlite and the in-process bus always; Postgres (DATABASE_URL or a testcontainer) and Kafka
// (KAFKA_BROKERS or a testcontainer) when present. A state change and its events commit together.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { pino } from 'pino';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@kaboodle/platform';
import type { EventBus, IncomingEvent, Subscription } from '@kaboodle/platform';
import { createPgliteDatabase, createPostgresDatabase } from '@kaboodle/platform';
import { createMemoryEventBus } from '@kaboodle/platform';
import { createKafkaEventBus } from '@kaboodle/platform';
import { createOutbox } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import { createEngineReport, postgresEngine, resolveEngine, stopEngines } from './support/engines.ts';
import { kafkaEngine } from './support/event-bus-engine.ts';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());

const logger = pino({ level: process.env.LOG_LEVEL ?? 'silent' });
const report = createEngineReport('outbox');
const [pg, kafka] = await Promise.all([resolveEngine(postgresEngine), resolveEngine(kafkaEngine)]);
report.embedded('pglite');
report.embedded('memory bus');
report.add(pg);
report.add(kafka);

const pgliteDir = await mkdtemp(join(tmpdir(), 'kaboodle-outbox-contract-'));
const schemas: string[] = [];

interface DbHarness {
  name: string;
  open(schema: string): Database;
}
interface BusHarness {
  name: string;
  /** How long a delivery may take (Kafka: a consumer group join alone is ~3 s on the mock). */
  waitMs: number;
  create(): EventBus;
}

const dbs: DbHarness[] = [
  { name: 'pglite', open: (schema) => createPgliteDatabase({ dataDir: join(pgliteDir, 'pg'), schema }) },
];
if (pg.available)
  dbs.push({
    name: 'postgres',
    open: (schema) => createPostgresDatabase({ url: pg.handle.config.url, schema }),
  });
const buses: BusHarness[] = [
  { name: 'memory', waitMs: 5_000, create: () => createMemoryEventBus({ logger }) },
];
if (kafka.available) {
  const brokers = kafka.handle.config.brokers;
  buses.push({
    name: 'kafka',
    waitMs: 30_000,
    create: () =>
      createKafkaEventBus({
        brokers,
        clientId: 'kaboodle-outbox-contract',
        logger,
        sessionTimeoutMs: 6_000,
        heartbeatIntervalMs: 500,
        allowAutoTopicCreation: true, // the suite's own throwaway topics
      }),
  });
}
const combos = dbs.flatMap((db) => buses.map((bus) => ({ db, bus, name: `${db.name} + ${bus.name}` })));

afterAll(async () => {
  if (pg.available) {
    const admin = createPostgresDatabase({ url: pg.handle.config.url, schema: 'public' });
    for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await admin.close();
  }
  await rm(pgliteDir, { recursive: true, force: true });
  await stopEngines([pg, kafka]);
  report.print();
});

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
async function waitFor(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** The bus with a switch: while `down`, publish fails as a broker outage would (the fault injected). */
function withOutage(bus: EventBus): EventBus & { down: boolean; attempts: number } {
  const wrapped = {
    kind: bus.kind,
    down: false,
    attempts: 0,
    async publish(events: Parameters<EventBus['publish']>[0]) {
      wrapped.attempts++;
      if (wrapped.down) throw new Error('broker not available (injected outage)');
      return bus.publish(events);
    },
    subscribe: bus.subscribe.bind(bus),
    ping: bus.ping.bind(bus),
    close: bus.close.bind(bus),
  };
  return wrapped;
}

describe.each(combos)('outbox contract: $name', ({ db: dbH, bus: busH }) => {
  let db: Database;
  let bus: EventBus & { down: boolean; attempts: number };
  let outbox: Outbox;
  let sub: Subscription | undefined;
  let topic: string;
  let received: IncomingEvent[];

  beforeEach(async () => {
    const schema = `ob_${randomBytes(4).toString('hex')}`;
    schemas.push(schema);
    db = dbH.open(schema);
    bus = withOutage(busH.create());
    // polling every minute: within a test, only the wake-up on commit can deliver promptly
    outbox = createOutbox({ db, bus, logger, backoffMs: () => 100, pollIntervalMs: 60_000 });
    await db.migrate([
      ...outbox.migrations,
      { id: '0001_orders', sql: 'CREATE TABLE orders (id text PRIMARY KEY, status text NOT NULL)' },
    ]);
    topic = `kaboodle.test.outbox.${randomBytes(4).toString('hex')}.v1`;
    received = [];
    sub = await bus.subscribe({
      group: `outbox-contract-${randomBytes(3).toString('hex')}`,
      topics: [topic],
      handler: async (e) => {
        received.push(e);
        return 'done';
      },
    });
    await outbox.start();
  });

  afterEach(async () => {
    await outbox.stop();
    await sub?.close();
    await bus.close();
    await db.close();
  });

  const place = (id: string, events: { key: string; body: string }[], fail = false): Promise<void> =>
    db.transaction(async (tx) => {
      await tx.query('INSERT INTO orders (id, status) VALUES ($1, $2)', [id, 'placed']);
      await outbox.enqueue(
        tx,
        events.map((e) => ({ topic, key: e.key, value: enc(e.body) })),
      );
      if (fail) throw new Error('the order was refused after its event was enqueued');
    });

  it('publishes nothing for a rolled-back transaction, and the state change is gone too', async () => {
    await expect(place('o-rolled-back', [{ key: 'o-rolled-back', body: 'ghost' }], true)).rejects.toThrow(
      /refused/,
    );
    // a committed marker afterwards: once it arrives, anything enqueued before it would have too
    await place('o-marker', [{ key: 'o-marker', body: 'marker' }]);
    await waitFor('the marker event', () => received.some((e) => dec(e.value) === 'marker'), busH.waitMs);
    expect(received.map((e) => dec(e.value))).toEqual(['marker']);
    expect((await db.query('SELECT id FROM orders')).rows).toEqual([{ id: 'o-marker' }]);
    expect(await outbox.pending()).toBe(0);
  });

  it('publishes committed events exactly once, in order per key, promptly (woken by the commit)', async () => {
    const keys = ['doc-a', 'doc-b', 'doc-c'];
    const sent: { key: string; body: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const batch = keys.map((key) => ({ key, body: `${key}#${i}` }));
      sent.push(...batch);
      await place(`o-${i}`, batch);
    }
    await waitFor('36 events', () => received.length >= 36, busH.waitMs);
    await sleep(200); // a duplicate would show up now
    for (const key of keys) {
      const got = received.filter((e) => e.key === key).map((e) => dec(e.value));
      expect(got).toEqual(sent.filter((e) => e.key === key).map((e) => e.body));
    }
    expect(new Set(received.map((e) => e.id)).size).toBe(36);
    expect(await outbox.pending()).toBe(0);
  });

  it('keeps events pending while the bus is down and publishes them, in order, when it returns', async () => {
    bus.down = true;
    for (let i = 0; i < 5; i++) await place(`o-down-${i}`, [{ key: 'doc-x', body: `x#${i}` }]);
    await waitFor('a few failed publish attempts', () => bus.attempts >= 3, 5_000);
    expect(await outbox.pending()).toBe(5);
    const row = (
      await db.query<{ attempts: number; last_error: string }>(
        'SELECT attempts, last_error FROM outbox ORDER BY id LIMIT 1',
      )
    ).rows[0]!;
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(row.last_error).toMatch(/injected outage/);
    expect(received).toEqual([]);
    bus.down = false;
    await waitFor('5 events after the outage', () => received.length >= 5, busH.waitMs);
    expect(received.map((e) => dec(e.value))).toEqual(['x#0', 'x#1', 'x#2', 'x#3', 'x#4']);
    await waitFor('nothing pending', async () => (await outbox.pending()) === 0, 5_000);
  });

  it('ended() stays pending through a bus outage, resolves on stop, and rejects when the relay cannot go on', async () => {
    const pendingAfter = (p: Promise<unknown>, ms: number) =>
      Promise.race([
        p.then(
          () => 'ended',
          () => 'failed',
        ),
        sleep(ms).then(() => 'pending'),
      ]);
    bus.down = true;
    await place('o-outage', [{ key: 'doc-y', body: 'y' }]);
    await waitFor('failed publish attempts', () => bus.attempts >= 2, 5_000);
    expect(await pendingAfter(outbox.ended(), 50)).toBe('pending'); // an outage is retried, not final
    const ended = outbox.ended();
    await outbox.stop();
    await expect(ended).resolves.toBeUndefined();
    // A relay whose own retry machinery throws (here its backoff) has stopped for good: reported.
    const broken = createOutbox({
      db,
      bus,
      logger,
      pollIntervalMs: 60_000,
      backoffMs: () => {
        throw new Error('backoff broke');
      },
    });
    await broken.start();
    await expect(broken.ended()).rejects.toThrow('backoff broke');
    await broken.stop(); // stopping a dead relay still hands the lease over
    bus.down = false;
    await outbox.start();
    await waitFor('the event after the outage', () => received.length >= 1, busH.waitMs);
  });

  it('carries the trace context and event id fixed at enqueue time', async () => {
    const traceId = randomBytes(16).toString('hex');
    const spanId = randomBytes(8).toString('hex');
    const ctx = trace.setSpanContext(context.active(), { traceId, spanId, traceFlags: TraceFlags.SAMPLED });
    await context.with(ctx, () => place('o-traced', [{ key: 'o-traced', body: 'traced' }]));
    await waitFor('the traced event', () => received.length >= 1, busH.waitMs);
    expect(received[0]!.headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    const stored = (await db.query<{ headers: Record<string, string> }>('SELECT headers FROM outbox'))
      .rows[0]!;
    expect(received[0]!.id).toBe(stored.headers['event-id']);
  });

  it('rejects an invalid event inside the transaction, so the state change rolls back with it', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO orders (id, status) VALUES ('o-bad', 'placed')`);
        await outbox.enqueue(tx, [{ topic: 'bad topic!', key: 'k', value: enc('x') }]);
      }),
    ).rejects.toThrow(/not a valid topic name/);
    expect((await db.query(`SELECT 1 FROM orders WHERE id = 'o-bad'`)).rowCount).toBe(0);
    expect((await db.query('SELECT 1 FROM outbox')).rowCount).toBe(0);
  });
});

describe('outbox relays sharing one schema (pglite + memory bus)', () => {
  it('lets one relay publish at a time and keeps order across a hand-over', async () => {
    const schema = `ob_${randomBytes(4).toString('hex')}`;
    const db = createPgliteDatabase({ dataDir: join(pgliteDir, 'pg'), schema });
    const bus = createMemoryEventBus({ logger });
    const a = createOutbox({ db, bus, logger, pollIntervalMs: 50, batchSize: 3 });
    const b = createOutbox({ db, bus, logger, pollIntervalMs: 50, batchSize: 3 });
    await db.migrate(a.migrations);
    const topic = `kaboodle.test.outbox.${randomBytes(4).toString('hex')}.v1`;
    const got: string[] = [];
    const sub = await bus.subscribe({
      group: 'g',
      topics: [topic],
      handler: async (e) => {
        got.push(dec(e.value));
        return 'done';
      },
    });
    await Promise.all([a.start(), b.start()]);
    for (let i = 0; i < 10; i++) {
      await db.transaction((tx) => a.enqueue(tx, [{ topic, key: 'k', value: enc(String(i)) }]));
    }
    await waitFor('10 events', () => got.length >= 10, 5_000);
    await a.stop(); // hands the lease over; b carries on
    for (let i = 10; i < 20; i++) {
      await db.transaction((tx) => b.enqueue(tx, [{ topic, key: 'k', value: enc(String(i)) }]));
    }
    await waitFor('20 events', () => got.length >= 20, 5_000);
    expect(got).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    await b.stop();
    await sub.close();
    await bus.close();
    await db.close();
  });
});
