// The operator commands of the `kaboodle` entrypoint against a private librdkafka mock broker: an event
// a consumer gives up on is listed by `kaboodle dlq list` with why, and `kaboodle dlq replay` publishes
// it back to its topic once (same key, value and event id, no dlq headers), a second replay finding
// nothing left; `kaboodle topics check` finds every topic provisioned.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaEventBus } from '@kaboodle/platform';
import type { IncomingEvent } from '@kaboodle/platform';
import { Topics } from '@kaboodle/proto';
import { kafkaMockMissing, startKafkaMock } from '../chaos/support/private-engines.ts';
import type { PrivateBroker } from '../chaos/support/private-engines.ts';
import { runKaboodle } from '../support/kaboodle-process.ts';

const missing = kafkaMockMissing();
if (missing) console.log(`[operator-commands] skipped: ${missing}`);
const logger = pino({ level: 'silent' });
const TOPIC = Topics.fileStatus;

describe.skipIf(missing)('kaboodle dlq and topics commands', () => {
  let broker: PrivateBroker;
  const env = () => ({ KAFKA_BROKERS: broker.brokers, LOG_LEVEL: 'error' });
  const eventId = randomUUID();

  beforeAll(async () => {
    broker = await startKafkaMock();
    // A consumer that gives up on one event: it lands on the dead-letter topic.
    const bus = createKafkaEventBus({
      brokers: broker.brokers,
      clientId: 'dlq-test',
      logger,
      idempotent: false,
    });
    try {
      let failed = false;
      const sub = await bus.subscribe({
        group: 'dlq-test-consumer',
        topics: [TOPIC],
        maxAttempts: 1,
        handler: async () => {
          failed = true;
          return 'failed';
        },
      });
      await bus.publish([
        { topic: TOPIC, key: 'file-42', value: new Uint8Array([7, 7, 7]), headers: { 'event-id': eventId } },
      ]);
      for (let i = 0; i < 300 && !failed; i++) await new Promise((r) => setTimeout(r, 100));
      if (!failed) throw new Error('the consumer never got the event');
      await new Promise((r) => setTimeout(r, 500)); // the dead letter is written, then committed
      await sub.close();
    } finally {
      await bus.close();
    }
  }, 90_000);
  afterAll(() => broker?.stop());

  it('lists the dead letter with where it came from and why', async () => {
    const r = await runKaboodle(['dlq', 'list', '--topic', TOPIC], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${TOPIC}.dlq[`);
    expect(r.stdout).toContain(`from ${TOPIC}[`);
    expect(r.stdout).toContain('group dlq-test-consumer');
    expect(r.stdout).toContain('failed after 1 attempt(s)');
    expect(r.stdout).toContain('key file-42');
    expect(r.stdout).toContain(`event ${eventId}`);
    expect(r.stdout).toContain('reason: handler returned failed');
    expect(r.stdout).toMatch(/^1 dead-lettered event\(s\)$/m);
    // Listing changes nothing: a second listing shows it again.
    expect((await runKaboodle(['dlq', 'list', '--topic', TOPIC], env())).stdout).toMatch(/^1 dead-lettered/m);
  }, 60_000);

  it('replays it to its topic once: same key, value and event id, no dlq headers', async () => {
    const bus = createKafkaEventBus({
      brokers: broker.brokers,
      clientId: 'dlq-replay-watch',
      logger,
      idempotent: false,
    });
    const seen: IncomingEvent[] = [];
    const sub = await bus.subscribe({
      group: `replay-watch-${randomUUID()}`,
      topics: [TOPIC],
      startAt: 'latest',
      handler: async (e) => {
        seen.push(e);
        return 'done';
      },
    });
    try {
      await new Promise((r) => setTimeout(r, 3_000)); // the watcher's group has joined
      const r = await runKaboodle(['dlq', 'replay', '--topic', TOPIC], env());
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`replayed 1 event(s) from ${TOPIC}.dlq to ${TOPIC}`);
      await expect.poll(() => seen.length, { timeout: 30_000 }).toBe(1);
      expect(seen[0]!.key).toBe('file-42');
      expect([...seen[0]!.value]).toEqual([7, 7, 7]);
      expect(seen[0]!.id).toBe(eventId);
      expect(
        Object.keys(seen[0]!.headers).filter((h) => h.startsWith('dlq-') && h !== 'dlq-replayed-at'),
      ).toEqual([]);
      const again = await runKaboodle(['dlq', 'replay', '--topic', TOPIC], env());
      expect(again.stdout).toContain('replayed 0 event(s)');
    } finally {
      await sub.close();
      await bus.close();
    }
  }, 90_000);

  it('checks that every topic and its dead-letter twin is provisioned', async () => {
    const r = await runKaboodle(['topics', 'check'], env());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`all ${Object.keys(Topics).length * 2} topics exist`);
  }, 60_000);

  it('says what it needs instead of guessing', async () => {
    const r = await runKaboodle(['dlq', 'list'], { KAFKA_BROKERS: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('KAFKA_BROKERS: is required for `kaboodle dlq`');
    const reindex = await runKaboodle(['search', 'reindex'], {
      ELASTICSEARCH_URL: '',
      PROCESSING_GRPC_ADDRESS: '',
    });
    expect(reindex.code).toBe(2);
    expect(reindex.stderr).toContain('ELASTICSEARCH_URL: is required');
  });
});
