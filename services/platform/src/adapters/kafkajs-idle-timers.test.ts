// An idle Kafka client must not keep waking its process: kafkajs 2.2.4 ran a 1 ms timer loop on every
// broker connection (kafkajs-idle-timers.ts). With a producer and a consumer connected to librdkafka's
// mock cluster (three brokers, as CI runs it) and one event delivered, the request queues' checks are
// counted over a second of idleness: the consumer's fetches and heartbeats need a few dozen; the
// loop made thousands. Then the bus still delivers, so requests that must wait are still sent.
import { createRequire } from 'node:module';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { kafkaMockBuilt, startKafkaMock } from '../testing/kafka-mock.ts';
import { createKafkaEventBus } from './kafka-event-bus.ts';
import { kafkajsIdleTimersFixed } from './kafkajs-idle-timers.ts';

const logger = pino({ level: 'silent' });
if (!kafkaMockBuilt())
  console.log('[kafkajs-idle-timers] idle case skipped: deploy/engines/kafka-mock/kafka-mock is not built');
const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as {
  prototype: { checkPendingRequests(): void };
};
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** How often kafkajs checked its request queues while `ms` went by. */
async function queueChecksDuring(ms: number): Promise<number> {
  const proto = RequestQueue.prototype;
  const check = proto.checkPendingRequests;
  let calls = 0;
  proto.checkPendingRequests = function (this: unknown) {
    calls++;
    check.call(this);
  };
  try {
    await new Promise((r) => setTimeout(r, ms));
  } finally {
    proto.checkPendingRequests = check;
  }
  return calls;
}

describe('kafkajs idle timers', () => {
  it('is patched where kafkajs keeps its request queue', () => {
    expect(kafkajsIdleTimersFixed()).toBe(true);
  });

  it.skipIf(!kafkaMockBuilt())(
    'an idle producer and consumer leave the process asleep, and events still flow',
    async () => {
      const { broker, brokers } = await startKafkaMock(['--brokers', '3']);
      cleanups.push(async () => void broker.kill('SIGKILL'));
      const bus = createKafkaEventBus({
        brokers,
        clientId: 'idle-test',
        logger,
        sessionTimeoutMs: 6_000,
        heartbeatIntervalMs: 500,
        allowAutoTopicCreation: true,
      });
      cleanups.push(() => bus.close());
      const received: string[] = [];
      await bus.subscribe({
        group: 'idle',
        topics: ['idle.events'],
        handler: async (event) => {
          received.push(Buffer.from(event.value).toString());
          return 'done';
        },
      });
      await bus.publish([{ topic: 'idle.events', key: 'k', value: Buffer.from('first') }]);
      await expect.poll(() => received, { timeout: 20_000 }).toEqual(['first']);

      const checks = await queueChecksDuring(1_000);
      // fetch responses, heartbeats and metadata: tens a second; the 1 ms loops made thousands
      expect(checks).toBeLessThan(200);

      await bus.publish([{ topic: 'idle.events', key: 'k', value: Buffer.from('second') }]);
      await expect.poll(() => received, { timeout: 20_000 }).toEqual(['first', 'second']);
    },
    60_000,
  );
});
