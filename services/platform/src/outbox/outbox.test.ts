import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPgliteDatabase } from '../adapters/pglite-database.ts';
import { createMemoryEventBus } from '../adapters/memory-event-bus.ts';
import type { Database } from '../ports/database.ts';
import type { EventBus } from '../ports/event-bus.ts';
import { createOutbox, defaultOutboxBackoffMs } from './outbox.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('createOutbox', { timeout: 90_000 }, () => {
  let db: Database;
  let bus: EventBus;
  beforeEach(async () => {
    db = createPgliteDatabase({ dataDir: `memory://outbox-unit-${Math.random()}`, schema: 'svc' });
    bus = createMemoryEventBus();
  }, 60_000);
  // PGlite's WASM start can take more than the default 10 s hook time on a loaded machine
  afterEach(async () => {
    await bus.close();
    await db.close();
  }, 60_000);

  it('backs off from 100 ms, doubling, up to 30 s', () => {
    expect([1, 2, 3, 4].map(defaultOutboxBackoffMs)).toEqual([100, 200, 400, 800]);
    expect(defaultOutboxBackoffMs(20)).toBe(30_000);
  });

  it('stores nothing for an empty batch, and stores events enqueued outside a transaction too', async () => {
    const outbox = createOutbox({ db, bus });
    await db.migrate(outbox.migrations);
    await outbox.enqueue(db, []);
    expect(await outbox.pending()).toBe(0);
    await outbox.enqueue(db, [
      { topic: 'kaboodle.t.v1', key: 'k', value: enc('v'), headers: { 'x-owner': 'u1' } },
    ]);
    expect(await outbox.pending()).toBe(1);
    const row = (await db.query<{ headers: Record<string, string> }>('SELECT headers FROM outbox')).rows[0]!;
    expect(row.headers['x-owner']).toBe('u1');
    expect(row.headers['event-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('flush() publishes what is pending, and says why when the bus refuses', async () => {
    let down = true;
    const flaky: EventBus = {
      ...bus,
      kind: 'memory',
      publish: async (events) => (down ? Promise.reject(new Error('no brokers')) : bus.publish(events)),
    };
    const outbox = createOutbox({ db, bus: flaky });
    await db.migrate(outbox.migrations);
    await outbox.enqueue(db, [{ topic: 'kaboodle.t.v1', key: 'k', value: enc('v') }]);
    await expect(outbox.flush()).rejects.toThrow(/^publishing 1 outbox events of svc: no brokers$/);
    expect(await outbox.pending()).toBe(1);
    down = false;
    await outbox.flush();
    expect(await outbox.pending()).toBe(0);
  });

  it('flush() refuses while another relay holds the lease', async () => {
    const a = createOutbox({ db, bus });
    const b = createOutbox({ db, bus });
    await db.migrate(a.migrations);
    await a.flush(); // takes the lease
    await expect(b.flush()).rejects.toThrow(/another relay holds the lease/);
    await a.start();
    await a.stop(); // hands the lease over
    await b.flush();
  });

  it('renews its lease once a third of the term has passed, not every round', async () => {
    const leaseMs = 600;
    const a = createOutbox({ db, bus, leaseMs });
    const b = createOutbox({ db, bus, leaseMs });
    await db.migrate(a.migrations);
    const statements: string[] = [];
    const counted: Database = {
      ...db,
      query: (sql: string, params?: unknown[]) => {
        statements.push(sql);
        return db.query(sql, params);
      },
    } as Database;
    const relay = createOutbox({ db: counted, bus, leaseMs });
    const renewals = () => statements.filter((q) => q.includes('INSERT INTO outbox_relay_lease')).length;
    for (let i = 0; i < 5; i++) {
      await relay.enqueue(db, [{ topic: 'kaboodle.t.v1', key: 'k', value: enc(`v${i}`), headers: {} }]);
      await relay.flush();
    }
    expect(await relay.pending()).toBe(0);
    expect(renewals()).toBe(1);
    // Still its lease: another relay is refused.
    await expect(a.flush()).rejects.toThrow(/another relay holds the lease/);
    await new Promise((r) => setTimeout(r, leaseMs / 3 + 50));
    await relay.flush();
    expect(renewals()).toBe(2);
    // Stopping hands it over at once, and the next round asks again rather than trusting the past.
    await relay.start();
    await relay.stop();
    await b.flush();
    await expect(relay.flush()).rejects.toThrow(/another relay holds the lease/);
    expect(renewals()).toBe(3);
  });

  it('start and stop are idempotent', async () => {
    const outbox = createOutbox({ db, bus });
    await db.migrate(outbox.migrations);
    await outbox.stop();
    await outbox.start();
    await outbox.start();
    await outbox.stop();
    await outbox.stop();
  });
});
