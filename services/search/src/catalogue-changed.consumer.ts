// Keeps the index in step with the catalogue: kaboodle.catalogue.changed.v1 upserts and deletes
// documents and inventory items, and kaboodles' memberships (so a search can keep to one kaboodle);
// kaboodle.user.changed.v1 DELETE removes everything of that user.
// Idempotent and ordered per entity: the bus delivers one entity's events in order, and the index's
// version guard ignores a version it already holds (redelivery, or a rebuild that got there first).
// Handlers run concurrently across entities and meet in the write-behind buffer (one batched write).
import type { ConsumeOutcome, EventBus, IncomingEvent, Logger, Subscription } from '@kaboodle/platform';
import { ChangeOp, decodeEvent, EntityType, Topics } from '@kaboodle/proto';
import type { CatalogueChanged } from '@kaboodle/proto';
import type { IndexedEntityType, SearchIndex } from './index/search-index.port.ts';
import type { IndexWriter } from './index-writer.ts';
import {
  documentToIndexed,
  inventoryItemToIndexed,
  kaboodleToIndexed,
  UnindexableEntityError,
} from './indexed-entity.ts';

export const SEARCH_CONSUMER_GROUP = 'search';

const TYPES: Partial<Record<EntityType, IndexedEntityType>> = {
  [EntityType.DOCUMENT]: 'document',
  [EntityType.INVENTORY_ITEM]: 'inventory_item',
};

export interface CatalogueChangesDeps {
  writer: IndexWriter;
  index: Pick<SearchIndex, 'deleteOwner' | 'kaboodles'>;
  dimensions: number;
  logger: Logger;
  /** Told when an owner's entities were all removed (user deleted). */
  onOwnerRemoved?: (ownerId: string) => void;
  /** Told when one of an owner's kaboodles changed (searches filtered by it answer differently). */
  onKaboodleChanged?: (ownerId: string) => void;
}

/** The handler alone (unit tests call it with events; subscribeCatalogueChanges wires it to the bus). */
export function createCatalogueChangesHandler(
  deps: CatalogueChangesDeps,
): (event: IncomingEvent) => Promise<ConsumeOutcome> {
  const { writer, logger } = deps;

  /** Bytes that are not the topic's message will never decode: dead-letter them now, not after retries. */
  function decode<T extends typeof Topics.catalogueChanged | typeof Topics.userChanged>(
    event: IncomingEvent,
    topic: T,
  ) {
    try {
      return decodeEvent(topic, event.value);
    } catch (err) {
      logger.warn({ err, eventId: event.id, topic }, 'undecodable event');
      return undefined;
    }
  }

  async function catalogueChanged(event: IncomingEvent): Promise<ConsumeOutcome> {
    const change = decode(event, Topics.catalogueChanged);
    if (!change) return 'failed';
    const entityType = TYPES[change.entityType];
    if (!entityType && change.entityType !== EntityType.KABOODLE) return 'skipped';
    if (!change.ownerId || !change.entityId) {
      logger.warn({ eventId: event.id }, 'catalogue.changed without owner or entity id');
      return 'failed';
    }
    if (!entityType) return kaboodleChanged(event, change);
    if (change.op === ChangeOp.DELETE) {
      const result = await writer.delete({
        entityType,
        id: change.entityId,
        ownerId: change.ownerId,
        version: Number(change.version),
      });
      return result === 'applied' ? 'done' : 'skipped';
    }
    if (change.op !== ChangeOp.UPSERT) return 'skipped';
    const payload = change.payload;
    let entity;
    try {
      if (entityType === 'document' && payload.case === 'document') {
        entity = documentToIndexed(payload.value, deps.dimensions);
      } else if (entityType === 'inventory_item' && payload.case === 'inventoryItem') {
        entity = inventoryItemToIndexed(payload.value, deps.dimensions);
      } else {
        throw new UnindexableEntityError(
          `a ${entityType} change carries a ${payload.case ?? 'missing'} payload`,
        );
      }
    } catch (err) {
      if (!(err instanceof UnindexableEntityError)) throw err;
      logger.warn(
        { eventId: event.id, entityId: change.entityId, reason: err.message },
        'entity not indexable',
      );
      return 'failed';
    }
    // The event's owner and version are authoritative (the payload must agree on the owner).
    if (entity.ownerId !== change.ownerId || entity.id !== change.entityId) {
      logger.warn(
        { eventId: event.id, entityId: change.entityId },
        'catalogue.changed payload is of another entity or owner',
      );
      return 'failed';
    }
    if (change.version > 0n) entity.version = Number(change.version);
    const result = await writer.upsert(entity);
    return result === 'applied' ? 'done' : 'skipped';
  }

  /** A kaboodle's whole membership (or its deletion), version-guarded like entities. */
  async function kaboodleChanged(event: IncomingEvent, change: CatalogueChanged): Promise<ConsumeOutcome> {
    const version = Number(change.version);
    let outcome;
    if (change.op === ChangeOp.DELETE) {
      outcome = await deps.index.kaboodles.delete([
        { ownerId: change.ownerId, id: change.entityId, version },
      ]);
    } else if (change.op === ChangeOp.UPSERT) {
      if (change.payload.case !== 'kaboodle') {
        logger.warn(
          { eventId: event.id },
          `a kaboodle change carries a ${change.payload.case ?? 'missing'} payload`,
        );
        return 'failed';
      }
      let kaboodle;
      try {
        kaboodle = kaboodleToIndexed(change.payload.value);
      } catch (err) {
        if (!(err instanceof UnindexableEntityError)) throw err;
        logger.warn({ eventId: event.id, reason: err.message }, 'kaboodle not indexable');
        return 'failed';
      }
      if (kaboodle.ownerId !== change.ownerId || kaboodle.id !== change.entityId) {
        logger.warn({ eventId: event.id }, 'catalogue.changed payload is of another kaboodle or owner');
        return 'failed';
      }
      if (version > 0) kaboodle.version = version;
      outcome = await deps.index.kaboodles.upsert([kaboodle]);
    } else return 'skipped';
    deps.onKaboodleChanged?.(change.ownerId);
    return outcome.applied > 0 ? 'done' : 'skipped';
  }

  async function userChanged(event: IncomingEvent): Promise<ConsumeOutcome> {
    const change = decode(event, Topics.userChanged);
    if (!change) return 'failed';
    if (change.op !== ChangeOp.DELETE || !change.ownerId) return 'skipped';
    // Buffered writes of that user first, so none lands after the wipe.
    await writer.flush();
    await deps.index.deleteOwner(change.ownerId);
    deps.onOwnerRemoved?.(change.ownerId);
    logger.info({ ownerId: change.ownerId }, 'removed a deleted user from the search index');
    return 'done';
  }

  return async (event) => {
    if (event.topic === Topics.catalogueChanged) return catalogueChanged(event);
    if (event.topic === Topics.userChanged) return userChanged(event);
    return 'skipped';
  };
}

export function subscribeCatalogueChanges(
  bus: EventBus,
  deps: CatalogueChangesDeps & { concurrency?: number },
): Promise<Subscription> {
  return bus.subscribe({
    group: SEARCH_CONSUMER_GROUP,
    topics: [Topics.catalogueChanged, Topics.userChanged],
    // Many entities at once, so their writes meet in one batch.
    concurrency: deps.concurrency ?? 64,
    handler: createCatalogueChangesHandler(deps),
  });
}
