// Elasticsearch reads that need no index state beyond where to read: an entity's neighbours by its
// stored vector (GET /api/search/related), every live entity, paged, for a rebuild's pruning, an
// entity's version and the index's (or one owner's) size.
import type { Client } from '@elastic/elasticsearch';
import { InputError, NotFoundError, wrapError } from '@kaboodle/platform';
import type {
  EntityRef,
  IndexStats,
  IndexedEntityType,
  RelatedQuery,
  SearchHit,
} from './search-index.port.ts';
import { esStatus } from './elasticsearch-bulk.ts';
import { decodeVector, docId } from './elasticsearch-mappings.ts';
import { cosineFromScore, entityFilter, hitFromSource, knnBody } from './elasticsearch-queries.ts';
import type { EsHit } from './elasticsearch-queries.ts';
import { clamp01, clampLimit } from './search-scoring.ts';

export interface EsReadContext {
  client: Client;
  /** The alias reads go through. */
  alias: string;
  /** "elasticsearch alias <name>", for error messages. */
  where: string;
  dimensions: number;
  /** `_source_exclude_vectors: false` from 9.2 on, where vectors are hidden from `_source` by default. */
  sourceVectors: { _source_exclude_vectors?: false };
}

const isZero = (v: ArrayLike<number>): boolean => Array.prototype.every.call(v, (x: number) => x === 0);

export async function relatedEntities(ctx: EsReadContext, query: RelatedQuery): Promise<SearchHit[]> {
  const { client, alias, where, dimensions } = ctx;
  const limit = clampLimit(query.limit, 50, 10);
  const id = docId(query);
  let stored: Record<string, unknown> | undefined;
  try {
    const r = await client.get({
      index: alias,
      id,
      _source_includes: ['vector', 'deleted', 'owner_id'],
      ...ctx.sourceVectors,
    });
    stored = r._source as Record<string, unknown> | undefined;
  } catch (err) {
    if (esStatus(err) !== 404) throw wrapError(`reading ${query.entityType} ${query.id} from ${where}`, err);
  }
  // Missing, deleted and another owner's answer alike.
  if (!stored || stored.deleted === true || stored.owner_id !== query.ownerId)
    throw new NotFoundError('Not found');
  const vector = decodeVector(stored.vector);
  // Stored without a vector (nothing to embed): it exists but has no neighbours.
  if (!vector || vector.length !== dimensions || isZero(vector)) return [];
  const filter = entityFilter({ ownerId: query.ownerId, excludeIds: [id] });
  let hits: EsHit[];
  try {
    const r = await client.search(knnBody(vector, limit, filter) as Parameters<Client['search']>[0] & object);
    hits = r.hits.hits as EsHit[];
  } catch (err) {
    throw wrapError(`finding entities related to ${query.entityType} ${query.id} in ${where}`, err);
  }
  const min = query.minSimilarity ?? 0;
  return hits
    .map((hit) => ({ hit, cos: cosineFromScore(hit._score) }))
    .filter((x) => x.cos >= min)
    .map((x) => hitFromSource(x.hit, clamp01(x.cos)));
}

export async function* listLiveEntities(
  ctx: EsReadContext,
  { updatedBefore, batchSize }: { updatedBefore: Date; batchSize?: number },
): AsyncGenerator<EntityRef[]> {
  const { client, alias, where } = ctx;
  if (!Number.isFinite(updatedBefore.getTime())) throw new InputError('updatedBefore must be a valid date');
  const size = Math.min(10_000, Math.max(1, batchSize ?? 1_000));
  // Pages in the order of the unique (owner, type, id), resumed with search_after: no scroll or
  // point in time to leak, and a page that shifts under concurrent writes only means an entity
  // listed twice or not at all, which a rebuild's pruning tolerates.
  let after: unknown[] | undefined;
  for (;;) {
    let hits: EsHit[];
    try {
      const r = await client.search({
        index: alias,
        size,
        _source: ['entity_type', 'entity_id', 'owner_id', 'version'],
        query: {
          bool: {
            filter: [{ range: { updated_at: { lt: updatedBefore.toISOString() } } }],
            must_not: [{ term: { deleted: true } }],
          },
        },
        sort: [{ owner_id: 'asc' }, { entity_type: 'asc' }, { entity_id: 'asc' }],
        ...(after ? { search_after: after as never } : {}),
      });
      hits = r.hits.hits as EsHit[];
    } catch (err) {
      throw wrapError(`listing the entities of ${where}`, err);
    }
    if (hits.length === 0) return;
    yield hits.map((h) => {
      const src = (h._source ?? {}) as Record<string, unknown>;
      return {
        entityType: src.entity_type as IndexedEntityType,
        id: String(src.entity_id),
        ownerId: String(src.owner_id),
        version: Number(src.version),
      };
    });
    if (hits.length < size) return;
    after = (hits[hits.length - 1] as { sort?: unknown[] }).sort;
    if (!after) return;
  }
}

export async function versionOfEntity(
  ctx: EsReadContext,
  ref: Omit<EntityRef, 'version'>,
): Promise<number | undefined> {
  const { client, alias, where } = ctx;
  try {
    const r = await client.get({
      index: alias,
      id: docId(ref),
      _source_includes: ['deleted', 'owner_id'],
    });
    const s = (r._source ?? {}) as Record<string, unknown>;
    if (s.deleted === true || s.owner_id !== ref.ownerId) return undefined;
    return r._version;
  } catch (err) {
    if (esStatus(err) === 404) return undefined;
    throw wrapError(`reading the version of ${ref.entityType} ${ref.id} from ${where}`, err);
  }
}

/** One owner's live entities: a count, cheap enough per search. */
export async function ownerEntityCount(ctx: EsReadContext, ownerId: string): Promise<number> {
  const { client, alias, where } = ctx;
  try {
    const r = await client.count({
      index: alias,
      query: { bool: { filter: [{ term: { owner_id: ownerId } }], must_not: [{ term: { deleted: true } }] } },
    });
    return r.count;
  } catch (err) {
    throw wrapError(`counting an owner's entities in ${where}`, err);
  }
}

export async function indexStats(ctx: EsReadContext, ownerId?: string): Promise<IndexStats> {
  const { client, alias, where } = ctx;
  const live = { term: { deleted: true } };
  try {
    if (ownerId === undefined) {
      const [count, store] = await Promise.all([
        client.count({ index: alias, query: { bool: { must_not: [live] } } }),
        client.indices.stats({ index: alias, metric: 'store' }),
      ]);
      return { entities: count.count, sizeBytes: store._all?.primaries?.store?.size_in_bytes ?? 0 };
    }
    // One owner's share, summed from that owner's documents only: nothing about others shows.
    const r = await client.search({
      index: alias,
      size: 0,
      track_total_hits: true,
      query: { bool: { filter: [{ term: { owner_id: ownerId } }], must_not: [live] } },
      aggs: { bytes: { sum: { field: 'stored_bytes' } } },
    });
    const total = r.hits.total;
    const entities = typeof total === 'number' ? total : (total?.value ?? 0);
    const bytes = (r.aggregations?.bytes as { value?: number } | undefined)?.value ?? 0;
    return { entities, sizeBytes: Math.round(bytes) };
  } catch (err) {
    throw wrapError(`reading the stats of ${where}`, err);
  }
}
