// Picks the EventBus adapter by configuration alone: Kafka brokers given → Kafka, else in-process.
//
//   const bus = openEventBus({ brokers: config.KAFKA_BROKERS, clientId: 'kaboodle-ingestion', logger });
//   await bus.publish([{ topic: 'kaboodle.file.uploaded.v1', key: fileId, value: bytes }]);
//   const sub = await bus.subscribe({ group: 'processing', topics: ['kaboodle.file.uploaded.v1'],
//     concurrency: 2, handler: async (e) => (seen(e.id) ? 'skipped' : (await work(e), 'done')) });
//   checks: [{ name: 'event-bus', check: () => bus.ping() }];  stop: sub.close(), then bus.close()
//
// Handlers must be idempotent by `event.id` (delivery is at-least-once). `failed` and exhausted
// retries land on `<topic>.dlq` with the DLQ_HEADERS below. One bus per process: in `--target=all`
// every module must share the same in-process bus, or producer and consumer would not meet.
import type { Logger } from 'pino';
import type { EventBus } from '../ports/event-bus.ts';
import { createKafkaEventBus } from './kafka-event-bus.ts';
import type { KafkaEventBusOptions } from './kafka-event-bus.ts';
import { createMemoryEventBus } from './memory-event-bus.ts';

export { createKafkaEventBus, createMemoryEventBus };
export type { KafkaEventBusOptions } from './kafka-event-bus.ts';
export type { MemoryEventBusOptions } from './memory-event-bus.ts';
export { DLQ_HEADERS, EVENT_ID_HEADER } from './event-bus-delivery.ts';

export interface OpenEventBusOptions {
  /** KAFKA_BROKERS (host:port list); empty or absent: the in-process bus. */
  brokers?: string[] | string | undefined;
  /** Kafka client id, e.g. `kaboodle-ingestion`. */
  clientId: string;
  logger: Logger;
  /** Kafka-only settings (TLS and SASL from kafkaSecurity, idempotence); unused by the in-process bus. */
  kafka?: Omit<KafkaEventBusOptions, 'brokers' | 'clientId' | 'logger'>;
}

export function openEventBus(options: OpenEventBusOptions): EventBus {
  const brokers = Array.isArray(options.brokers) ? options.brokers.join(',') : (options.brokers ?? '');
  if (brokers.trim() !== '') {
    return createKafkaEventBus({
      ...options.kafka,
      brokers,
      clientId: options.clientId,
      logger: options.logger,
    });
  }
  return createMemoryEventBus({ logger: options.logger });
}
