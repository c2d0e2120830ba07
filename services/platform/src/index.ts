// The platform kit's public surface. One export line per area; see README.md for usage.
export * from './errors.ts';
export * from './ports/index.ts';
export type * from './module.ts';
export * from './auth/index.ts';
export * from './config/index.ts';
export * from './log/index.ts';
export * from './telemetry/index.ts';
export * from './http/index.ts';
export * from './grpc/index.ts';
export * from './adapters/open-database.ts';
export * from './adapters/open-blob-store.ts';
export * from './outbox/index.ts';
export * from './sql/index.ts';

// Also public: what the server composes and the contract tests exercise (no deep imports).
export { DLQ_HEADERS, EVENT_ID_HEADER, allEnded } from './adapters/event-bus-delivery.ts';
export { createKafkaEventBus } from './adapters/kafka-event-bus.ts';
export { kafkajsIdleTimersFixed } from './adapters/kafkajs-idle-timers.ts';
export { createMemoryEventBus } from './adapters/memory-event-bus.ts';
export { openEventBus } from './adapters/open-event-bus.ts';
export type { OpenEventBusOptions } from './adapters/open-event-bus.ts';
export { kafkaSecurity } from './adapters/kafka-security.ts';
