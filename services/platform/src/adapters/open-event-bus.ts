// Picks the EventBus adapter by configuration alone: Kafka brokers given → Kafka, else in-process.
import type { Logger } from 'pino';
import type { EventBus } from '../ports/event-bus.ts';
import { createKafkaEventBus } from './kafka-event-bus.ts';
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
}

export function openEventBus(options: OpenEventBusOptions): EventBus {
  const brokers = Array.isArray(options.brokers) ? options.brokers.join(',') : (options.brokers ?? '');
  if (brokers.trim() !== '') {
    return createKafkaEventBus({ brokers, clientId: options.clientId, logger: options.logger });
  }
  return createMemoryEventBus({ logger: options.logger });
}
