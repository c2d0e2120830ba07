// Transactional outbox: a service writes its state change and the events announcing it in ONE
// database transaction (enqueue), and a relay publishes the stored events to the bus afterwards,
// in order, retrying with backoff while the bus is down. So state and events never diverge:
// a rolled-back change emits nothing, a committed one is published at least once.
//
// One relay per schema publishes at a time (a lease row, renewed every third of its term), so events keep
// their order even with several replicas of a service; the others stand by and take over when the
// lease lapses. Event ids and trace context are fixed at enqueue time, so a redelivery after a
// crash carries the same `event-id` and the trace of the request that caused it.
// Hand-written on purpose: the npm outbox packages are tied to one ORM or broker (TypeORM, Prisma,
// a Kafka Connect/Debezium deployment); this one runs the same SQL on pg and PGlite through the
// Database port and publishes through the EventBus port, which is what lets one image be both the
// embedded product and the cluster.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { onCommit } from '../adapters/database-common.ts';
import { observeGauge } from '../telemetry/operator-metrics.ts';
import { prepareOutgoing } from '../adapters/event-bus-delivery.ts';
import type { Database, Migration, Queryable } from '../ports/database.ts';
import type { EventBus, OutgoingEvent } from '../ports/event-bus.ts';

export type OutboxLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export interface OutboxOptions {
  db: Database;
  bus: EventBus;
  logger?: OutboxLogger;
  /** How often the relay looks for rows committed by other processes (default 1 s). */
  pollIntervalMs?: number;
  /** Events per publish call (default 100). */
  batchSize?: number;
  /** Wait before retry n (1-based) after a failed round (default 100 ms doubling, capped at 30 s). */
  backoffMs?: (failures: number) => number;
  /** How long a relay's lease lasts without renewal (default 30 s). */
  leaseMs?: number;
  /** Published rows are deleted after this long (default 24 h); kept meanwhile for inspection. */
  retentionMs?: number;
}

export interface Outbox {
  /** The outbox tables: include them in the migrations of every schema that publishes. */
  readonly migrations: Migration[];
  /** Store events inside the caller's transaction; they are published after it commits. */
  enqueue(tx: Queryable, events: OutgoingEvent[]): Promise<void>;
  /** Start the relay (idempotent). */
  start(): Promise<void>;
  /** Stop the relay after the round in flight, and hand the lease over. */
  stop(): Promise<void>;
  /**
   * The relay started by start(): resolves once stop() has ended it (at once when it is not
   * running), rejects if it died on its own. A failed round is retried with backoff, never this;
   * only a loop that cannot go on (its own machinery threw) is, so the module reports it failed.
   */
  ended(): Promise<void>;
  /** Publish everything pending now; throws when the bus refuses (tests, graceful shutdown). */
  flush(): Promise<void>;
  /** Events stored but not yet published (for /readyz details and metrics). */
  pending(): Promise<number>;
  /** Unpublished events and the age of the oldest, in seconds (0 when none): the outbox metrics. */
  backlog(): Promise<{ pending: number; oldestAgeSeconds: number }>;
}

export const OUTBOX_MIGRATIONS: Migration[] = [
  {
    id: 'outbox_0001_tables',
    sql: `
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        topic text NOT NULL,
        key text NOT NULL,
        value bytea NOT NULL,
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      );
      CREATE INDEX outbox_pending_idx ON outbox (id) WHERE published_at IS NULL;
      CREATE INDEX outbox_published_idx ON outbox (published_at) WHERE published_at IS NOT NULL;
      CREATE TABLE outbox_relay_lease (
        id integer PRIMARY KEY CHECK (id = 1),
        owner text NOT NULL,
        lease_until timestamptz NOT NULL
      );
    `,
  },
];

export const defaultOutboxBackoffMs = (failures: number): number =>
  Math.min(30_000, 100 * 2 ** (failures - 1));

const PRUNE_EVERY_MS = 60_000;

interface Row {
  id: number;
  topic: string;
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { db, bus } = options;
  const log: OutboxLogger = options.logger ?? silent;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const batchSize = options.batchSize ?? 100;
  const backoffMs = options.backoffMs ?? defaultOutboxBackoffMs;
  const leaseMs = options.leaseMs ?? 30_000;
  const retentionMs = options.retentionMs ?? 24 * 60 * 60 * 1000;
  const owner = `${db.schema}:${process.pid}:${randomUUID()}`;
  const ctx = { component: 'outbox', schema: db.schema };

  let running = false;
  let stopGauges: Array<() => void> = [];
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  let lastPrune = 0;
  // rounds never overlap inside this process (the loop and flush() share it)
  let roundTail: Promise<unknown> = Promise.resolve();

  function wake(): void {
    woken = true;
    wakeUp?.();
  }

  /** Sleep up to ms; a wake (new events committed) or stop cuts it short when interruptible. */
  function pause(ms: number, interruptible: boolean): Promise<void> {
    if (!running) return Promise.resolve(); // stop() came while a round was in flight
    if (interruptible && woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = () => {
        if (interruptible || !running) done();
      };
    }).then(() => {
      if (interruptible) woken = false;
    });
  }

  // The lease is renewed once a third of its term has passed, not every round: a relay busy with
  // one round per event otherwise spent a third of its statements on it. Judged by this process's
  // clock from before the renewal was sent, so the lease is always still ours when skipped.
  let leaseFreshUntil = 0;

  async function takeLease(): Promise<boolean> {
    if (performance.now() < leaseFreshUntil) return true;
    const sentAt = performance.now();
    leaseFreshUntil = 0;
    const res = await db.query<{ owner: string }>(
      `INSERT INTO outbox_relay_lease (id, owner, lease_until)
       VALUES (1, $1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
       WHERE outbox_relay_lease.owner = EXCLUDED.owner OR outbox_relay_lease.lease_until < now()
       RETURNING owner`,
      [owner, leaseMs],
    );
    if (res.rowCount !== 1) return false;
    leaseFreshUntil = sentAt + leaseMs / 3;
    return true;
  }

  /** One round: publish up to batchSize pending events in id order. How many, or -1 without the lease. */
  function round(): Promise<number> {
    const run = roundTail.then(async () => {
      if (!(await takeLease())) return -1; // another relay is publishing this schema's events
      const { rows } = await db.query<Row>(
        `SELECT id, topic, key, value, headers FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT $1`,
        [batchSize],
      );
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      try {
        await bus.publish(
          rows.map((r) => ({ topic: r.topic, key: r.key, value: r.value, headers: r.headers })),
        );
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        await db
          .query(`UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::bigint[])`, [
            ids,
            reason,
          ])
          .catch(() => {}); // the bus failure is the story; do not mask it with a bookkeeping one
        throw new Error(`publishing ${rows.length} outbox events of ${db.schema}: ${reason}`, { cause: err });
      }
      // If this fails after a successful publish the events go out again: at-least-once, same ids.
      await db.query(`UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [ids]);
      return rows.length;
    });
    roundTail = run.catch(() => {});
    return run;
  }

  async function prune(): Promise<void> {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    const res = await db.query(
      `DELETE FROM outbox WHERE published_at < now() - $1 * interval '1 millisecond'`,
      [retentionMs],
    );
    if (res.rowCount > 0) log.debug({ ...ctx, deleted: res.rowCount }, 'pruned published outbox events');
  }

  async function relay(): Promise<void> {
    let failures = 0;
    while (running) {
      let published: number;
      try {
        published = await round();
        if (failures > 0) log.info({ ...ctx, failures }, 'outbox relay recovered');
        failures = 0;
        await prune();
      } catch (err) {
        failures++;
        const delay = backoffMs(failures);
        log.warn(
          { ...ctx, err, failures, retryInMs: delay },
          'outbox relay round failed; events stay pending',
        );
        // not cut short by new events: a down bus or database should not be hammered
        await pause(delay, false);
        continue;
      }
      if (published < batchSize) await pause(pollIntervalMs, true);
    }
  }

  const api: Outbox = {
    migrations: OUTBOX_MIGRATIONS,

    async enqueue(tx: Queryable, events: OutgoingEvent[]): Promise<void> {
      if (events.length === 0) return;
      // validated, event id and trace context fixed now, in the caller's context
      const prepared = prepareOutgoing(events);
      const params: unknown[] = [];
      const values = prepared.map((e, i) => {
        params.push(
          e.topic,
          e.key,
          Buffer.from(e.value.buffer, e.value.byteOffset, e.value.byteLength),
          JSON.stringify(e.headers),
        );
        return `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4}::jsonb)`;
      });
      await tx.query(`INSERT INTO outbox (topic, key, value, headers) VALUES ${values.join(', ')}`, params);
      onCommit(tx, wake);
    },

    async start(): Promise<void> {
      if (running) return;
      running = true;
      // kaboodle_outbox_pending{service} and kaboodle_outbox_oldest_age{service}: an outbox
      // that stops draining means state changes are not reaching the other services.
      const service = { service: db.schema };
      stopGauges = [
        observeGauge('kaboodle.outbox.pending', 'Events stored but not yet published', async () => [
          { value: (await api.backlog()).pending, attributes: service },
        ]),
        observeGauge(
          'kaboodle.outbox.oldest.age',
          'Age of the oldest event not yet published',
          async () => [{ value: (await api.backlog()).oldestAgeSeconds, attributes: service }],
          's',
        ),
      ];
      woken = true; // publish what a previous run left behind right away
      loop = relay();
      // Handled here: a relay that died is reported through ended(), never as an unhandled rejection.
      loop.catch((err: unknown) =>
        log.error({ ...ctx, err }, 'outbox relay stopped for good; events stay pending'),
      );
      log.debug({ ...ctx, owner }, 'outbox relay started');
    },

    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      for (const stop of stopGauges) stop();
      stopGauges = [];
      wakeUp?.();
      await loop?.catch(() => {}); // a relay that died was reported already (ended())
      loop = undefined;
      // hand over: a standby relay need not wait for the lease to lapse
      leaseFreshUntil = 0;
      await db
        .query(`UPDATE outbox_relay_lease SET lease_until = now() - interval '1 second' WHERE owner = $1`, [
          owner,
        ])
        .catch((err: unknown) => log.warn({ ...ctx, err }, 'could not release the outbox lease'));
      log.debug({ ...ctx, owner }, 'outbox relay stopped');
    },

    ended(): Promise<void> {
      return loop ?? Promise.resolve();
    },

    async flush(): Promise<void> {
      for (;;) {
        const n = await round();
        if (n < 0)
          throw new Error(
            `flushing the outbox of ${db.schema}: another relay holds the lease and is publishing`,
          );
        if (n < batchSize) return; // a full batch means there may be more
      }
    },

    async pending(): Promise<number> {
      const res = await db.query<{ n: number }>(
        `SELECT count(*) AS n FROM outbox WHERE published_at IS NULL`,
      );
      return res.rows[0]?.n ?? 0;
    },

    async backlog() {
      const res = await db.query<{ n: number | string; age: number | string | null }>(
        `SELECT count(*) AS n, EXTRACT(EPOCH FROM now() - min(created_at)) AS age
           FROM outbox WHERE published_at IS NULL`,
      );
      const row = res.rows[0];
      return { pending: Number(row?.n ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.age ?? 0)) };
    },
  };
  return api;
}

const noop = (): void => {};
const silent = { debug: noop, info: noop, warn: noop, error: noop } as unknown as OutboxLogger;
