// Row mapping for the embedded search index: the LanceDB table's schema and row shape, an indexed
// entity (or a delete's tombstone) turned into a row, and a row's display fields turned into a hit.
import { Binary, Bool, Field, FixedSizeList, Float32, Int32, Int64, List, Schema, Utf8 } from 'apache-arrow';
import { InputError } from '@kaboodle/platform';
import type { EntityRef, IndexedEntity, IndexedEntityType, SearchHit } from './search-index.port.ts';
import { wordPairs } from './keyword-index.ts';
import { ENTITY_TYPES, normaliseTag } from './search-scoring.ts';

const DISPLAY_CONTENT_CHARS = 500;

/** The columns a hit is built from (never the vectors or the full search text). */
export const HIT_COLUMNS = [
  'key',
  'id',
  'entity_type',
  'title',
  'description',
  'content_head',
  'url',
  'image_url',
  'category',
  'hashtags',
];

export interface Row {
  key: string;
  id: string;
  owner_id: string;
  entity_type: string;
  version: bigint;
  deleted: boolean;
  title: string;
  description: string;
  content_head: string;
  search_text: string;
  category: string;
  hashtags: string[];
  tags_norm: string[];
  keywords: string[];
  url: string;
  image_url: string;
  created_at: bigint;
  updated_at: bigint;
  vector: Float32Array;
  passage_text: string[];
  passage_start: number[];
  passage_end: number[];
  /** Passage vectors, concatenated little-endian float32 (n × dimensions). */
  passage_vectors: Uint8Array;
}

/** The table's unique key: one row per (owner, type, id), so two owners never share a row. */
export function entityKey(ownerId: string, entityType: IndexedEntityType | string, id: string): string {
  return JSON.stringify([ownerId, entityType, id]);
}

/** The entity table's Arrow schema for vectors of `dims` dimensions. */
/** The entity an `entityKey` names (its owner left out: the caller's query carries it). */
export function refOfKey(key: string): { entityType: IndexedEntityType; id: string } {
  const [, entityType, id] = JSON.parse(key) as [string, IndexedEntityType, string];
  return { entityType, id };
}

export function entitySchema(dims: number): Schema {
  return new Schema([
    new Field('key', new Utf8(), false),
    new Field('id', new Utf8(), false),
    new Field('owner_id', new Utf8(), false),
    new Field('entity_type', new Utf8(), false),
    new Field('version', new Int64(), false),
    new Field('deleted', new Bool(), false),
    new Field('title', new Utf8(), false),
    new Field('description', new Utf8(), false),
    new Field('content_head', new Utf8(), false),
    new Field('search_text', new Utf8(), false),
    new Field('category', new Utf8(), false),
    new Field('hashtags', new List(new Field('item', new Utf8(), true)), false),
    new Field('tags_norm', new List(new Field('item', new Utf8(), true)), false),
    new Field('keywords', new List(new Field('item', new Utf8(), true)), false),
    new Field('url', new Utf8(), false),
    new Field('image_url', new Utf8(), false),
    new Field('created_at', new Int64(), false),
    new Field('updated_at', new Int64(), false),
    new Field('vector', new FixedSizeList(dims, new Field('item', new Float32(), true)), false),
    new Field('passage_text', new List(new Field('item', new Utf8(), true)), false),
    new Field('passage_start', new List(new Field('item', new Int32(), true)), false),
    new Field('passage_end', new List(new Field('item', new Int32(), true)), false),
    new Field('passage_vectors', new Binary(), false),
  ]);
}

export interface RowMapper {
  toRow(e: IndexedEntity): Row;
  /** A delete leaves a tombstone row carrying the version, so a late older upsert stays ignored. */
  tombstone(r: EntityRef): Row;
  checkVector(v: Float32Array, what: string): void;
}

export function createRowMapper(dims: number, maxSearchTextChars: number): RowMapper {
  function toRow(e: IndexedEntity): Row {
    if (!ENTITY_TYPES.includes(e.entityType))
      throw new InputError(`Unknown entity type: ${String(e.entityType)}`);
    if (!e.id || !e.ownerId) throw new InputError('An indexed entity needs an id and an owner');
    if (!Number.isSafeInteger(e.version) || e.version < 0)
      throw new InputError(`Entity version must be a non-negative integer, got ${e.version}`);
    checkVector(e.vector, `entity ${e.id}`);
    const passages = e.passages ?? [];
    const pv = new Float32Array(passages.length * dims);
    passages.forEach((p, i) => {
      checkVector(p.vector, `a passage of ${e.id}`);
      pv.set(p.vector, i * dims);
    });
    const hashtags = e.hashtags ?? [];
    const keywords = (e.keywords ?? []).filter((k) => typeof k === 'string' && k !== '');
    const content = e.content ?? '';
    // The title counts twice: a word in the title says more about the entity than one in the body.
    const words = [e.title, e.title, hashtags.join(' '), keywords.join(' '), e.description, content]
      .filter((s) => s)
      .join('\n')
      .slice(0, maxSearchTextChars);
    // Its adjacent word pairs follow, as terms of their own: keyword search's proximity evidence.
    const pairs = wordPairs(words);
    const searchText = pairs ? `${words}\n${pairs}` : words;
    return {
      key: entityKey(e.ownerId, e.entityType, e.id),
      id: e.id,
      owner_id: e.ownerId,
      entity_type: e.entityType,
      version: BigInt(e.version),
      deleted: false,
      title: e.title ?? '',
      description: e.description ?? '',
      content_head: content.slice(0, DISPLAY_CONTENT_CHARS),
      search_text: searchText,
      category: e.category ?? '',
      hashtags,
      tags_norm: [...new Set(hashtags.map(normaliseTag).filter((x) => x))],
      keywords,
      url: e.url ?? '',
      image_url: e.imageUrl ?? '',
      created_at: BigInt(toMillis(e.createdAt)),
      updated_at: BigInt(toMillis(e.updatedAt)),
      vector: e.vector,
      passage_text: passages.map((p) => p.text),
      passage_start: passages.map((p) => p.start),
      passage_end: passages.map((p) => p.end),
      passage_vectors: new Uint8Array(pv.buffer),
    };
  }

  function tombstone(r: EntityRef): Row {
    if (!ENTITY_TYPES.includes(r.entityType))
      throw new InputError(`Unknown entity type: ${String(r.entityType)}`);
    if (!Number.isSafeInteger(r.version) || r.version < 0)
      throw new InputError(`Entity version must be a non-negative integer, got ${r.version}`);
    const unit = new Float32Array(dims);
    unit[0] = 1; // a valid direction for the ANN index; tombstones are filtered out of every search
    return {
      key: entityKey(r.ownerId, r.entityType, r.id),
      id: r.id,
      owner_id: r.ownerId,
      entity_type: r.entityType,
      version: BigInt(r.version),
      deleted: true,
      title: '',
      description: '',
      content_head: '',
      search_text: '',
      category: '',
      hashtags: [],
      tags_norm: [],
      keywords: [],
      url: '',
      image_url: '',
      created_at: 0n,
      updated_at: BigInt(Date.now()),
      vector: unit,
      passage_text: [],
      passage_start: [],
      passage_end: [],
      passage_vectors: new Uint8Array(0),
    };
  }

  function checkVector(v: Float32Array, what: string): void {
    if (!v || v.length !== dims)
      throw new InputError(
        `The vector of ${what} has ${v?.length ?? 0} dimensions; the index expects ${dims}`,
      );
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i]!)) throw new InputError(`The vector of ${what} contains a non-finite value`);
    }
  }

  return { toRow, tombstone, checkVector };
}

/** A written row's display fields, shaped like a HIT_COLUMNS read from the table. */
export function displayRow(r: Row): Record<string, unknown> {
  const fields = r as unknown as Record<string, unknown>;
  return Object.fromEntries(HIT_COLUMNS.map((c) => [c, fields[c]]));
}

/** A hit from a row's display fields (read from the table, the hit cache or a memory index). */
export function toHit(row: Record<string, unknown>, score: number, raw?: number): SearchHit {
  return {
    entityType: row.entity_type as IndexedEntityType,
    id: row.id as string,
    title: (row.title as string) ?? '',
    description: (row.description as string) ?? '',
    content: (row.content_head as string) ?? '',
    url: (row.url as string) ?? '',
    imageUrl: (row.image_url as string) ?? '',
    category: (row.category as string) ?? '',
    hashtags: listOf<string>(row.hashtags),
    score,
    ...(raw !== undefined && Number.isFinite(raw) ? { raw } : {}),
  };
}

function toMillis(d: Date | undefined): number {
  const ms = d instanceof Date ? d.getTime() : 0;
  return Number.isFinite(ms) ? Math.trunc(ms) : 0;
}

/** Arrow list values arrive as arrow Vectors (toArray()) or plain arrays, depending on the column. */
export function listOf<T>(v: unknown): T[] {
  if (v == null) return [];
  if (Array.isArray(v)) return v as T[];
  const withToArray = v as { toArray?: () => ArrayLike<T> };
  if (typeof withToArray.toArray === 'function') return Array.from(withToArray.toArray());
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<T>);
  return [];
}

export function floatView(bytes: Uint8Array | null | undefined): Float32Array {
  if (!bytes || bytes.byteLength === 0) return new Float32Array(0);
  // Arrow buffers need not be 4-byte aligned: copy when they are not.
  if (bytes.byteOffset % 4 === 0)
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  return new Float32Array(bytes.slice().buffer);
}
