// The image vector index on Elasticsearch: one index per image model (`<alias>-images-<model>`) whose
// documents hold the owner, the version (external versioning: a write at or below the stored version
// is a 409, counted as stale, so a late old upsert never revives a deleted item), a tombstone flag,
// what a hit shows, and `image_vector`, a `dense_vector` (cosine, HNSW). Searches are approximate kNN
// filtered to the owner's live documents. Same bulk path (back-pressure, 429 retries) as the text index.
import { Client } from '@elastic/elasticsearch';
import type { estypes } from '@elastic/elasticsearch';
import { InputError } from '@kaboodle/platform';
import { bulkIndex, DEFAULT_BULK, esStatus } from './elasticsearch-bulk.ts';
import type { BulkOperation, BulkOptions } from './elasticsearch-bulk.ts';
import { docId } from './elasticsearch-mappings.ts';
import { cosineFromScore } from './elasticsearch-queries.ts';
import type { ImageIndex, ImageQuery, ImageRecord } from './image-index.port.ts';
import type { EntityRef, IndexedEntityType, SearchHit, UpsertOutcome } from './search-index.port.ts';
import { clamp01, clampLimit } from './search-scoring.ts';

export interface ElasticsearchImageIndexOptions {
  /** The text index's alias; the image index is named after it and the model. */
  indexName: string;
  dimensions: number;
  model: string;
  client?: Client;
  node?: string;
  apiKey?: string;
  username?: string;
  password?: string;
  bulk?: Partial<BulkOptions>;
}

const SOURCE = ['id', 'entity_type', 'title', 'description', 'category', 'image_url', 'hashtags'];

export function imageIndexName(alias: string, model: string): string {
  const slug = model
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${alias}-images-${slug || 'default'}`;
}

/** The mapping: keywords to filter on, text to show, the vector to search. */
export function imageIndexBody(
  dimensions: number,
  model: string,
): Omit<estypes.IndicesCreateRequest, 'index'> {
  return {
    settings: { refresh_interval: '1s' },
    mappings: {
      _meta: { model, dimensions },
      dynamic: 'strict',
      properties: {
        owner_id: { type: 'keyword' },
        entity_type: { type: 'keyword' },
        id: { type: 'keyword' },
        version: { type: 'long' },
        deleted: { type: 'boolean' },
        model: { type: 'keyword' },
        title: { type: 'text', index: false },
        description: { type: 'text', index: false },
        category: { type: 'keyword' },
        image_url: { type: 'keyword', index: false },
        hashtags: { type: 'keyword' },
        image_vector: {
          type: 'dense_vector',
          dims: dimensions,
          index: true,
          similarity: 'cosine',
          index_options: { type: 'hnsw', m: 16, ef_construction: 100 },
        },
      },
    },
  };
}

/** The kNN request of a photo query: the owner's live documents of this model, the exclusion left out. */
export function imageKnnBody(query: ImageQuery, model: string): estypes.SearchRequest {
  const k = clampLimit(query.limit, 100);
  const filter: estypes.QueryDslQueryContainer[] = [
    { term: { owner_id: query.ownerId } },
    { term: { deleted: false } },
    { term: { model } },
  ];
  const mustNot: estypes.QueryDslQueryContainer[] = query.exclude
    ? [{ ids: { values: [docId({ ...query.exclude, ownerId: query.ownerId })] } }]
    : [];
  return {
    size: k,
    _source: SOURCE,
    knn: {
      field: 'image_vector',
      query_vector: Array.from(query.vector),
      k,
      num_candidates: Math.min(10_000, Math.max(100, k * 10)),
      filter: { bool: { filter, must_not: mustNot } },
    },
  };
}

export function createElasticsearchImageIndex(options: ElasticsearchImageIndexOptions): ImageIndex {
  const dims = options.dimensions;
  if (!Number.isInteger(dims) || dims < 1 || dims > 4096) {
    throw new InputError(`image dimensions must be an integer in 1..4096, got ${dims}`);
  }
  const index = imageIndexName(options.indexName, options.model);
  const bulk: BulkOptions = { ...DEFAULT_BULK, ...options.bulk };
  const ownClient = options.client === undefined;
  const client =
    options.client ??
    new Client({
      node: options.node ?? 'http://localhost:9200',
      ...(options.apiKey
        ? { auth: { apiKey: options.apiKey } }
        : options.username
          ? { auth: { username: options.username, password: options.password ?? '' } }
          : {}),
      requestTimeout: 30_000,
      maxRetries: 3,
    });

  function check(r: ImageRecord): void {
    if (r.model !== options.model)
      throw new InputError(
        `The photo vector of ${r.id} comes from ${r.model}; this index holds ${options.model}`,
      );
    if (r.vector.length !== dims)
      throw new InputError(
        `The photo vector of ${r.id} has ${r.vector.length} dimensions; the index expects ${dims}`,
      );
  }

  let created = false;

  const write = async (ops: BulkOperation[]): Promise<UpsertOutcome> => {
    if (ops.length === 0) return { applied: 0, stale: 0 };
    const r = await bulkIndex(client, index, ops, bulk);
    return { applied: r.applied, stale: r.stale };
  };

  return {
    kind: 'elasticsearch',
    dimensions: dims,
    model: options.model,
    get created() {
      return created;
    },

    async open() {
      created = false;
      const exists = await client.indices.exists({ index });
      if (exists) return;
      try {
        await client.indices.create({ index, ...imageIndexBody(dims, options.model) });
        created = true;
      } catch (err) {
        // another replica created it first (and fills it)
        if (esStatus(err) !== 400 || !/already_exists/.test(String((err as Error).message))) throw err;
      }
    },

    async upsert(records) {
      records.forEach(check);
      return write(
        records.map((r) => ({
          id: docId(r),
          version: r.version,
          document: {
            owner_id: r.ownerId,
            entity_type: r.entityType,
            id: r.id,
            version: r.version,
            deleted: false,
            model: r.model,
            title: r.title,
            description: r.description,
            category: r.category,
            image_url: r.imageUrl,
            hashtags: r.hashtags,
            image_vector: Array.from(r.vector),
          },
          bytes: dims * 12 + 400,
        })),
      );
    },

    async delete(refs) {
      return write(
        refs.map((r) => ({
          id: docId(r),
          version: r.version,
          document: {
            owner_id: r.ownerId,
            entity_type: r.entityType,
            id: r.id,
            version: r.version,
            deleted: true,
            model: options.model,
          },
        })),
      );
    },

    async deleteOwner(ownerId) {
      await client.deleteByQuery({
        index,
        query: { term: { owner_id: ownerId } },
        refresh: true,
        conflicts: 'proceed',
      });
    },

    async search(query): Promise<SearchHit[]> {
      if (query.vector.length !== dims)
        throw new InputError(
          `The photo vector has ${query.vector.length} dimensions; the index expects ${dims}`,
        );
      const r = await client.search<Record<string, unknown>>({
        index,
        ...imageKnnBody(query, options.model),
      });
      const min = query.minSimilarity ?? 0;
      return r.hits.hits
        .map((h) => {
          const s = h._source ?? {};
          return {
            entityType: s.entity_type as IndexedEntityType,
            id: String(s.id ?? ''),
            title: String(s.title ?? ''),
            description: String(s.description ?? ''),
            content: '',
            url: '',
            imageUrl: String(s.image_url ?? ''),
            category: String(s.category ?? ''),
            hashtags: Array.isArray(s.hashtags) ? s.hashtags.map(String) : [],
            score: clamp01(cosineFromScore(h._score)),
          };
        })
        .filter((h) => h.score >= min);
    },

    async vectorOf(ref: Omit<EntityRef, 'version'>) {
      try {
        const r = await client.get<{ image_vector?: number[]; deleted?: boolean; model?: string }>({
          index,
          id: docId(ref),
          _source_includes: ['image_vector', 'deleted', 'model'],
        });
        const s = r._source;
        if (!s || s.deleted || s.model !== options.model || !s.image_vector) return undefined;
        return Float32Array.from(s.image_vector);
      } catch (err) {
        if (esStatus(err) === 404) return undefined;
        throw err;
      }
    },

    async count(ownerId) {
      const r = await client.count({
        index,
        query: {
          bool: {
            filter: [{ term: { deleted: false } }, ...(ownerId ? [{ term: { owner_id: ownerId } }] : [])],
          },
        },
      });
      return r.count;
    },

    async ping() {
      await client.indices.exists({ index });
    },

    async close() {
      if (ownClient) await client.close();
    },
  };
}
