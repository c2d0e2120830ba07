// What the Elasticsearch index looks like: the composable index template (analysers, text and
// keyword fields), the per-index vector mappings (dims depend on the embedding model), the names of
// physical indices behind the alias, and the document shape written for entities and tombstones.
import type { estypes } from '@elastic/elasticsearch';
import type { IndexedEntity, EntityRef, IndexedEntityType } from './search-index.port.ts';
import { InputError } from '@kaboodle/platform';
import { ENTITY_TYPES, normaliseTag } from './search-scoring.ts';

/** Bumped when the mappings change in a way that needs a new physical index (a reindex). */
export const ES_SCHEMA_VERSION = 1;

/** Characters of extracted text kept for keyword search (the port lets adapters cap it). */
export const ES_CONTENT_MAX_CHARS = 200_000;
/** Characters of extracted text returned with a hit (SearchHit.content). */
export const ES_CONTENT_PREVIEW_CHARS = 500;

export type VectorIndexType = 'hnsw' | 'int8_hnsw' | 'bbq_hnsw';

export interface HnswOptions {
  /** Quantisation: 'hnsw' keeps float32 graphs (best recall; the default). */
  type: VectorIndexType;
  m: number;
  efConstruction: number;
}

export const DEFAULT_HNSW: HnswOptions = { type: 'hnsw', m: 16, efConstruction: 100 };

/** The `_meta` every physical index carries: what its vectors are, so open() can tell a model change. */
export interface IndexMeta {
  kaboodle_schema: number;
  dimensions: number;
  model: string;
}

/** `<alias>-<dims>d-<yyyymmddhhmmssSSS>`: sortable, so the oldest of two racing creators wins. */
export function physicalIndexName(alias: string, dimensions: number, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[^0-9]/g, '');
  return `${alias}-${dimensions}d-${stamp}`;
}

export function templatePattern(alias: string): string {
  return `${alias}-*d-*`;
}

const text = { type: 'text', analyzer: 'kaboodle_text' } as const;

/** The composable template: every physical index behind the alias gets these settings and fields. */
export function indexTemplateBody(
  alias: string,
  settings: { shards: number; replicas?: number },
): Omit<estypes.IndicesPutIndexTemplateRequest, 'name'> {
  return {
    index_patterns: [templatePattern(alias)],
    // Above the built-in templates (priority 100+ for logs-*, metrics-*); ours only match our pattern.
    priority: 500,
    _meta: {
      description: 'Kaboodle search index (documents and inventory items)',
      kaboodle_schema: ES_SCHEMA_VERSION,
    },
    template: {
      settings: {
        number_of_shards: settings.shards,
        ...(settings.replicas !== undefined && { number_of_replicas: settings.replicas }),
        analysis: {
          filter: {
            kaboodle_possessive: { type: 'stemmer', language: 'possessive_english' },
            kaboodle_stop: { type: 'stop', stopwords: '_english_' },
            kaboodle_stemmer: { type: 'stemmer', language: 'english' },
          },
          analyzer: {
            kaboodle_text: {
              type: 'custom',
              tokenizer: 'standard',
              filter: [
                'kaboodle_possessive',
                'lowercase',
                'asciifolding',
                'kaboodle_stop',
                'kaboodle_stemmer',
              ],
            },
          },
        },
      },
      mappings: {
        // A typo in a field name must fail loudly, not create a new field.
        dynamic: 'strict',
        properties: {
          entity_type: { type: 'keyword' },
          entity_id: { type: 'keyword' },
          owner_id: { type: 'keyword' },
          version: { type: 'long' },
          /** Tombstones (version-guarded deletes) stay as documents; every query excludes them. */
          deleted: { type: 'boolean' },
          title: { ...text, fields: { raw: { type: 'keyword', ignore_above: 512 } } },
          description: text,
          content: text,
          // Display-only fields: kept in _source, not searchable.
          content_preview: { type: 'text', index: false },
          keywords: text,
          // ignore_above: a pathological value is kept in _source instead of failing the document
          // (Lucene refuses terms over 32 kB).
          category: { type: 'keyword', ignore_above: 1024, fields: { text } },
          hashtags: { type: 'keyword', ignore_above: 1024, fields: { text } },
          /** Tags as filters compare them: lower-case, no leading '#' (normaliseTag). */
          hashtags_norm: { type: 'keyword', ignore_above: 1024 },
          url: { type: 'keyword', index: false, ignore_above: 2048 },
          image_url: { type: 'keyword', index: false, ignore_above: 2048 },
          /** What this entity costs in the index (text + float32 vectors): stats(owner) sums it. */
          stored_bytes: { type: 'long', index: false },
          created_at: { type: 'date' },
          updated_at: { type: 'date' },
          passages: {
            type: 'nested',
            properties: {
              text,
              start: { type: 'integer', index: false },
              end: { type: 'integer', index: false },
            },
          },
        },
      },
    },
  };
}

/** What the create-index request adds to the template: vectors sized for this model, and `_meta`. */
export function createIndexBody(
  meta: IndexMeta,
  hnsw: HnswOptions,
  options: { refreshInterval: string; aliases?: Record<string, Record<string, never>> },
): Omit<estypes.IndicesCreateRequest, 'index'> {
  const vector: estypes.MappingDenseVectorProperty = {
    type: 'dense_vector',
    dims: meta.dimensions,
    index: true,
    similarity: 'cosine',
    index_options: { type: hnsw.type, m: hnsw.m, ef_construction: hnsw.efConstruction },
  };
  return {
    settings: { refresh_interval: options.refreshInterval },
    mappings: {
      _meta: meta,
      properties: {
        vector,
        passages: { type: 'nested', properties: { vector } },
      },
    },
    ...(options.aliases && { aliases: options.aliases }),
  };
}

/** One document per entity and owner: another owner's entity with the same id can never overwrite it. */
export function docId(ref: { entityType: IndexedEntityType; id: string; ownerId: string }): string {
  return `${ref.entityType}:${ref.ownerId}:${ref.id}`;
}

/**
 * A vector as JSON numbers rounded to 1e-8: float32 values printed as doubles take ~19 characters
 * each, rounded ~10, so bulk bodies shrink by ~40% (measured: 70 kB → 40 kB for a 512-d entity with
 * five passages) at an error below float32's own precision for the components of unit vectors.
 * Undefined when nothing is left (a zero vector: cosine is undefined for it).
 */
export function vectorJson(v: Float32Array): number[] | undefined {
  // A plain loop: Array.from with a mapper is several times slower on 512-d vectors.
  const out = new Array<number>(v.length);
  let nonZero = false;
  for (let i = 0; i < v.length; i++) {
    const r = Math.round(v[i]! * 1e8) / 1e8;
    out[i] = r;
    if (r !== 0) nonZero = true;
  }
  return nonZero ? out : undefined;
}

/**
 * 'json': an array of numbers (every version). 'base64': the float32 values big-endian, base64
 * encoded, which clusters with the `mapper.base64_dense_vectors` feature (recent 9.x) accept:
 * ~half the bytes and a native encoder instead of number-to-text conversion.
 */
export type VectorEncoding = 'json' | 'base64';

export function vectorBase64(v: Float32Array): string | undefined {
  const buf = Buffer.allocUnsafe(v.length * 4);
  let nonZero = false;
  for (let i = 0; i < v.length; i++) {
    buf.writeFloatBE(v[i]!, i * 4);
    if (v[i] !== 0) nonZero = true;
  }
  return nonZero ? buf.toString('base64') : undefined;
}

/** A stored vector as Elasticsearch returns it: an array, or base64 when _source keeps the input. */
export function decodeVector(value: unknown): Float32Array | undefined {
  if (Array.isArray(value)) return Float32Array.from(value as number[]);
  if (typeof value === 'string') {
    const buf = Buffer.from(value, 'base64');
    if (buf.length % 4 !== 0) return undefined;
    const out = new Float32Array(buf.length / 4);
    for (let i = 0; i < out.length; i++) out[i] = buf.readFloatBE(i * 4);
    return out;
  }
  return undefined;
}

/** Request bytes of an entity document, estimated without serialising it (bulk batches by size). */
export function approxDocumentBytes(doc: ReturnType<typeof entityDocument>, dimensions: number): number {
  const stored = (1 + doc.passages.length) * dimensions * 4; // float32 bytes counted in stored_bytes
  const vectors = [doc, ...doc.passages]
    .map((x) => (x as { vector?: unknown }).vector)
    .filter((v) => v !== undefined);
  // base64: 4 characters per 3 bytes; JSON numbers rounded to 1e-8: ~11 characters each
  const sent = vectors.reduce<number>((n, v) => n + (typeof v === 'string' ? v.length : dimensions * 11), 0);
  return doc.stored_bytes - stored + sent + 400;
}

/**
 * The stored document. Zero vectors (entities the processor could not embed) are left out: cosine
 * is undefined for them (Elasticsearch refuses them) and such entities are found by keyword only.
 */
export function entityDocument(
  e: IndexedEntity,
  dimensions: number,
  options: { withVectors?: boolean; vectorEncoding?: VectorEncoding } = {},
) {
  // withVectors false: the live index was built for another model (a rebuild is pending); it keeps
  // the entity's text current for keyword search, and the new index gets the vectors.
  const withVectors = options.withVectors ?? true;
  const encoding = options.vectorEncoding ?? 'json';
  checkRef(e);
  checkVector(e.vector, dimensions, `entity ${e.id}`);
  for (const p of e.passages) checkVector(p.vector, dimensions, `a passage of ${e.id}`);
  const content =
    e.content.length > ES_CONTENT_MAX_CHARS ? e.content.slice(0, ES_CONTENT_MAX_CHARS) : e.content;
  const textBytes = Buffer.byteLength(
    [e.title, e.description, content, ...e.keywords, ...e.hashtags, ...e.passages.map((p) => p.text)].join(
      '',
    ),
  );
  return {
    entity_type: e.entityType,
    entity_id: e.id,
    owner_id: e.ownerId,
    version: e.version,
    deleted: false,
    stored_bytes: textBytes + (1 + e.passages.length) * dimensions * 4,
    title: e.title,
    description: e.description,
    content,
    content_preview: e.content.slice(0, ES_CONTENT_PREVIEW_CHARS),
    keywords: e.keywords,
    category: e.category,
    hashtags: e.hashtags,
    hashtags_norm: [...new Set(e.hashtags.map(normaliseTag).filter((t) => t !== ''))],
    url: e.url,
    image_url: e.imageUrl,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
    ...(withVectors && vectorOrNothing(e.vector, encoding)),
    passages: e.passages
      .filter((p) => p.vector.length === dimensions && p.text.trim() !== '')
      .map((p) => ({
        text: p.text,
        start: p.start,
        end: p.end,
        ...(withVectors && vectorOrNothing(p.vector, encoding)),
      })),
  };
}

/** A delete is a tombstone written with the delete's version, so a late older upsert cannot revive it. */
export function tombstoneDocument(ref: EntityRef, now: Date = new Date()) {
  checkRef(ref);
  return {
    entity_type: ref.entityType,
    entity_id: ref.id,
    owner_id: ref.ownerId,
    version: ref.version,
    deleted: true,
    updated_at: now.toISOString(),
    passages: [],
  };
}

/** Same refusals as the embedded adapter: bad input is an InputError, never a cluster 400. */
function checkRef(r: { entityType: IndexedEntityType; id: string; ownerId: string; version: number }): void {
  if (!ENTITY_TYPES.includes(r.entityType))
    throw new InputError(`Unknown entity type: ${String(r.entityType)}`);
  if (!r.id || !r.ownerId) throw new InputError('An indexed entity needs an id and an owner');
  if (!Number.isSafeInteger(r.version) || r.version < 0) {
    throw new InputError(`Entity version must be a non-negative integer, got ${r.version}`);
  }
  // Elasticsearch refuses _id values over 512 bytes.
  if (Buffer.byteLength(docId(r)) > 512) throw new InputError('The entity id and owner id are too long');
}

function checkVector(v: Float32Array, dimensions: number, what: string): void {
  if (!v || v.length !== dimensions) {
    throw new InputError(
      `The vector of ${what} has ${v?.length ?? 0} dimensions; the index expects ${dimensions}`,
    );
  }
  for (let i = 0; i < v.length; i++) {
    if (!Number.isFinite(v[i]!)) throw new InputError(`The vector of ${what} contains a non-finite value`);
  }
}

function vectorOrNothing(
  v: Float32Array,
  encoding: VectorEncoding,
): { vector: number[] | string } | Record<string, never> {
  const encoded = encoding === 'base64' ? vectorBase64(v) : vectorJson(v);
  return encoded ? { vector: encoded } : {};
}
