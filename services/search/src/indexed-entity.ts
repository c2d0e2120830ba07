// What the index keeps of a catalogue entity: built from the catalogue.proto Document / InventoryItem
// carried by catalogue.changed (and by ListForIndex on a rebuild), corrections already merged in.
import { EntityType, timestampDate } from '@kaboodle/proto';
import type { Document, InventoryItem, Kaboodle, Timestamp } from '@kaboodle/proto';
import type {
  IndexedEntity,
  IndexedEntityType,
  IndexedKaboodle,
  IndexedPassage,
  SavedSearch,
} from './index/search-index.port.ts';

/** Why an entity cannot be indexed as it is (the consumer dead-letters it with this reason). */
export class UnindexableEntityError extends Error {}

export const documentUrl = (id: string): string => `/api/documents/${encodeURIComponent(id)}/file`;

const nonEmpty = (values: Array<string | undefined>): string[] =>
  values.map((v) => (v ?? '').trim()).filter((v) => v !== '');

const date = (t: Timestamp | undefined, fallback: Date): Date => (t ? timestampDate(t) : fallback);

/**
 * The entity's vector in the index's space. Entities the processor could not embed (no text) get a
 * zero vector: still found by keyword, never by meaning. A vector of another size means another model
 * made it, and vectors from different models are never compared.
 */
function vectorOf(values: ArrayLike<number> | undefined, dimensions: number, what: string): Float32Array {
  if (!values || values.length === 0) return new Float32Array(dimensions);
  if (values.length !== dimensions) {
    throw new UnindexableEntityError(
      `${what} has a ${values.length}-dimensional embedding; the index holds ${dimensions}-dimensional vectors`,
    );
  }
  return Float32Array.from(values);
}

export function documentToIndexed(doc: Document, dimensions: number): IndexedEntity {
  const a = doc.analysis;
  const now = new Date();
  const what = `document ${doc.id}`;
  const passages: IndexedPassage[] = (a?.passages ?? [])
    .filter((p) => p.text.trim() !== '' && p.vector.length === dimensions)
    .map((p) => ({ text: p.text, start: p.start, end: p.end, vector: Float32Array.from(p.vector) }));
  return {
    entityType: 'document',
    id: doc.id,
    ownerId: doc.ownerId,
    version: Number(doc.version),
    title: (a?.title ?? '').trim() || (doc.sourceFile?.fileName ?? '').trim(),
    description: a?.summary ?? '',
    content: a?.text?.text ?? '',
    category: a?.category ?? '',
    hashtags: nonEmpty((a?.hashtags ?? []).map((h) => h.tag)),
    keywords: nonEmpty([
      a?.author,
      a?.field,
      a?.thesis,
      a?.issue,
      a?.journalPublisher,
      ...(a?.influencedBy ?? []),
      a?.publicationYear !== undefined ? String(a.publicationYear) : undefined,
      doc.sourceFile?.fileName,
    ]),
    url: documentUrl(doc.id),
    imageUrl: '',
    createdAt: date(doc.createdAt, now),
    updatedAt: date(doc.updatedAt, now),
    vector: vectorOf(a?.embedding?.values, dimensions, what),
    passages,
  };
}

export function inventoryItemToIndexed(item: InventoryItem, dimensions: number): IndexedEntity {
  const a = item.analysis;
  const now = new Date();
  return {
    entityType: 'inventory_item',
    id: item.id,
    ownerId: item.ownerId,
    version: Number(item.version),
    title: (a?.name ?? '').trim() || (item.sourceFile?.fileName ?? '').trim(),
    description: a?.description ?? '',
    content: a?.text?.text ?? '',
    category: a?.category ?? '',
    hashtags: nonEmpty((a?.hashtags ?? []).map((h) => h.tag)),
    keywords: nonEmpty([
      a?.material,
      ...(a?.colors ?? []).map((c) => c.name),
      a?.originSource,
      ...(a?.objects ?? []).map((o) => o.label),
      ...(a?.barcodes ?? []).flatMap((b) => [b.value, b.lookup?.productName, b.lookup?.brand]),
      a?.dimensions?.text,
      item.sourceFile?.fileName,
    ]),
    url: '',
    imageUrl: item.imageUrl,
    createdAt: date(item.createdAt, now),
    updatedAt: date(item.updatedAt, now),
    vector: vectorOf(a?.embedding?.values, dimensions, `inventory item ${item.id}`),
    passages: [],
    ...(a?.imageEmbedding && a.imageEmbedding.values.length > 0
      ? { image: { vector: Float32Array.from(a.imageEmbedding.values), model: a.imageEmbedding.model } }
      : {}),
  };
}

const MEMBER_TYPES: Partial<Record<EntityType, IndexedEntityType>> = {
  [EntityType.DOCUMENT]: 'document',
  [EntityType.INVENTORY_ITEM]: 'inventory_item',
};
const SAVED_TYPES = ['semantic', 'keyword', 'hybrid'] as const;

/** A kaboodle's membership (members in order) or saved search, as catalogue.changed and ListForIndex carry it. */
export function kaboodleToIndexed(k: Kaboodle): IndexedKaboodle {
  if (!k.id || !k.ownerId) throw new UnindexableEntityError('a kaboodle without an id or owner');
  const members = k.members.map((m) => {
    const entityType = MEMBER_TYPES[m.entityType];
    if (!entityType || !m.entityId)
      throw new UnindexableEntityError(`kaboodle ${k.id} has a member that is not a document or an item`);
    return { entityType, id: m.entityId };
  });
  let smart: SavedSearch | undefined;
  if (k.smart) {
    const searchType = (SAVED_TYPES as readonly string[]).includes(k.smart.searchType)
      ? (k.smart.searchType as SavedSearch['searchType'])
      : 'semantic';
    smart = {
      query: k.smart.query,
      searchType,
      entityTypes: k.smart.entityTypes.flatMap((t) => (MEMBER_TYPES[t] ? [MEMBER_TYPES[t]] : [])),
      ...(k.smart.category ? { category: k.smart.category } : {}),
      ...(k.smart.kaboodleId ? { kaboodleId: k.smart.kaboodleId } : {}),
    };
    if (smart.query.trim() === '') throw new UnindexableEntityError(`smart kaboodle ${k.id} has no query`);
  }
  return {
    ownerId: k.ownerId,
    id: k.id,
    version: Number(k.version),
    members,
    ...(smart ? { smart } : {}),
    updatedAt: date(k.updatedAt, new Date()),
  };
}
