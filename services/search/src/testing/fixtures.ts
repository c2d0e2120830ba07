// Test fixtures for the search module's unit tests: catalogue.changed events as the catalogue
// publishes them, and a small deterministic word-hashing embedder standing in for the processing
// service's model (texts sharing words get similar vectors), so tests need no model load.
import { randomUUID } from 'node:crypto';
import {
  ChangeOp,
  create,
  createEvent,
  DocumentSchema,
  encodeEvent,
  EntityType,
  eventKey,
  InventoryItemSchema,
  KaboodleSchema,
  timestampFromDate,
  Topics,
} from '@kaboodle/proto';
import type { Document, InventoryItem, Kaboodle } from '@kaboodle/proto';
import type { IncomingEvent, OutgoingEvent } from '@kaboodle/platform';

export const TEST_DIMENSIONS = 64;

/** Bag of hashed words, unit length: the same words give the same direction. */
export function hashEmbed(text: string, dimensions = TEST_DIMENSIONS): Float32Array {
  const v = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
    v[(h >>> 0) % dimensions]! += 1;
  }
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / n;
  return v;
}

export interface DocumentInit {
  id?: string;
  ownerId: string;
  version?: number;
  title: string;
  summary?: string;
  text?: string;
  category?: string;
  author?: string;
  hashtags?: string[];
  /** Passages of `text`, each embedded with hashEmbed. */
  passages?: string[];
  /** Override the embedding (e.g. another model's size). */
  embedding?: number[];
}

export function makeDocument(init: DocumentInit): Document {
  const id = init.id ?? randomUUID();
  const text = init.text ?? `${init.title}. ${init.summary ?? ''}`;
  let offset = 0;
  return create(DocumentSchema, {
    id,
    ownerId: init.ownerId,
    version: BigInt(init.version ?? 1),
    sourceFile: { ownerId: init.ownerId, fileId: id, fileName: `${id}.txt`, contentType: 'text/plain' },
    createdAt: timestampFromDate(new Date('2026-01-01T00:00:00Z')),
    updatedAt: timestampFromDate(new Date('2026-01-02T00:00:00Z')),
    analysis: {
      title: init.title,
      summary: init.summary ?? '',
      author: init.author ?? '',
      category: init.category ?? 'Research Paper',
      hashtags: (init.hashtags ?? []).map((tag) => ({ tag, relevancy: 0.9 })),
      text: { text },
      embedding: {
        values: init.embedding ?? Array.from(hashEmbed(`${init.title} ${init.summary ?? ''} ${text}`)),
        provider: 'test',
        model: 'hash',
        dimensions: init.embedding?.length ?? TEST_DIMENSIONS,
      },
      passages: (init.passages ?? []).map((p) => {
        const start = Math.max(0, text.indexOf(p, offset));
        offset = start + p.length;
        return { text: p, start, end: start + p.length, vector: Array.from(hashEmbed(p)) };
      }),
    },
  });
}

export function makeInventoryItem(init: {
  id?: string;
  ownerId: string;
  version?: number;
  name: string;
  description?: string;
  category?: string;
  material?: string;
  colors?: string[];
}): InventoryItem {
  const id = init.id ?? randomUUID();
  return create(InventoryItemSchema, {
    id,
    ownerId: init.ownerId,
    version: BigInt(init.version ?? 1),
    imageUrl: `/api/inventory/${id}/image`,
    analysis: {
      name: init.name,
      description: init.description ?? '',
      category: init.category ?? 'Other',
      material: init.material ?? '',
      colors: (init.colors ?? []).map((name) => ({ name, hex: '#000000', share: 0.5 })),
      embedding: {
        values: Array.from(hashEmbed(`${init.name} ${init.description ?? ''} ${init.material ?? ''}`)),
        dimensions: TEST_DIMENSIONS,
      },
    },
  });
}

/** A catalogue.changed event as the catalogue publishes it (UPSERT with the entity, or DELETE). */
export function catalogueChanged(
  change:
    | { op: 'upsert'; entity: Document | InventoryItem }
    | {
        op: 'delete';
        entityType: 'document' | 'inventory_item';
        id: string;
        ownerId: string;
        version: number;
      },
): OutgoingEvent {
  const isDoc =
    change.op === 'upsert'
      ? change.entity.$typeName === 'kaboodle.catalogue.v1.Document'
      : change.entityType === 'document';
  const event = createEvent(Topics.catalogueChanged, {
    ownerId: change.op === 'upsert' ? change.entity.ownerId : change.ownerId,
    entityType: isDoc ? EntityType.DOCUMENT : EntityType.INVENTORY_ITEM,
    entityId: change.op === 'upsert' ? change.entity.id : change.id,
    version: change.op === 'upsert' ? change.entity.version : BigInt(change.version),
    op: change.op === 'upsert' ? ChangeOp.UPSERT : ChangeOp.DELETE,
    ...(change.op === 'upsert'
      ? {
          payload: isDoc
            ? { case: 'document' as const, value: change.entity as Document }
            : { case: 'inventoryItem' as const, value: change.entity as InventoryItem },
        }
      : {}),
  });
  return {
    topic: Topics.catalogueChanged,
    key: eventKey(Topics.catalogueChanged, event),
    value: encodeEvent(Topics.catalogueChanged, event),
  };
}

/** A catalogue kaboodle: members as `document:<id>` / `inventory_item:<id>`, or a saved search. */
export function makeKaboodle(over: {
  id?: string;
  ownerId: string;
  version?: number;
  members?: { type: 'document' | 'inventory_item'; id: string }[];
  smart?: { query: string; searchType?: string; kaboodleId?: string };
}): Kaboodle {
  return create(KaboodleSchema, {
    id: over.id ?? randomUUID(),
    ownerId: over.ownerId,
    name: 'Kaboodle',
    version: BigInt(over.version ?? 1),
    members: (over.members ?? []).map((m) => ({
      entityType: m.type === 'document' ? EntityType.DOCUMENT : EntityType.INVENTORY_ITEM,
      entityId: m.id,
    })),
    updatedAt: timestampFromDate(new Date()),
    ...(over.smart
      ? {
          smart: {
            query: over.smart.query,
            searchType: over.smart.searchType ?? 'keyword',
            kaboodleId: over.smart.kaboodleId ?? '',
          },
        }
      : {}),
  });
}

/** catalogue.changed for a kaboodle, as the catalogue publishes it after every change. */
export function kaboodleChanged(
  change:
    { op: 'upsert'; kaboodle: Kaboodle } | { op: 'delete'; id: string; ownerId: string; version: number },
): OutgoingEvent {
  const event = createEvent(Topics.catalogueChanged, {
    ownerId: change.op === 'upsert' ? change.kaboodle.ownerId : change.ownerId,
    entityType: EntityType.KABOODLE,
    entityId: change.op === 'upsert' ? change.kaboodle.id : change.id,
    version: change.op === 'upsert' ? change.kaboodle.version : BigInt(change.version),
    op: change.op === 'upsert' ? ChangeOp.UPSERT : ChangeOp.DELETE,
    ...(change.op === 'upsert' ? { payload: { case: 'kaboodle' as const, value: change.kaboodle } } : {}),
  });
  return {
    topic: Topics.catalogueChanged,
    key: eventKey(Topics.catalogueChanged, event),
    value: encodeEvent(Topics.catalogueChanged, event),
  };
}

export function userDeleted(ownerId: string): OutgoingEvent {
  const event = createEvent(Topics.userChanged, { ownerId, op: ChangeOp.DELETE });
  return { topic: Topics.userChanged, key: ownerId, value: encodeEvent(Topics.userChanged, event) };
}

/** An OutgoingEvent as a handler receives it. */
export function incoming(e: OutgoingEvent, attempt = 1): IncomingEvent {
  return { topic: e.topic, key: e.key, value: e.value, headers: e.headers ?? {}, id: randomUUID(), attempt };
}
