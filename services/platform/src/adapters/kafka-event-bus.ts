// EventBus on Kafka (kafkajs 2.2.4). Producer: acks=-1, idempotent where the brokers allow it
// (`idempotent: 'auto'` falls back to one request in flight when they refuse, as librdkafka's mock
// broker does: it reports controller id 0), so per-key order and no duplicates survive retries.
// Clients never create topics (KafkaTopic resources or `kaboodle topics create` do); TLS and SASL
// (SCRAM, PLAIN, OAUTHBEARER) from kafka-security.ts. Consumers: one kafkajs consumer per
// subscription, offsets committed one by one only after the handler's outcome is decided; retries
// back off in place (heartbeating), then dead-letter to `<topic>.dlq`.
import './kafkajs-idle-timers.ts'; // before kafkajs makes a connection: see the file
import { CompressionTypes, Kafka, Partitioners, logLevel as KafkaLogLevel } from 'kafkajs';
import type { Admin, Consumer, IHeaders, KafkaMessage, LogEntry, Producer, SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';
import type { Logger } from 'pino';
import { childLogger } from '../log/logger.ts';
import { observeGauge } from '../telemetry/operator-metrics.ts';
import type { GaugeReading } from '../telemetry/operator-metrics.ts';
import { UnavailableError } from '../errors.ts';
import { deadLetterTopic } from '../ports/event-bus.ts';
import type { EventBus, OutgoingEvent, SubscribeOptions, Subscription } from '../ports/event-bus.ts';
import {
  createEnding,
  createSemaphore,
  deliver,
  normaliseSubscribeOptions,
  prepareOutgoing,
  withPublishSpan,
} from './event-bus-delivery.ts';
import type { DeliveryRecord, DeliveryResult } from './event-bus-delivery.ts';

/** Batches at least this big are sent gzip-compressed. */
const COMPRESS_FROM_BYTES = 16 * 1024;

export interface KafkaEventBusOptions {
  /** Bootstrap servers: `host:port` list, or one comma-separated string (the KAFKA_BROKERS form). */
  brokers: string[] | string;
  clientId: string;
  logger: Logger;
  /**
   * Consumer session timeout (default 10 s). A member that stops heartbeating is dropped after it;
   * a rejoin waits about as long, so it is kept short (kafkajs' 30 s default makes restarts slow).
   */
  sessionTimeoutMs?: number;
  /** Heartbeat interval (default 1 s); also how often a backing-off consumer heartbeats. */
  heartbeatIntervalMs?: number;
  /** How long ping() waits for the cluster to answer (default 3 s). */
  pingTimeoutMs?: number;
  /**
   * How long a subscription's close() waits for the consumer to leave its group once its handlers
   * have finished (default 5 s). Handlers in flight are always waited for, however long they take.
   */
  closeTimeoutMs?: number;
  /** TCP connect timeout (default 3 s). */
  connectionTimeoutMs?: number;
  /** TLS to the brokers (true, or options with a private CA / client certificate). */
  ssl?: boolean | ConnectionOptions;
  sasl?: SASLOptions;
  /**
   * The idempotent producer (no duplicates or reordering on retries): `auto` (default) uses it when
   * the brokers accept it, else falls back to one request in flight; `true` insists; `false` never.
   */
  idempotent?: boolean | 'auto';
  /**
   * Let the client create a topic it names (default false: topics are provisioned, and a typo must
   * fail, not create a topic). Tests on a throwaway broker turn it on for their own topics.
   */
  allowAutoTopicCreation?: boolean;
}

export interface KafkaEventBus extends EventBus {
  /** Whether the idempotent producer is in use; undefined until the producer first connected. */
  readonly idempotent: boolean | undefined;
  /** Events waiting per shared consumer group of this process and topic (the lag metric). */
  lag(): Promise<GaugeReading[]>;
}

// Batches a subscription may hold at once while one partition backs off. Handlers running at once
// are still bounded by `concurrency`; this only stops one retrying key from idling every partition.
const MIN_PARTITIONS_IN_FLIGHT = 8;

// kafkajs reports a crash after stopping the consumer and leaving the cluster; leaving waits for the
// requests in flight (requestTimeout, 30 s), so a stop with no crash event after twice that is final.
const STOP_WITHOUT_CRASH_MS = 60_000;

export function createKafkaEventBus(options: KafkaEventBusOptions): KafkaEventBus {
  const brokers = parseBrokers(options.brokers);
  if (typeof options.clientId !== 'string' || options.clientId.trim() === '') {
    throw new TypeError('kafka event bus: clientId must be a non-empty string');
  }
  const sessionTimeout = positiveInt(options.sessionTimeoutMs ?? 10_000, 'sessionTimeoutMs');
  const heartbeatInterval = positiveInt(options.heartbeatIntervalMs ?? 1_000, 'heartbeatIntervalMs');
  const pingTimeout = positiveInt(options.pingTimeoutMs ?? 3_000, 'pingTimeoutMs');
  const closeTimeout = positiveInt(options.closeTimeoutMs ?? 5_000, 'closeTimeoutMs');
  const connectionTimeout = positiveInt(options.connectionTimeoutMs ?? 3_000, 'connectionTimeoutMs');
  if (heartbeatInterval >= sessionTimeout) {
    throw new TypeError('kafka event bus: heartbeatIntervalMs must be below sessionTimeoutMs');
  }
  const logger = childLogger(options.logger, 'event-bus', { bus: 'kafka' });

  const autoCreate = options.allowAutoTopicCreation ?? false;
  const idempotent = options.idempotent ?? 'auto';
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers,
    connectionTimeout,
    ...(options.ssl !== undefined && { ssl: options.ssl }),
    ...(options.sasl && { sasl: options.sasl }),
    // Below debug, kafkajs need not even build its info lines (they go to pino debug, see logKafka).
    logLevel: logger.isLevelEnabled('debug') ? KafkaLogLevel.DEBUG : KafkaLogLevel.WARN,
    logCreator: () => (entry: LogEntry) => logKafka(logger, entry),
    retry: { initialRetryTime: 100, retries: 8 },
  });

  let producer: Producer | null = null;
  let producerReady: Promise<Producer> | null = null;
  let admin: Admin | null = null;
  let adminReady: Promise<Admin> | null = null;
  const subscriptions = new Set<{
    close(): Promise<void>;
    group: string;
    topics: string[];
    shared: boolean;
  }>();
  let closed = false;

  /**
   * Events waiting per consumer group and topic: the partitions' end offsets minus the group's
   * committed ones. Only shared groups (per-process listeners start at the latest event anyway).
   */
  async function lag(): Promise<GaugeReading[]> {
    const admin = await connectedAdmin();
    const readings: GaugeReading[] = [];
    const groups = new Map<string, Set<string>>();
    for (const s of subscriptions)
      if (s.shared) groups.set(s.group, new Set([...(groups.get(s.group) ?? []), ...s.topics]));
    for (const [groupId, topics] of groups) {
      const committed = await admin.fetchOffsets({ groupId, topics: [...topics] });
      for (const { topic, partitions } of committed) {
        const ends = await admin.fetchTopicOffsets(topic);
        let waiting = 0;
        for (const end of ends) {
          const at = partitions.find((p) => p.partition === end.partition)?.offset ?? '-1';
          const from = at === '-1' ? BigInt(end.low) : BigInt(at);
          const behind = BigInt(end.high) - from;
          if (behind > 0n) waiting += Number(behind);
        }
        readings.push({ value: waiting, attributes: { group: groupId, topic } });
      }
    }
    return readings;
  }
  // kaboodle_messaging_consumer_lag{group, topic}
  const stopLagGauge = observeGauge(
    'kaboodle.messaging.consumer.lag',
    'Events published but not yet handled, per consumer group and topic',
    lag,
  );

  /** Whether the idempotent producer is in use (known after the first connect). */
  let idempotentInUse: boolean | undefined;

  function makeProducer(asIdempotent: boolean): Producer {
    return kafka.producer({
      allowAutoTopicCreation: autoCreate,
      idempotent: asIdempotent,
      // Idempotent: up to 5 in flight keep order (sequence numbers). Otherwise one, or a retried
      // request could overtake the next.
      maxInFlightRequests: asIdempotent ? 5 : 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      ...(asIdempotent && { retry: { initialRetryTime: 100, retries: 3 } }),
    });
  }

  /** Connects lazily, once; a failed connect is retried by the next call. */
  function connectedProducer(): Promise<Producer> {
    producerReady ??= (async () => {
      if (idempotent !== false) {
        const candidate = makeProducer(true);
        try {
          // The idempotent connect asks a broker for a producer id; brokers that cannot answer
          // (old ones, or librdkafka's mock) fail it within this bound.
          await withTimeout(candidate.connect(), 8_000, 'no producer id within 8 s');
          producer = candidate;
          idempotentInUse = true;
          return candidate;
        } catch (err) {
          await candidate.disconnect().catch(() => {});
          if (idempotent === true) throw err;
          logger.warn(
            { err: (err as Error).message },
            'kafka: the brokers refused the idempotent producer; using one request in flight instead',
          );
        }
      }
      producer = makeProducer(false);
      await producer.connect();
      idempotentInUse = false;
      return producer;
    })().catch((err: unknown) => {
      producerReady = null;
      throw err;
    });
    return producerReady;
  }

  function connectedAdmin(): Promise<Admin> {
    adminReady ??= (async () => {
      // No retries: ping() must answer within its timeout, not after kafkajs' backoff schedule.
      admin = kafka.admin({ retry: { retries: 0 } });
      await admin.connect();
      return admin;
    })().catch((err: unknown) => {
      adminReady = null;
      throw err;
    });
    return adminReady;
  }

  async function send(events: Required<OutgoingEvent>[]): Promise<void> {
    const byTopic = new Map<string, { key: string; value: Buffer; headers: Record<string, string> }[]>();
    for (const e of events) {
      const list = byTopic.get(e.topic) ?? [];
      list.push({
        key: e.key,
        value: Buffer.from(e.value.buffer, e.value.byteOffset, e.value.byteLength),
        headers: e.headers,
      });
      byTopic.set(e.topic, list);
    }
    const p = await connectedProducer();
    // Analysed documents carry their text and vectors: gzip keeps those batches well under the
    // brokers' message size limit (1 MB by default); small status events are not worth compressing.
    const bytes = events.reduce((n, e) => n + e.value.byteLength, 0);
    await p.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      ...(bytes >= COMPRESS_FROM_BYTES ? { compression: CompressionTypes.GZIP } : {}),
    });
  }

  async function subscribe(subscribeOptions: SubscribeOptions): Promise<Subscription> {
    if (closed) throw new Error('kafka event bus: subscribe after close');
    const sub = normaliseSubscribeOptions(subscribeOptions);
    const log = logger.child({ group: sub.group });
    const permits = createSemaphore(sub.concurrency);
    const stop = new AbortController();
    // Attempt counts of events whose delivery stopped mid-retry (rebalance), keyed topic/partition/offset.
    const pending = new Map<string, number>();
    // Deliveries (handler calls and their backoffs) under way: close() waits for these.
    const deliveries = new Set<Promise<unknown>>();
    const consumer: Consumer = kafka.consumer({
      groupId: sub.group,
      sessionTimeout,
      rebalanceTimeout: sessionTimeout,
      heartbeatInterval,
      maxWaitTimeInMs: 500,
      allowAutoTopicCreation: autoCreate,
      retry: { initialRetryTime: 200, retries: 10 },
    });
    const ending = createEnding();
    let closing: Promise<void> | null = null;
    const subscription = {
      group: sub.group,
      topics: sub.topics,
      shared: sub.startAt !== 'latest',
      ended: ending.ended,
      async close(): Promise<void> {
        await teardown();
        if (!failure) ending.closed();
      },
    };
    /** Why the subscription died on its own, once it has. */
    let failure: Error | undefined;
    /** Armed by a stop nobody asked for; a crash event (restart or not) says what follows. */
    let unaskedStop: NodeJS.Timeout | undefined;
    // Consuming cannot go on: leave the group as close() does, then reject `ended`.
    const giveUp = (err: Error): void => {
      if (closing) return;
      failure = err;
      log.error({ err }, 'consumer gave up; subscription ended');
      void teardown().then(() => ending.failed(err));
    };
    consumer.on(consumer.events.CRASH, (e) => {
      const { error, restart } = e.payload;
      clearTimeout(unaskedStop);
      log.error(
        { err: error, restart },
        restart ? 'consumer crashed; kafkajs restarts it' : 'consumer crashed',
      );
      // With restart, kafkajs starts the consumer again after a backoff (a broker away, a rebalance):
      // transient. Without, it has given up on an error it does not retry (authorisation, a bad group).
      if (!restart)
        giveUp(new Error(`kafka consumer of group ${sub.group} crashed: ${error.message}`, { cause: error }));
    });
    consumer.on(consumer.events.STOP, () => {
      if (closing) return;
      // kafkajs stops the consumer itself before reporting a crash; a crash event must follow (it
      // decides). None within STOP_WITHOUT_CRASH_MS means its crash handling failed and nothing
      // will restart it.
      clearTimeout(unaskedStop);
      unaskedStop = setTimeout(
        () => giveUp(new Error(`kafka consumer of group ${sub.group} stopped and was not restarted`)),
        STOP_WITHOUT_CRASH_MS,
      );
      unaskedStop.unref();
    });

    try {
      await consumer.connect();
      // A new group reads from the earliest retained event (none published before it existed is
      // lost) unless it asked for the latest only.
      await consumer.subscribe({ topics: sub.topics, fromBeginning: sub.startAt !== 'latest' });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: Math.max(sub.concurrency, MIN_PARTITIONS_IN_FLIGHT),
        eachBatch: async ({
          batch,
          resolveOffset,
          heartbeat,
          commitOffsetsIfNecessary,
          isRunning,
          isStale,
        }) => {
          const { topic, partition } = batch;
          for (const message of batch.messages) {
            if (!isRunning() || isStale() || stop.signal.aborted) return;
            const record = toRecord(topic, partition, message);
            const pendingKey = `${topic}/${partition}/${message.offset}`;
            const delivery: Promise<DeliveryResult> = deliver(record, {
              system: 'kafka',
              subscription: sub,
              permits,
              logger: log,
              signal: stop.signal,
              firstAttempt: pending.get(pendingKey) ?? 1,
              keepAlive: { fn: heartbeat, everyMs: heartbeatInterval },
            });
            deliveries.add(delivery);
            let result: DeliveryResult;
            try {
              result = await delivery.finally(() => deliveries.delete(delivery));
            } catch (err) {
              // The delivery itself threw (not the handler: its throws are retries), so the same
              // event would throw again on every redelivery: this loop cannot go on. Not thrown to
              // kafkajs, which would retry and restart it forever; uncommitted, so nothing is lost.
              giveUp(err instanceof Error ? err : new Error(String(err)));
              return;
            }
            if (result.kind === 'aborted') {
              // Not committed: this member (or the partition's next owner) redelivers it.
              pending.set(pendingKey, result.nextAttempt);
              return;
            }
            pending.delete(pendingKey);
            if (result.kind === 'dead-letter') {
              // Dead letter first, commit second: a crash between them re-handles, never loses.
              await send([
                {
                  topic: deadLetterTopic(topic),
                  key: record.key,
                  value: record.value,
                  headers: result.headers,
                },
              ]);
            }
            resolveOffset(message.offset);
            await commitOffsetsIfNecessary({
              topics: [
                { topic, partitions: [{ partition, offset: (BigInt(message.offset) + 1n).toString() }] },
              ],
            });
            await heartbeat();
          }
        },
      });
    } catch (err) {
      closing = Promise.resolve(); // a failed subscribe throws; its stop is not a failure to report
      await consumer.disconnect().catch(() => {});
      throw new UnavailableError(
        `subscribing group ${sub.group} to ${sub.topics.join(', ')}: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    log.debug({ topics: sub.topics }, 'subscribed');

    function teardown(): Promise<void> {
      clearTimeout(unaskedStop);
      closing ??= (async () => {
        stop.abort(); // ends backoffs now; handlers already running finish
        // disconnect() stops the runner, which waits for the batches in progress, then leaves the group.
        const disconnected = consumer.disconnect().then(
          () => true,
          (err: unknown) => (log.warn({ err }, 'leaving the consumer group failed'), true),
        );
        // Handlers are drained whatever the broker does; leaving the group is bounded, because with
        // the broker gone kafkajs would retry for tens of seconds (the broker drops us after the session).
        await Promise.allSettled([...deliveries]);
        let timer: NodeJS.Timeout | undefined;
        const left = await Promise.race([
          disconnected,
          new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), closeTimeout))),
        ]);
        clearTimeout(timer);
        if (!left)
          log.warn(
            { closeTimeoutMs: closeTimeout },
            'consumer did not leave its group in time; closing anyway',
          );
        subscriptions.delete(subscription);
        log.debug('unsubscribed');
      })();
      return closing;
    }

    subscriptions.add(subscription);
    return subscription;
  }

  return {
    kind: 'kafka',
    get idempotent() {
      return idempotentInUse;
    },

    async publish(events: OutgoingEvent[]): Promise<void> {
      if (closed) throw new Error('kafka event bus: publish after close');
      await withPublishSpan('kafka', events, async () => {
        const prepared = prepareOutgoing(events);
        if (prepared.length === 0) return;
        try {
          await send(prepared);
        } catch (err) {
          throw new UnavailableError(
            `publishing ${prepared.length} event(s) to Kafka: ${(err as Error).message}`,
            {
              cause: err,
            },
          );
        }
      });
    },

    subscribe,

    async ping(): Promise<void> {
      if (closed) throw new Error('kafka event bus is closed');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${pingTimeout} ms`)), pingTimeout);
      });
      try {
        // describeCluster: a metadata request every broker answers (the mock lacks describeGroups).
        await Promise.race([connectedAdmin().then((a) => a.describeCluster()), timeout]);
      } catch (err) {
        // Drop the admin client so the next ping reconnects instead of reusing a dead socket.
        const stale = admin;
        admin = null;
        adminReady = null;
        void stale?.disconnect().catch(() => {});
        throw new UnavailableError(`kafka at ${brokers.join(',')}: ${(err as Error).message}`, {
          cause: err,
        });
      } finally {
        clearTimeout(timer);
      }
    },

    lag,

    async close(): Promise<void> {
      closed = true;
      stopLagGauge();
      await Promise.all([...subscriptions].map((s) => s.close()));
      await Promise.all([producer?.disconnect(), admin?.disconnect()].map((p) => p?.catch(() => {})));
    },
  };
}

function toRecord(topic: string, partition: number, message: KafkaMessage): DeliveryRecord {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key ? message.key.toString('utf8') : '',
    value: message.value
      ? new Uint8Array(message.value.buffer, message.value.byteOffset, message.value.byteLength)
      : new Uint8Array(),
    headers: headersToStrings(message.headers),
  };
}

function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    // A repeated header arrives as an array; the port has one value per name: keep the last.
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value !== undefined) out[name] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
  return out;
}

function parseBrokers(brokers: string[] | string): string[] {
  const list = (Array.isArray(brokers) ? brokers : String(brokers ?? '').split(','))
    .map((b) => String(b).trim())
    .filter((b) => b !== '');
  if (list.length === 0)
    throw new TypeError('kafka event bus: brokers is empty (expected host:port[,host:port…])');
  for (const b of list) {
    if (!/^[^\s:/]+:\d{1,5}$/.test(b) && !/^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(b)) {
      throw new TypeError(`kafka event bus: broker ${JSON.stringify(b)} is not host:port`);
    }
  }
  return list;
}

function withTimeout<T>(promise: Promise<T>, ms: number, reason: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(reason)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new TypeError(`kafka event bus: ${name} must be a positive integer (got ${value})`);
  }
  return value;
}

/** kafkajs' log entries into pino, with its namespace and details kept as fields. */
function logKafka(logger: Logger, entry: LogEntry): void {
  const {
    message,
    timestamp: _t,
    logger: _l,
    ...fields
  } = entry.log as LogEntry['log'] & { logger?: string };
  const bound = { kafkajs: entry.namespace, ...fields };
  switch (entry.level) {
    case KafkaLogLevel.ERROR:
      logger.error(bound, message);
      break;
    case KafkaLogLevel.WARN:
      logger.warn(bound, message);
      break;
    case KafkaLogLevel.INFO:
      // kafkajs narrates joins and pauses at info; keep them out of a service's info stream.
      logger.debug(bound, message);
      break;
    default:
      logger.trace(bound, message);
  }
}
