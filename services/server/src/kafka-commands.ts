// `kaboodle dlq list|replay` and `kaboodle topics check|create` on kafkajs. Dead letters keep the
// original event (key, value, headers) plus dlq-* headers saying why; a replay publishes each back to
// its original topic once (the kaboodle-dlq-replay group remembers how far it got) with the same
// event id, so idempotent consumers handle it fresh, and drops the dlq-* headers.
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { Admin, Consumer, IHeaders, KafkaMessage, SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';
import type { Logger } from '@kaboodle/platform';
import { DLQ_HEADERS, EVENT_ID_HEADER } from '@kaboodle/platform';
import { Topics } from '@kaboodle/proto';

export interface KafkaAccess {
  brokers: string[];
  logger: Logger;
  ssl?: boolean | ConnectionOptions;
  sasl?: SASLOptions;
}

/** The topics the app uses and their dead-letter twins. */
export const APP_TOPICS: string[] = Object.values(Topics).flatMap((t) => [t, `${t}.dlq`]);
export const REPLAY_GROUP = 'kaboodle-dlq-replay';

function client(access: KafkaAccess): Kafka {
  return new Kafka({
    clientId: 'kaboodle-cli',
    brokers: access.brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 5_000,
    retry: { retries: 3 },
    ...(access.ssl !== undefined && { ssl: access.ssl }),
    ...(access.sasl && { sasl: access.sasl }),
  });
}

const text = (headers: IHeaders | undefined, name: string): string | undefined => {
  const v = headers?.[name];
  const one = Array.isArray(v) ? v[v.length - 1] : v;
  return one === undefined ? undefined : Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
};

async function withAdmin<T>(access: KafkaAccess, fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = client(access).admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * Read a topic from `group`'s position to the end as it was when reading began, calling `each` per
 * message; commits after each when `commit` (a replay), never otherwise (a listing).
 */
async function readToEnd(
  access: KafkaAccess,
  topic: string,
  group: string,
  options: { commit: boolean; limit: number },
  each: (message: KafkaMessage, partition: number) => Promise<void>,
): Promise<number> {
  const kafka = client(access);
  const ends = await withAdmin(access, (admin) => admin.fetchTopicOffsets(topic));
  const committed = await withAdmin(access, (admin) =>
    admin.fetchOffsets({ groupId: group, topics: [topic] }),
  );
  const start = new Map<number, bigint>();
  for (const end of ends) {
    const at = committed[0]?.partitions.find((p) => p.partition === end.partition)?.offset ?? '-1';
    start.set(end.partition, at === '-1' ? BigInt(end.low) : BigInt(at));
  }
  const remaining = new Set(
    ends.filter((e) => BigInt(e.high) > start.get(e.partition)!).map((e) => e.partition),
  );
  if (remaining.size === 0) return 0;
  const high = new Map(ends.map((e) => [e.partition, BigInt(e.high)]));
  const consumer: Consumer = kafka.consumer({
    groupId: group,
    sessionTimeout: 10_000,
    allowAutoTopicCreation: false,
  });
  let handled = 0;
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            if (!remaining.has(partition) || handled >= options.limit) return;
            const offset = BigInt(message.offset);
            if (offset >= high.get(partition)!) return;
            await each(message, partition);
            handled++;
            if (options.commit)
              await consumer.commitOffsets([{ topic, partition, offset: (offset + 1n).toString() }]);
            if (offset + 1n >= high.get(partition)!) remaining.delete(partition);
            if (remaining.size === 0 || handled >= options.limit) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
  }
  return handled;
}

export async function dlqList(
  access: KafkaAccess,
  options: { topic?: string; limit: number; print: (line: string) => void },
): Promise<number> {
  const topics = options.topic
    ? [options.topic.endsWith('.dlq') ? options.topic : `${options.topic}.dlq`]
    : APP_TOPICS.filter((t) => t.endsWith('.dlq'));
  let total = 0;
  for (const topic of topics) {
    // A group of its own that never commits: listing changes nothing.
    const group = `kaboodle-dlq-list-${randomUUID()}`;
    const n = await readToEnd(
      access,
      topic,
      group,
      { commit: false, limit: options.limit - total },
      async (m, p) => {
        const h = m.headers;
        options.print(
          [
            `${topic}[${p}]@${m.offset}`,
            `from ${text(h, DLQ_HEADERS.topic) ?? '?'}[${text(h, DLQ_HEADERS.partition) ?? '?'}]@${text(h, DLQ_HEADERS.offset) ?? '?'}`,
            `group ${text(h, DLQ_HEADERS.group) ?? '?'}`,
            `${text(h, DLQ_HEADERS.cause) ?? '?'} after ${text(h, DLQ_HEADERS.attempts) ?? '?'} attempt(s)`,
            `at ${text(h, DLQ_HEADERS.at) ?? '?'}`,
            `key ${m.key?.toString('utf8') ?? ''}`,
            `event ${text(h, EVENT_ID_HEADER) ?? '?'}`,
            `reason: ${text(h, DLQ_HEADERS.reason) ?? ''}`,
          ].join('  '),
        );
      },
    );
    await withAdmin(access, (admin) => admin.deleteGroups([group])).catch(() => undefined);
    total += n;
    if (total >= options.limit) break;
  }
  options.print(`${total} dead-lettered event(s)`);
  return 0;
}

export async function dlqReplay(
  access: KafkaAccess,
  options: { topic: string; limit: number; print: (line: string) => void },
): Promise<number> {
  const dlq = options.topic.endsWith('.dlq') ? options.topic : `${options.topic}.dlq`;
  const original = dlq.slice(0, -'.dlq'.length);
  const producer = client(access).producer({ allowAutoTopicCreation: false, maxInFlightRequests: 1 });
  await producer.connect();
  let replayed: number;
  try {
    replayed = await readToEnd(
      access,
      dlq,
      REPLAY_GROUP,
      { commit: true, limit: options.limit },
      async (m) => {
        const headers: Record<string, string> = {};
        for (const name of Object.keys(m.headers ?? {}))
          if (!name.startsWith('dlq-')) headers[name] = text(m.headers, name) ?? '';
        headers['dlq-replayed-at'] = new Date().toISOString();
        // Published before the offset is committed: a crash in between replays it again, never loses it.
        await producer.send({
          topic: text(m.headers, DLQ_HEADERS.topic) ?? original,
          acks: -1,
          messages: [{ key: m.key, value: m.value, headers }],
        });
      },
    );
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
  options.print(`replayed ${replayed} event(s) from ${dlq} to ${original}`);
  return 0;
}

async function missingTopics(access: KafkaAccess): Promise<string[]> {
  const existing = new Set(await withAdmin(access, (admin) => admin.listTopics()));
  return APP_TOPICS.filter((t) => !existing.has(t));
}

export async function topicsCheck(
  access: KafkaAccess,
  options: { print: (line: string) => void },
): Promise<number> {
  const missing = await missingTopics(access);
  for (const t of missing) options.print(`missing: ${t}`);
  options.print(
    missing.length === 0 ? `all ${APP_TOPICS.length} topics exist` : `${missing.length} topic(s) missing`,
  );
  return missing.length === 0 ? 0 : 1;
}

/** For Kafka clusters without the Strimzi topic operator: make the missing topics (clients never do). */
export async function topicsCreate(
  access: KafkaAccess,
  options: { partitions: number; replicas: number; print: (line: string) => void },
): Promise<number> {
  const missing = await missingTopics(access);
  if (missing.length > 0)
    await withAdmin(access, (admin) =>
      admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: options.partitions,
          replicationFactor: options.replicas,
        })),
      }),
    );
  for (const t of missing) options.print(`created: ${t}`);
  options.print(`${missing.length} topic(s) created, ${APP_TOPICS.length - missing.length} already there`);
  return 0;
}
