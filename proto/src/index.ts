// @kaboodle/proto: the one home of Kaboodle's gRPC services and event messages
// (docs/conventions.md#11-protos-have-one-home). Services import messages, service descriptors and the topic
// map from here, never from copies.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { DescMessage, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import type { Money } from '../gen/kaboodle/common/v1/common_pb.js';
import { MoneySchema } from '../gen/kaboodle/common/v1/common_pb.js';
import {
  CatalogueChangedSchema,
  FileDeletedSchema,
  FileProcessedSchema,
  FileStatusSchema,
  FileUploadedSchema,
  SessionRevokedSchema,
  UserChangedSchema,
} from '../gen/kaboodle/events/v1/events_pb.js';

export * from '../gen/grpc/health/v1/health_pb.js';
export * from '../gen/kaboodle/common/v1/common_pb.js';
export * from '../gen/kaboodle/auth/v1/auth_pb.js';
export * from '../gen/kaboodle/ingestion/v1/ingestion_pb.js';
export * from '../gen/kaboodle/processing/v1/processing_pb.js';
export * from '../gen/kaboodle/catalogue/v1/catalogue_pb.js';
export * from '../gen/kaboodle/search/v1/search_pb.js';
export * from '../gen/kaboodle/events/v1/events_pb.js';

// The protobuf-es runtime, re-exported so services need no direct dependency on it.
export {
  clone,
  create,
  equals,
  fromBinary,
  fromJson,
  fromJsonString,
  isMessage,
  toBinary,
  toJson,
  toJsonString,
} from '@bufbuild/protobuf';
export type {
  DescMessage,
  DescMethod,
  DescService,
  JsonValue,
  MessageInitShape,
  MessageShape,
} from '@bufbuild/protobuf';
export type { GenService } from '@bufbuild/protobuf/codegenv2';
export {
  timestampDate,
  timestampFromDate,
  timestampFromMs,
  timestampMs,
  timestampNow,
} from '@bufbuild/protobuf/wkt';
export type { Timestamp } from '@bufbuild/protobuf/wkt';

/** Topic names; the version suffix changes only with an incompatible message (a new topic). */
export const Topics = {
  fileUploaded: 'kaboodle.file.uploaded.v1',
  fileStatus: 'kaboodle.file.status.v1',
  fileProcessed: 'kaboodle.file.processed.v1',
  fileDeleted: 'kaboodle.file.deleted.v1',
  catalogueChanged: 'kaboodle.catalogue.changed.v1',
  userChanged: 'kaboodle.user.changed.v1',
  sessionRevoked: 'kaboodle.session.revoked.v1',
} as const;

/** Topic name → the message schema of its values. */
export const eventSchemas = {
  [Topics.fileUploaded]: FileUploadedSchema,
  [Topics.fileStatus]: FileStatusSchema,
  [Topics.fileProcessed]: FileProcessedSchema,
  [Topics.fileDeleted]: FileDeletedSchema,
  [Topics.catalogueChanged]: CatalogueChangedSchema,
  [Topics.userChanged]: UserChangedSchema,
  [Topics.sessionRevoked]: SessionRevokedSchema,
} as const satisfies Record<string, DescMessage>;

export type TopicName = keyof typeof eventSchemas;
/** The message type published on a topic, e.g. `EventOf<'kaboodle.file.uploaded.v1'>` is FileUploaded. */
export type EventOf<T extends TopicName> = MessageShape<(typeof eventSchemas)[T]>;
export type EventInit<T extends TopicName> = MessageInitShape<(typeof eventSchemas)[T]>;

/** Every event message has these, so consumers can deduplicate and filter by owner. */
interface EventEnvelope {
  eventId: string;
  ownerId: string;
}

/**
 * The partition key of an event: the entity it is about, so events on one entity keep their order
 * (architecture.md: "keyed by the entity id").
 */
const eventKeys: { [T in TopicName]: (event: EventOf<T>) => string } = {
  [Topics.fileUploaded]: (e) => e.file?.fileId ?? '',
  [Topics.fileStatus]: (e) => e.fileId,
  [Topics.fileProcessed]: (e) => e.file?.fileId ?? '',
  [Topics.fileDeleted]: (e) => e.fileId,
  [Topics.catalogueChanged]: (e) => e.entityId,
  [Topics.userChanged]: (e) => e.ownerId,
  [Topics.sessionRevoked]: (e) => e.ownerId,
};

export function isTopicName(topic: string): topic is TopicName {
  return Object.hasOwn(eventSchemas, topic);
}

function schemaOf<T extends TopicName>(topic: T): (typeof eventSchemas)[T] {
  if (!isTopicName(topic)) {
    throw new Error(
      `unknown topic ${JSON.stringify(topic)}: expected one of ${Object.keys(eventSchemas).join(', ')}`,
    );
  }
  return eventSchemas[topic];
}

/**
 * Build an event for a topic, filling `eventId` (a UUID) and `occurredAt` (now) when absent.
 * Throws when the owner is missing: every event carries the owner's user id.
 */
export function createEvent<T extends TopicName>(topic: T, init: EventInit<T>): EventOf<T> {
  const schema = schemaOf(topic) as DescMessage;
  const event = create(schema, init as MessageInitShape<DescMessage>) as unknown as EventOf<T> &
    EventEnvelope & { occurredAt?: unknown };
  if (event.eventId === '') event.eventId = randomUUID();
  if (event.occurredAt === undefined) event.occurredAt = timestampNow();
  if (event.ownerId === '') throw new Error(`event for ${topic} has no owner_id`);
  return event;
}

/** The key to publish an event under; throws when the entity id is missing. */
export function eventKey<T extends TopicName>(topic: T, event: EventOf<T>): string {
  schemaOf(topic);
  const key = eventKeys[topic](event);
  if (key === '') throw new Error(`event for ${topic} has no entity id to key it by`);
  return key;
}

export function encodeEvent<T extends TopicName>(topic: T, event: EventOf<T>): Uint8Array {
  const schema = schemaOf(topic) as DescMessage;
  if (event.$typeName !== schema.typeName) {
    throw new Error(`topic ${topic} carries ${schema.typeName}, not ${event.$typeName}`);
  }
  return toBinary(schema, event as MessageShape<DescMessage>);
}

/** Decode an event's value; throws `decoding <topic>: <reason>` on bytes that are not that message. */
export function decodeEvent<T extends TopicName>(topic: T, bytes: Uint8Array): EventOf<T> {
  const schema = schemaOf(topic) as DescMessage;
  try {
    return fromBinary(schema, bytes) as unknown as EventOf<T>;
  } catch (err) {
    throw new Error(`decoding ${topic}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

const NANOS_PER_UNIT = 1_000_000_000;

/** A decimal amount (e.g. 12.5) as Money; rounds to the nano. */
export function moneyFromNumber(amount: number, currencyCode = 'USD'): Money {
  if (!Number.isFinite(amount)) throw new Error(`not an amount of money: ${amount}`);
  if (!/^[A-Z]{3}$/.test(currencyCode)) throw new Error(`not an ISO 4217 currency code: ${currencyCode}`);
  let units = Math.trunc(amount);
  let nanos = Math.round((amount - units) * NANOS_PER_UNIT);
  // Rounding can carry into the units (0.9999999999 → 1.0); units and nanos keep the same sign.
  if (Math.abs(nanos) >= NANOS_PER_UNIT) {
    units += Math.sign(nanos);
    nanos = 0;
  }
  return create(MoneySchema, { currencyCode, units: BigInt(units), nanos });
}

/** Money as a decimal number (precise to the cent for any realistic price). */
export function moneyToNumber(money: Money): number {
  return Number(money.units) + money.nanos / NANOS_PER_UNIT;
}
