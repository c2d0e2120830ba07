// What both EventBus adapters share so they behave alike: input checks, the event-id and trace
// headers added on publish, and the delivery of one event to a handler (outcome → commit, retry
// with backoff, or dead-letter), run inside a consumer span continuing the publisher's trace.
import { randomUUID } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { recordDeadLetter } from '../telemetry/operator-metrics.ts';
import { defaultBackoffMs } from '../ports/event-bus.ts';
import type {
  ConsumeOutcome,
  EventHandler,
  IncomingEvent,
  OutgoingEvent,
  SubscribeOptions,
} from '../ports/event-bus.ts';

/** Header carrying the event's unique id (stable across redeliveries and into the dead-letter topic). */
export const EVENT_ID_HEADER = 'event-id';

/** Headers a dead-lettered event carries, on top of its original headers, saying why it is there. */
export const DLQ_HEADERS = {
  /** The last error message, or what the handler's outcome was. */
  reason: 'dlq-reason',
  /** `failed` (handler gave up), `exhausted` (maxAttempts reached). */
  cause: 'dlq-cause',
  /** How many times the handler was called. */
  attempts: 'dlq-attempts',
  /** Topic, partition and offset the event was read from. */
  topic: 'dlq-original-topic',
  partition: 'dlq-original-partition',
  offset: 'dlq-original-offset',
  /** The consumer group that gave up on it. */
  group: 'dlq-group',
  /** ISO time it was dead-lettered. */
  at: 'dlq-at',
} as const;

const TRACER_NAME = '@kaboodle/platform/event-bus';
const OUTCOMES: ReadonlySet<string> = new Set(['done', 'skipped', 'retry', 'failed']);
// Kafka's own rule for topic names, applied to both adapters so a name that works in one works in both.
const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;
const MAX_KEY_LENGTH = 1024;

export function assertTopicName(topic: unknown, what = 'topic'): asserts topic is string {
  if (typeof topic !== 'string' || !TOPIC_NAME.test(topic) || topic === '.' || topic === '..') {
    throw new TypeError(
      `event bus: ${what} ${JSON.stringify(topic)} is not a valid topic name (1-249 of a-z A-Z 0-9 . _ -)`,
    );
  }
}

/**
 * Checks a publish call whole (so nothing is published when one event is bad) and returns copies
 * with `event-id` set when absent and the active trace context injected when no `traceparent` is given.
 */
export function prepareOutgoing(events: OutgoingEvent[]): Required<OutgoingEvent>[] {
  if (!Array.isArray(events)) throw new TypeError('event bus: publish takes an array of events');
  return events.map((event, i) => {
    const at = `publish: event ${i}`;
    if (event === null || typeof event !== 'object') throw new TypeError(`event bus: ${at} is not an object`);
    assertTopicName(event.topic, `${at}: topic`);
    if (typeof event.key !== 'string' || event.key.length === 0 || event.key.length > MAX_KEY_LENGTH) {
      throw new TypeError(
        `event bus: ${at}: key must be a non-empty string of at most ${MAX_KEY_LENGTH} chars`,
      );
    }
    if (!(event.value instanceof Uint8Array))
      throw new TypeError(`event bus: ${at}: value must be a Uint8Array`);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(event.headers ?? {})) {
      if (typeof value !== 'string') throw new TypeError(`event bus: ${at}: header ${name} must be a string`);
      headers[name] = value;
    }
    if (!headers[EVENT_ID_HEADER]) headers[EVENT_ID_HEADER] = randomUUID();
    if (!headers.traceparent) propagation.inject(context.active(), headers);
    // Copy the bytes: a caller reusing its buffer must not change an event already published.
    return { topic: event.topic, key: event.key, value: Uint8Array.from(event.value), headers };
  });
}

/** Runs fn in a producer span, so injected trace headers point at the publish. */
export function withPublishSpan<T>(
  system: string,
  events: OutgoingEvent[],
  fn: () => Promise<T>,
): Promise<T> {
  // Runs before prepareOutgoing checks the events, so it must not trip over bad input itself.
  const topics = Array.isArray(events) ? [...new Set(events.map((e) => String(e?.topic)))] : [];
  return trace.getTracer(TRACER_NAME).startActiveSpan(
    `publish ${topics.length === 1 ? topics[0] : `${topics.length} topics`}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': system,
        'messaging.operation.type': 'send',
        'messaging.destination.name': topics.join(','),
        'messaging.batch.message_count': events.length,
      },
    },
    async (span) => {
      try {
        return await fn();
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

export interface NormalisedSubscribeOptions {
  group: string;
  topics: string[];
  handler: EventHandler;
  maxAttempts: number;
  backoffMs: (attempt: number) => number;
  concurrency: number;
  startAt: 'earliest' | 'latest';
}

export function normaliseSubscribeOptions(options: SubscribeOptions): NormalisedSubscribeOptions {
  if (options === null || typeof options !== 'object')
    throw new TypeError('event bus: subscribe needs options');
  const { group, topics, handler } = options;
  if (typeof group !== 'string' || group.trim() === '' || group.length > 255) {
    throw new TypeError('event bus: subscribe: group must be a non-empty string of at most 255 chars');
  }
  if (!Array.isArray(topics) || topics.length === 0) {
    throw new TypeError('event bus: subscribe: topics must be a non-empty array');
  }
  for (const t of topics) assertTopicName(t, 'subscribe: topic');
  if (typeof handler !== 'function') throw new TypeError('event bus: subscribe: handler must be a function');
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new TypeError(`event bus: subscribe: maxAttempts must be an integer >= 1 (got ${maxAttempts})`);
  }
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`event bus: subscribe: concurrency must be an integer >= 1 (got ${concurrency})`);
  }
  const backoff = options.backoffMs ?? defaultBackoffMs;
  if (typeof backoff !== 'function')
    throw new TypeError('event bus: subscribe: backoffMs must be a function');
  const startAt = options.startAt ?? 'earliest';
  if (startAt !== 'earliest' && startAt !== 'latest')
    throw new TypeError(
      `event bus: subscribe: startAt must be 'earliest' or 'latest' (got ${String(startAt)})`,
    );
  return {
    group,
    topics: [...new Set(topics)],
    handler,
    maxAttempts,
    concurrency,
    startAt,
    // A bad backoff (NaN, negative) must not spin or stall a partition: clamp to [0, 5 min].
    backoffMs: (attempt) => {
      const ms = Number(backoff(attempt));
      return Number.isFinite(ms) ? Math.min(Math.max(0, ms), 300_000) : defaultBackoffMs(attempt);
    },
  };
}

/** A subscription's `ended` promise and the two ways it settles (the first call wins). */
export interface Ending {
  readonly ended: Promise<void>;
  /** Closed as asked. */
  closed(): void;
  /** Died on its own: consuming cannot go on. */
  failed(err: unknown): void;
}

export function createEnding(): Ending {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const ended = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  // Marked handled: a subscriber that never looks at `ended` must not turn a failure into an
  // unhandled rejection (which ends the process); whoever awaits it still sees the rejection.
  ended.catch(() => {});
  return {
    ended,
    closed: () => resolve(),
    failed: (err) => reject(err instanceof Error ? err : new Error(String(err))),
  };
}

/**
 * One promise for several loops' ends (subscriptions' `ended`, an outbox's `ended()`): rejects with
 * the first that dies, resolves when all have ended as asked. A module's `background()`.
 */
export function allEnded(...ends: Array<Promise<unknown> | undefined>): Promise<void> {
  const all = Promise.all(ends).then(() => undefined);
  all.catch(() => {}); // handled: the caller may look only later
  return all;
}

/** Counting semaphore: bounds handlers running at once for one subscription. */
export interface Semaphore {
  /** Resolves true with a permit, or false when the signal aborts first. */
  acquire(signal: AbortSignal): Promise<boolean>;
  release(): void;
}

export function createSemaphore(permits: number): Semaphore {
  let free = permits;
  const waiting: Array<() => void> = [];
  return {
    acquire(signal) {
      if (signal.aborted) return Promise.resolve(false);
      if (free > 0) {
        free--;
        return Promise.resolve(true);
      }
      return new Promise((resolve) => {
        const grant = (): void => {
          signal.removeEventListener('abort', onAbort);
          resolve(true);
        };
        const onAbort = (): void => {
          const i = waiting.indexOf(grant);
          if (i >= 0) waiting.splice(i, 1);
          resolve(false);
        };
        waiting.push(grant);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    release() {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
}

/**
 * Waits ms, or less when the signal aborts (resolves false then). While waiting it calls keepAlive
 * every keepAliveMs (Kafka: the group heartbeat); when keepAlive throws the wait ends with false too.
 */
export async function abortableSleep(
  ms: number,
  signal: AbortSignal,
  keepAlive?: { fn: () => Promise<void>; everyMs: number },
): Promise<boolean> {
  const until = Date.now() + ms;
  while (!signal.aborted) {
    const left = until - Date.now();
    if (left <= 0) return true;
    const slice = keepAlive ? Math.min(left, keepAlive.everyMs) : left;
    const slept = await new Promise<boolean>((resolve) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      }, slice);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    if (!slept) return false;
    if (keepAlive && until - Date.now() > 0) {
      try {
        await keepAlive.fn();
      } catch {
        return false;
      }
    }
  }
  return false;
}

/** An event as read from a partition, before it is handed to a handler. */
export interface DeliveryRecord {
  topic: string;
  partition: number;
  /** Decimal string: Kafka offsets are 64-bit. */
  offset: string;
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
}

export type DeliveryResult =
  | { kind: 'commit'; outcome: 'done' | 'skipped'; attempts: number }
  | { kind: 'dead-letter'; headers: Record<string, string>; attempts: number }
  /** Stopped (close, rebalance) before an outcome was decided: do not commit; `nextAttempt` resumes the count. */
  | { kind: 'aborted'; nextAttempt: number };

export interface DeliveryOptions {
  system: 'kafka' | 'memory';
  subscription: NormalisedSubscribeOptions;
  permits: Semaphore;
  logger: Logger;
  /** Aborts backoff and permit waits (never a running handler). */
  signal: AbortSignal;
  /** Attempt number of the first call (a redelivery after a handover continues the count). */
  firstAttempt?: number;
  /** Called while a handler runs and while backing off, so the group membership stays alive (Kafka heartbeats). */
  keepAlive?: { fn: () => Promise<void>; everyMs: number };
}

/** Event id: the header when present, else the event's place in the log (stable across redeliveries). */
export function eventIdOf(record: DeliveryRecord): string {
  return record.headers[EVENT_ID_HEADER] || `${record.topic}/${record.partition}/${record.offset}`;
}

/**
 * Hands one event to the handler until its outcome is decided: done/skipped → commit;
 * failed → dead-letter now; retry or a throw → back off and call again, dead-lettering after
 * maxAttempts. The caller commits (and publishes the dead letter) only after this resolves.
 */
export async function deliver(record: DeliveryRecord, options: DeliveryOptions): Promise<DeliveryResult> {
  const { subscription, permits, signal, logger } = options;
  const id = eventIdOf(record);
  // Plain fields, not logger.child(): a child per event costs more than the delivery itself.
  const about = { topic: record.topic, group: subscription.group, eventId: id, key: record.key };
  let lastReason = 'handler asked to retry';
  for (let attempt = options.firstAttempt ?? 1; ; attempt++) {
    if (!(await permits.acquire(signal))) return { kind: 'aborted', nextAttempt: attempt };
    let outcome: ConsumeOutcome;
    let thrown: unknown = undefined;
    // Keep the membership alive through a long handler too (kafkajs heartbeats only between events);
    // a failed beat is not fatal here: the commit after the handler is what a rebalance refuses.
    const beat = options.keepAlive
      ? setInterval(() => void options.keepAlive!.fn().catch(() => {}), options.keepAlive.everyMs)
      : undefined;
    try {
      outcome = await runInConsumerSpan(record, id, attempt, options);
    } catch (err) {
      // A thrown error is a fault, not a decision: it counts as `retry` (at-least-once).
      outcome = 'retry';
      thrown = err;
      logger.warn({ ...about, err, attempt }, 'event handler threw; will retry');
    } finally {
      clearInterval(beat);
      permits.release();
    }
    if (outcome === 'retry') {
      lastReason =
        thrown === undefined
          ? 'handler asked to retry'
          : thrown instanceof Error
            ? thrown.message
            : String(thrown);
    }

    if (outcome === 'done' || outcome === 'skipped') return { kind: 'commit', outcome, attempts: attempt };
    if (outcome === 'failed' || attempt >= subscription.maxAttempts) {
      const cause = outcome === 'failed' ? 'failed' : 'exhausted';
      const reason =
        cause === 'failed' ? 'handler returned failed' : `gave up after ${attempt} attempt(s): ${lastReason}`;
      logger.error({ ...about, attempt, cause, reason }, 'event dead-lettered');
      recordDeadLetter(record.topic, subscription.group);
      return {
        kind: 'dead-letter',
        attempts: attempt,
        headers: {
          ...record.headers,
          [EVENT_ID_HEADER]: id,
          [DLQ_HEADERS.reason]: reason,
          [DLQ_HEADERS.cause]: cause,
          [DLQ_HEADERS.attempts]: String(attempt),
          [DLQ_HEADERS.topic]: record.topic,
          [DLQ_HEADERS.partition]: String(record.partition),
          [DLQ_HEADERS.offset]: record.offset,
          [DLQ_HEADERS.group]: subscription.group,
          [DLQ_HEADERS.at]: new Date().toISOString(),
        },
      };
    }
    const wait = subscription.backoffMs(attempt);
    logger.debug({ ...about, attempt, backoffMs: wait }, 'event will be redelivered after backoff');
    if (!(await abortableSleep(wait, signal, options.keepAlive)))
      return { kind: 'aborted', nextAttempt: attempt + 1 };
  }
}

async function runInConsumerSpan(
  record: DeliveryRecord,
  id: string,
  attempt: number,
  options: DeliveryOptions,
): Promise<ConsumeOutcome> {
  const event: IncomingEvent = {
    topic: record.topic,
    key: record.key,
    value: record.value,
    headers: { ...record.headers },
    id,
    attempt,
  };
  // The handler continues the publisher's trace: its span is a child of the injected context.
  const parent = propagation.extract(ROOT_CONTEXT, record.headers);
  return trace.getTracer(TRACER_NAME).startActiveSpan(
    `process ${record.topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': options.system,
        'messaging.operation.type': 'process',
        'messaging.destination.name': record.topic,
        'messaging.destination.partition.id': String(record.partition),
        'messaging.consumer.group.name': options.subscription.group,
        'messaging.message.id': id,
        'messaging.kafka.offset': record.offset,
        'kaboodle.event.attempt': attempt,
      },
    },
    parent,
    async (span) => {
      try {
        const outcome = await options.subscription.handler(event);
        if (typeof outcome !== 'string' || !OUTCOMES.has(outcome)) {
          throw new Error(
            `handler returned ${JSON.stringify(outcome)}, not one of done|skipped|retry|failed`,
          );
        }
        span.setAttribute('kaboodle.event.outcome', outcome);
        return outcome;
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}
