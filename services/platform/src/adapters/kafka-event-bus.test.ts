// Kafka adapter checks that need no broker: bad options fail fast, and ping() reports a broker that
// refuses or never answers within its timeout. The full behaviour is the contract suite
// (tests/contract/event-bus.contract.test.ts), run against a broker when KAFKA_BROKERS is set.
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { UnavailableError } from '../errors.ts';
import { kafkaMockBuilt, startKafkaMock } from '../testing/kafka-mock.ts';
import { createKafkaEventBus } from './kafka-event-bus.ts';
import { openEventBus } from './open-event-bus.ts';

const logger = pino({ level: 'silent' });
if (!process.env.KAFKA_BROKERS)
  console.log('[kafka-event-bus] live-broker ping skipped: KAFKA_BROKERS is not set');
if (!kafkaMockBuilt()) {
  console.log(
    '[kafka-event-bus] broker-outage cases skipped: deploy/engines/kafka-mock/kafka-mock is not built (make engines-up)',
  );
}

/** Waits until every thread of pid is stopped (state T in /proc), so the broker truly cannot answer. */
async function untilStopped(pid: number): Promise<void> {
  const stopped = (): boolean =>
    readdirSync(`/proc/${pid}/task`).every((t) => {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
    });
  for (let i = 0; i < 200 && !stopped(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!stopped()) throw new Error(`pid ${pid} did not stop`);
}

async function listen(
  onSocket: (s: Socket) => void,
): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((s) => {
    sockets.push(s);
    onSocket(s);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, sockets };
}

describe('kafka event bus', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('rejects bad options with one clear message each', () => {
    const base = { clientId: 'test', logger };
    expect(() => createKafkaEventBus({ ...base, brokers: '' })).toThrow(/brokers is empty/);
    expect(() => createKafkaEventBus({ ...base, brokers: 'broker-1:9092,broker-2' })).toThrow(
      /broker "broker-2" is not host:port/,
    );
    expect(() => createKafkaEventBus({ ...base, brokers: ['http://b:9092'] })).toThrow(/not host:port/);
    expect(() => createKafkaEventBus({ brokers: 'b:9092', clientId: ' ', logger })).toThrow(/clientId/);
    expect(() =>
      createKafkaEventBus({ ...base, brokers: 'b:9092', sessionTimeoutMs: 1000, heartbeatIntervalMs: 1000 }),
    ).toThrow(/heartbeatIntervalMs must be below sessionTimeoutMs/);
    expect(() => createKafkaEventBus({ ...base, brokers: 'b:9092', pingTimeoutMs: 0 })).toThrow(
      /pingTimeoutMs/,
    );
  });

  it('accepts the KAFKA_BROKERS string form and IPv6 brokers without connecting', async () => {
    const bus = createKafkaEventBus({ brokers: '127.0.0.1:9092, [::1]:9093', clientId: 'test', logger });
    expect(bus.kind).toBe('kafka');
    await bus.close();
  });

  it('ping() fails with UnavailableError when nothing listens', async () => {
    const { server, port } = await listen(() => {});
    await new Promise<void>((resolve) => server.close(() => resolve())); // the port now refuses
    // kafkajs retries a refused connection on its own schedule; ping's timeout bounds the wait.
    const bus = createKafkaEventBus({
      brokers: [`127.0.0.1:${port}`],
      clientId: 'test',
      logger,
      pingTimeoutMs: 1000,
    });
    cleanups.push(() => bus.close());
    const started = Date.now();
    const err = await bus.ping().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('ping() gives up after pingTimeoutMs on a broker that accepts but never answers', async () => {
    const silent = await listen(() => {}); // accepts TCP, never speaks Kafka
    cleanups.push(async () => {
      for (const s of silent.sockets) s.destroy();
      await new Promise<void>((resolve) => silent.server.close(() => resolve()));
    });
    const bus = createKafkaEventBus({
      brokers: [`127.0.0.1:${silent.port}`],
      clientId: 'test',
      logger,
      pingTimeoutMs: 300,
    });
    cleanups.push(() => bus.close());
    const started = Date.now();
    await expect(bus.ping()).rejects.toThrow(/no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('openEventBus picks Kafka when brokers are configured and the in-process bus otherwise', async () => {
    const kafka = openEventBus({ brokers: ['127.0.0.1:9092'], clientId: 'test', logger });
    const memory = openEventBus({ brokers: [], clientId: 'test', logger });
    const unset = openEventBus({ clientId: 'test', logger });
    expect([kafka.kind, memory.kind, unset.kind]).toEqual(['kafka', 'memory', 'memory']);
    await Promise.all([kafka.close(), memory.close(), unset.close()]);
  });

  it('refuses publish and subscribe after close', async () => {
    const bus = createKafkaEventBus({ brokers: '127.0.0.1:9', clientId: 'test', logger });
    await bus.close();
    await expect(bus.publish([])).rejects.toThrow(/after close/);
    await expect(bus.subscribe({ group: 'g', topics: ['t'], handler: async () => 'done' })).rejects.toThrow(
      /after close/,
    );
  });

  it.skipIf(!process.env.KAFKA_BROKERS)('ping() answers against the broker in KAFKA_BROKERS', async () => {
    const bus = createKafkaEventBus({ brokers: process.env.KAFKA_BROKERS ?? '', clientId: 'test', logger });
    cleanups.push(() => bus.close());
    await bus.ping();
  });

  it.skipIf(!kafkaMockBuilt())(
    'close() drains the handler in flight and returns in bounded time when the broker is gone',
    async () => {
      const { broker: mock, brokers } = await startKafkaMock(['--brokers', '1']);
      cleanups.push(async () => void mock.kill('SIGKILL'));
      const bus = createKafkaEventBus({
        brokers,
        clientId: 'test',
        logger,
        sessionTimeoutMs: 6_000,
        heartbeatIntervalMs: 500,
        allowAutoTopicCreation: true,
        closeTimeoutMs: 1_000,
      });
      let started = false;
      let finished = false;
      await bus.subscribe({
        group: 'g',
        topics: ['gone'],
        handler: async () => {
          started = true;
          await new Promise((r) => setTimeout(r, 500));
          finished = true;
          return 'done';
        },
      });
      await bus.publish([{ topic: 'gone', key: 'k', value: new Uint8Array([1]) }]);
      while (!started) await new Promise((r) => setTimeout(r, 10));
      mock.kill('SIGKILL'); // the broker disappears while the handler runs
      const t0 = Date.now();
      await bus.close();
      expect(finished).toBe(true);
      expect(Date.now() - t0).toBeLessThan(4_000);
    },
  );

  it.skipIf(!kafkaMockBuilt())(
    'ping() fails while the broker does not answer and recovers when it answers again',
    async () => {
      const { broker: mock, brokers } = await startKafkaMock(['--brokers', '1']);
      cleanups.push(async () => {
        mock.kill('SIGCONT');
        mock.kill('SIGKILL');
      });
      const bus = createKafkaEventBus({ brokers, clientId: 'test', logger, pingTimeoutMs: 500 });
      cleanups.push(() => bus.close());
      await bus.ping();
      mock.kill('SIGSTOP'); // frozen: sockets stay open, nothing answers (a hung or partitioned broker)
      await untilStopped(mock.pid!); // kill() returns before every broker thread has stopped
      await expect(bus.ping()).rejects.toThrow(UnavailableError);
      mock.kill('SIGCONT');
      // The next ping after the broker is back succeeds (a fresh admin client, no restart needed).
      let recovered = false;
      for (let i = 0; i < 10 && !recovered; i++) {
        recovered = await bus.ping().then(
          () => true,
          () => false,
        );
      }
      expect(recovered).toBe(true);
      await bus.publish([{ topic: 'after-outage', key: 'k', value: new Uint8Array([1]) }]);
    },
  );
});
