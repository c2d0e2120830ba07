// The Kafka adapter as production runs it, against a private librdkafka mock broker with the app's
// topics made up front: the idempotent producer is used where the broker accepts it and `auto` falls
// back where it does not (the mock cannot hand out producer ids: it reports controller id 0), and
// consumer lag is read per group and topic for the metrics. (That clients create no topic cannot be
// shown here: the mock creates topics on its own side; Strimzi's brokers have it off.)
import type { ChildProcess } from 'node:child_process';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaMockBuilt, startKafkaMock } from '../testing/kafka-mock.ts';
import { createKafkaEventBus } from './kafka-event-bus.ts';
import type { KafkaEventBus } from './kafka-event-bus.ts';

const lines: Array<Record<string, unknown>> = [];
const logger = pino({ level: 'warn' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
const TOPIC = 'kaboodle.production-test.v1';
if (!kafkaMockBuilt())
  console.log(
    '[kafka-production] skipped: deploy/engines/kafka-mock/kafka-mock is not built (make engines-up)',
  );

describe.skipIf(!kafkaMockBuilt())('kafka event bus in production settings (mock broker)', () => {
  let broker: ChildProcess;
  let brokers: string;
  const buses: KafkaEventBus[] = [];
  const bus = (extra: Partial<Parameters<typeof createKafkaEventBus>[0]> = {}) => {
    const b = createKafkaEventBus({
      brokers,
      clientId: 'production-test',
      logger,
      sessionTimeoutMs: 6000,
      heartbeatIntervalMs: 500,
      ...extra,
    });
    buses.push(b);
    return b;
  };

  beforeAll(async () => {
    ({ broker, brokers } = await startKafkaMock([
      '--brokers',
      '1',
      '--topic',
      `${TOPIC}:3`,
      '--topic',
      `${TOPIC}.dlq:3`,
    ]));
  });
  afterAll(async () => {
    for (const b of buses) await b.close().catch(() => undefined);
    broker?.kill('SIGTERM');
  });

  it('idempotent auto: falls back to one request in flight when the broker hands out no producer id, saying so', async () => {
    const b = bus({ idempotent: 'auto' });
    await b.publish([{ topic: TOPIC, key: 'k', value: new Uint8Array([2]) }]);
    expect(b.idempotent).toBe(false);
    expect(lines.some((l) => String(l.msg).includes('refused the idempotent producer'))).toBe(true);
    // Insisting on it fails clearly rather than silently downgrading.
    const strict = bus({ idempotent: true });
    await expect(strict.publish([{ topic: TOPIC, key: 'k', value: new Uint8Array([3]) }])).rejects.toThrow();
  }, 60_000);

  it('reads consumer lag per group and topic: events published and not yet handled', async () => {
    const b = bus({ idempotent: false });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let seen = 0;
    await b.subscribe({
      group: 'lag-test',
      topics: [TOPIC],
      handler: async () => {
        seen++;
        await held;
        return 'done';
      },
    });
    const before = (await b.lag()).find((r) => r.attributes.group === 'lag-test')?.value ?? 0;
    await b.publish(
      Array.from({ length: 6 }, (_, i) => ({ topic: TOPIC, key: `key-${i}`, value: new Uint8Array([i]) })),
    );
    await expect.poll(() => seen, { timeout: 20_000 }).toBeGreaterThan(0);
    const reading = (await b.lag()).find(
      (r) => r.attributes.group === 'lag-test' && r.attributes.topic === TOPIC,
    );
    expect(reading!.value).toBeGreaterThanOrEqual(before + 6);
    release();
    await expect
      .poll(async () => (await b.lag()).find((r) => r.attributes.group === 'lag-test')?.value, {
        timeout: 20_000,
      })
      .toBe(0);
  }, 60_000);
});
