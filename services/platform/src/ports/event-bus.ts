// EventBus port: topics, keys, consumer groups, at-least-once delivery, per-key order,
// retry with backoff and a dead-letter topic. Adapters: kafka-event-bus.ts, memory-event-bus.ts.

export interface OutgoingEvent {
  topic: string;
  /** Entity id: events with the same key are delivered in publish order. */
  key: string;
  value: Uint8Array;
  /** String headers; trace context (traceparent) and event id are added by the bus when absent. */
  headers?: Record<string, string>;
}

export interface IncomingEvent {
  topic: string;
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
  /** Unique per published event (header `event-id`), stable across redeliveries: use it for idempotency. */
  id: string;
  /** 1 on first delivery, incremented on each retry. */
  attempt: number;
}

/**
 * What a handler says about an event (Immich JobStatus): `done` and `skipped` commit it;
 * `retry` redelivers after backoff up to maxAttempts, then dead-letters; `failed` dead-letters now.
 * A thrown error counts as `retry`.
 */
export type ConsumeOutcome = 'done' | 'skipped' | 'retry' | 'failed';

export type EventHandler = (event: IncomingEvent) => Promise<ConsumeOutcome>;

export interface SubscribeOptions {
  /** Consumer group: each event is handled by one member of each group. */
  group: string;
  topics: string[];
  handler: EventHandler;
  /** Attempts before dead-lettering (default 5). */
  maxAttempts?: number;
  /** Backoff before retry n (1-based) in ms (default 200 * 2^(n-1), capped at 30 s). */
  backoffMs?: (attempt: number) => number;
  /** Events handled at once across different keys (default 1). Same key is always sequential. */
  concurrency?: number;
  /**
   * Where a group that has committed nothing starts: the earliest retained event (default, so nothing
   * published before it existed is lost) or only events published from now on (a per-process
   * listener with its own group, such as processing's cancel signals).
   */
  startAt?: 'earliest' | 'latest';
}

export interface Subscription {
  /** Stop consuming; in-flight handlers finish first. */
  close(): Promise<void>;
  /**
   * Settles once consuming has stopped for good: resolves after close() (or the bus's close) has
   * finished; rejects when the subscription died on its own, so its owner can report the module
   * failed (`background()`) instead of serving on with nobody consuming. It dies when its handler
   * loop cannot go on (the delivery itself threw, not the handler: a handler's throw is a retry) or
   * the client gave up (Kafka: kafkajs' `consumer.crash` with `restart: false`, or a stop nobody
   * asked for that no restart follows). Broker errors the client retries and recovers from never
   * settle it. Always handled internally: an owner that never looks does not crash the process.
   */
  readonly ended: Promise<void>;
}

export interface EventBus {
  readonly kind: 'kafka' | 'memory';
  publish(events: OutgoingEvent[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Throws when the broker cannot be reached (used by /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Dead-letter topic for a topic: same name with a `.dlq` suffix. */
export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;

export const defaultBackoffMs = (attempt: number): number => Math.min(30_000, 200 * 2 ** (attempt - 1));
