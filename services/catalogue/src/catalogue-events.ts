// The events the catalogue emits (always through the outbox, in the transaction of the change):
// catalogue.changed for the search index, and file.status COMPLETED/FAILED for ingestion.
import { runFirst, sql } from '@kaboodle/platform';
import type { OutgoingEvent, Queryable } from '@kaboodle/platform';
import {
  ChangeOp,
  createEvent,
  encodeEvent,
  EntityType,
  eventKey,
  FileState,
  ProcessingStage,
  Topics,
} from '@kaboodle/proto';
import type { EventInit, TopicName } from '@kaboodle/proto';
import { documentProto, inventoryProto, kaboodleProto } from './catalogue-model.ts';
import type { KaboodleProtoInput } from './catalogue-model.ts';
import type { DocumentRow, InventoryRow } from './catalogue-model.ts';
import type { EntityKind } from './activity.repository.ts';

/** The next entity version (int8, a number from both adapters). */
async function nextVersion(q: Queryable): Promise<bigint> {
  const row = await runFirst(q, sql<{ v: number }>`SELECT nextval('entity_version_seq') AS v`);
  return BigInt(row!.v);
}

function outgoing<T extends TopicName>(topic: T, init: EventInit<T>): OutgoingEvent {
  const event = createEvent(topic, init);
  return { topic, key: eventKey(topic, event), value: encodeEvent(topic, event) };
}

export const ENTITY_TYPES: Record<EntityKind, EntityType> = {
  document: EntityType.DOCUMENT,
  inventory_item: EntityType.INVENTORY_ITEM,
};

export function documentUpserted(row: DocumentRow): OutgoingEvent {
  return outgoing(Topics.catalogueChanged, {
    ownerId: row.owner_id,
    entityType: EntityType.DOCUMENT,
    entityId: row.id,
    version: BigInt(row.version),
    op: ChangeOp.UPSERT,
    payload: { case: 'document', value: documentProto(row) },
  });
}

export function inventoryUpserted(row: InventoryRow): OutgoingEvent {
  return outgoing(Topics.catalogueChanged, {
    ownerId: row.owner_id,
    entityType: EntityType.INVENTORY_ITEM,
    entityId: row.id,
    version: BigInt(row.version),
    op: ChangeOp.UPSERT,
    payload: { case: 'inventoryItem', value: inventoryProto(row) },
  });
}

/** A delete takes the next version too, so it orders after every earlier upsert of that id. */
export async function entityDeleted(
  q: Queryable,
  kind: EntityKind,
  row: { id: string; owner_id: string },
): Promise<OutgoingEvent> {
  const version = await nextVersion(q);
  return outgoing(Topics.catalogueChanged, {
    ownerId: row.owner_id,
    entityType: ENTITY_TYPES[kind],
    entityId: row.id,
    version,
    op: ChangeOp.DELETE,
  });
}

/** A kaboodle after any change, with every member in order: search can filter by membership. */
export function kaboodleUpserted(k: KaboodleProtoInput): OutgoingEvent {
  return outgoing(Topics.catalogueChanged, {
    ownerId: k.row.owner_id,
    entityType: EntityType.KABOODLE,
    entityId: k.row.id,
    version: BigInt(k.row.version),
    op: ChangeOp.UPSERT,
    payload: { case: 'kaboodle', value: kaboodleProto(k) },
  });
}

/** A deleted kaboodle (its version was taken by the delete, after every earlier change). */
export async function kaboodleDeleted(
  q: Queryable,
  row: { id: string; owner_id: string },
): Promise<OutgoingEvent> {
  const version = await nextVersion(q);
  return outgoing(Topics.catalogueChanged, {
    ownerId: row.owner_id,
    entityType: EntityType.KABOODLE,
    entityId: row.id,
    version,
    op: ChangeOp.DELETE,
  });
}

/** "completed" means "it is stored": the catalogue, not processing, reports it. */
export function fileCompleted(f: {
  ownerId: string;
  fileId: string;
  attempt: number;
  kind: EntityKind;
  entityId: string;
}): OutgoingEvent {
  return outgoing(Topics.fileStatus, {
    ownerId: f.ownerId,
    fileId: f.fileId,
    attempt: f.attempt,
    status: FileState.COMPLETED,
    stage: ProcessingStage.DONE,
    progress: 100,
    resultType: ENTITY_TYPES[f.kind],
    resultId: f.entityId,
  });
}

export function fileFailed(f: {
  ownerId: string;
  fileId: string;
  attempt: number;
  reason: string;
}): OutgoingEvent {
  return outgoing(Topics.fileStatus, {
    ownerId: f.ownerId,
    fileId: f.fileId,
    attempt: f.attempt,
    status: FileState.FAILED,
    stage: ProcessingStage.DONE,
    progress: 100,
    error: f.reason,
  });
}
