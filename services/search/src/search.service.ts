// The search use cases over the index port: unified search, document search with excerpts, related
// items, near-duplicates and the graph's similarity edges. Every call takes the owner id from the
// verified token and passes it to the index, which filters by it: nothing else is ever searched.
import { performance } from 'node:perf_hooks';
import { NotFoundError, UnavailableError, recordSearchDuration } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import { CorpusSizes } from './corpus-sizes.ts';
import type {
  IndexedEntityType,
  MemberRef,
  RankedRef,
  SearchHit,
  SearchIndex,
} from './index/search-index.port.ts';
import { normaliseQuery } from './query-embedder.ts';
import type { QueryEmbedder } from './query-embedder.ts';
import { BACKGROUND_RANK, calibrateList, DEFAULT_FUSION, fuseHybrid, type HybridFusion } from './ranking.ts';
import type { ResultCache } from './result-cache.ts';
import { MODE_OF } from './search-request.ts';
import type {
  DocumentSearchRequest,
  EntityRequest,
  NeighboursRequest,
  SearchRequest,
} from './search-request.ts';

export const KABOODLE_NOT_FOUND = 'Kaboodle not found';
/** Members a smart kaboodle stands for when another search keeps to it (the search API's maximum). */
const SMART_MEMBERS = 100;

/** Cosine similarity at or above which two entities are near-duplicates. */
export const DUPLICATE_SIMILARITY = 0.95;
const DUPLICATES_LIMIT = 20;
/** Concurrent kNN lookups for one neighbours request. */
const NEIGHBOUR_CONCURRENCY = 8;

/** Where the time of one request went (ms), for the Server-Timing header and the bench. */
export interface SearchTiming {
  embed: number;
  index: number;
}

export interface Timed<T> {
  value: T;
  timing: SearchTiming;
  /** Served from the result cache. */
  cached?: boolean;
  /** Set when the query could not be embedded and keyword results stand in for semantic ones. */
  degraded?: 'keyword';
}

export interface SimilarityEdge {
  source: string;
  target: string;
  similarity: number;
}

export interface SearchServiceDeps {
  /** The open index; throws UnavailableError while it is not open yet. */
  index: () => SearchIndex;
  embedder: QueryEmbedder;
  logger: Logger;
  /** How hybrid ranks the two lists (default: the learned combination, see ranking.ts). */
  fusion?: HybridFusion;
  /** Recent answers per owner (none: every search runs). */
  results?: ResultCache<SearchHit[]>;
}

export { DEFAULT_FUSION, type HybridFusion } from './ranking.ts';

export interface SearchService {
  search(ownerId: string, request: SearchRequest): Promise<Timed<SearchHit[]>>;
  searchDocuments(ownerId: string, request: DocumentSearchRequest): Promise<Timed<SearchHit[]>>;
  related(ownerId: string, request: EntityRequest): Promise<SearchHit[]>;
  duplicates(ownerId: string, request: EntityRequest): Promise<SearchHit[]>;
  neighbours(ownerId: string, request: NeighboursRequest): Promise<SimilarityEdge[]>;
}

const NOT_FOUND: Record<IndexedEntityType, string> = {
  document: 'Document not found',
  inventory_item: 'Inventory item not found',
};

export function createSearchService(deps: SearchServiceDeps): SearchService {
  const fusion = deps.fusion ?? DEFAULT_FUSION;
  async function embed(text: string): Promise<{ vector?: Float32Array; ms: number; error?: unknown }> {
    const t = performance.now();
    try {
      const vector = await deps.embedder.embed(text);
      return { vector, ms: performance.now() - t };
    } catch (err) {
      return { ms: performance.now() - t, error: err };
    }
  }

  // The owner's entity count scales BM25 evidence for the match percentage (see corpus-sizes.ts).
  const sizes = new CorpusSizes((ownerId) => deps.index().entityCount(ownerId), {
    onError: (err) =>
      deps.logger.debug({ err }, 'owner size unavailable: match percentages use the last known'),
  });
  const corpusSize = (ownerId: string) => sizes.get(ownerId);

  async function run(
    ownerId: string,
    query: string,
    mode: 'keyword' | 'semantic' | 'hybrid',
    options: {
      limit: number;
      entityTypes?: IndexedEntityType[];
      category?: string;
      withExcerpts?: boolean;
      only?: MemberRef[];
    },
  ): Promise<Timed<SearchHit[]>> {
    const index = deps.index();
    const started = performance.now();
    const lists = {
      ownerId,
      text: query,
      ...(options.entityTypes?.length ? { entityTypes: options.entityTypes } : {}),
      ...(options.category !== undefined ? { category: options.category } : {}),
      ...(options.only ? { only: options.only } : {}),
    };
    const base = { ...lists, ...(options.withExcerpts ? { withExcerpts: true } : {}) };
    const finish = (hits: SearchHit[], embedMs: number, indexStart: number, degraded?: 'keyword') => {
      // kaboodle_search_duration_seconds{mode}: embedding and index together, as the caller waits.
      recordSearchDuration(mode, (performance.now() - started) / 1000);
      return {
        value: hits,
        timing: { embed: embedMs, index: performance.now() - indexStart },
        ...(degraded ? { degraded } : {}),
      };
    };

    if (mode === 'keyword') {
      const t = performance.now();
      // At least the background's depth, so the score knows how far the hit stands out.
      const hits = await index.search({ ...base, mode, limit: Math.max(options.limit, BACKGROUND_RANK) });
      return finish(
        calibrateList('keyword', hits, query, await corpusSize(ownerId)).slice(0, options.limit),
        0,
        t,
      );
    }

    if (mode === 'hybrid') {
      // Both lists deep enough for the fusion, as names and scores only: the display rows (and
      // excerpts) are read for the page alone. The keyword list needs no vector, so it runs while
      // the query is embedded.
      const depth = Math.min(100, Math.max(60, options.limit * 3));
      const byWords = index.searchKeys({ ...lists, mode: 'keyword', limit: depth });
      byWords.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
      const e = await embed(query);
      const t = performance.now();
      const page = async (refs: RankedRef[]) =>
        index.hitsOf({
          ownerId,
          refs,
          ...(options.withExcerpts && {
            excerptsFor: { text: query, ...(e.vector && { vector: e.vector }) },
          }),
        });
      if (!e.vector) {
        deps.logger.warn({ err: e.error }, 'query embedding failed: answering by keyword only');
        const refs = calibrateList('keyword', await byWords, query, await corpusSize(ownerId));
        return finish(await page(refs.slice(0, options.limit)), e.ms, t, 'keyword');
      }
      const byVector = await index.searchKeys({ ...lists, mode: 'semantic', vector: e.vector, limit: depth });
      const fused = fuseHybrid(byVector, await byWords, query, await corpusSize(ownerId), fusion);
      return finish(await page(fused.slice(0, options.limit)), e.ms, t);
    }

    const e = await embed(query);
    const t = performance.now();
    // Pure kNN has nothing to fall back on.
    if (!e.vector) throw new UnavailableError('embedding the search query', { cause: e.error });
    const hits = await index.search({
      ...base,
      mode,
      vector: e.vector,
      limit: Math.max(options.limit, BACKGROUND_RANK),
    });
    return finish(
      calibrateList('semantic', hits, query, await corpusSize(ownerId)).slice(0, options.limit),
      e.ms,
      t,
    );
  }

  /**
   * The entities a kaboodle stands for: its own members, or what a smart kaboodle's search finds now
   * (one level: the catalogue never lets a smart kaboodle search within another smart one, and a
   * deeper one found here stands for nothing). Missing, deleted and another owner's answer 404.
   */
  async function membersOf(ownerId: string, kaboodleId: string, depth: number): Promise<MemberRef[]> {
    const k = await deps.index().kaboodles.get(ownerId, kaboodleId);
    if (!k) throw new NotFoundError(KABOODLE_NOT_FOUND);
    if (!k.smart) return k.members;
    if (depth > 0) return [];
    const found = await unified(
      ownerId,
      {
        query: k.smart.query,
        searchType: k.smart.searchType,
        limit: SMART_MEMBERS,
        types: k.smart.entityTypes,
        ...(k.smart.category ? { category: k.smart.category } : {}),
        ...(k.smart.kaboodleId ? { kaboodle: k.smart.kaboodleId } : {}),
      },
      depth + 1,
    );
    return found.value.map((h) => ({ entityType: h.entityType, id: h.id }));
  }

  function unified(ownerId: string, r: SearchRequest, depth = 0): Promise<Timed<SearchHit[]>> {
    return cached(
      ownerId,
      [
        'search',
        normaliseQuery(r.query),
        r.searchType,
        r.limit,
        [...r.types].sort(),
        r.category ?? null,
        r.kaboodle ?? null,
        depth,
      ],
      async () => {
        const only = r.kaboodle !== undefined ? await membersOf(ownerId, r.kaboodle, depth) : undefined;
        return run(ownerId, r.query, MODE_OF[r.searchType], {
          limit: r.limit,
          entityTypes: r.types,
          ...(r.category !== undefined ? { category: r.category } : {}),
          ...(only ? { only } : {}),
        });
      },
    );
  }

  async function assertIndexed(index: SearchIndex, ownerId: string, request: EntityRequest): Promise<void> {
    const version = await index.versionOf({ entityType: request.type, id: request.id, ownerId });
    if (version === undefined) throw new NotFoundError(NOT_FOUND[request.type]);
  }

  /** Answer from the cache when the owner's index has not changed since; keep fresh answers. */
  async function cached(
    ownerId: string,
    key: unknown[],
    compute: () => Promise<Timed<SearchHit[]>>,
  ): Promise<Timed<SearchHit[]>> {
    const cache = deps.results;
    if (!cache) return compute();
    const k = JSON.stringify(key);
    const hit = cache.get(ownerId, k);
    if (hit) return { value: hit, timing: { embed: 0, index: 0 }, cached: true };
    const generation = cache.generationOf(ownerId);
    const answer = await compute();
    // A keyword stand-in for a failed embedding is not the answer to keep.
    if (!answer.degraded) cache.set(ownerId, k, answer.value, generation);
    return answer;
  }

  return {
    search: (ownerId, r) => unified(ownerId, r),

    searchDocuments: (ownerId, r) =>
      cached(ownerId, ['documents', normaliseQuery(r.query), r.limit], () =>
        run(ownerId, r.query, 'hybrid', { limit: r.limit, entityTypes: ['document'], withExcerpts: true }),
      ),

    async related(ownerId, r) {
      const index = deps.index();
      await assertIndexed(index, ownerId, r);
      const hits = await index.related({ ownerId, entityType: r.type, id: r.id, limit: r.limit });
      return hits.filter((h) => !(h.entityType === r.type && h.id === r.id));
    },

    async duplicates(ownerId, r) {
      const index = deps.index();
      await assertIndexed(index, ownerId, r);
      const hits = await index.related({
        ownerId,
        entityType: r.type,
        id: r.id,
        limit: Math.min(r.limit, DUPLICATES_LIMIT),
        minSimilarity: DUPLICATE_SIMILARITY,
      });
      return hits.filter(
        (h) => h.score >= DUPLICATE_SIMILARITY && !(h.entityType === r.type && h.id === r.id),
      );
    },

    async neighbours(ownerId, r) {
      const index = deps.index();
      const wanted = new Set(r.ids);
      const edges = new Map<string, SimilarityEdge>();
      // Ask for more than k: some neighbours are inventory items or documents outside the view.
      const depth = Math.min(50, Math.max(20, r.k * 4));
      let next = 0;
      const worker = async () => {
        while (next < r.ids.length) {
          const source = r.ids[next++]!;
          // Only the caller's own documents are sources: another user's id yields no edge at all.
          const own = await index.versionOf({ entityType: 'document', id: source, ownerId });
          if (own === undefined) continue;
          const hits = await index.related({
            ownerId,
            entityType: 'document',
            id: source,
            limit: depth,
            minSimilarity: r.minSimilarity,
          });
          const kept = hits
            .filter(
              (h) =>
                h.entityType === 'document' &&
                h.id !== source &&
                wanted.has(h.id) &&
                h.score >= r.minSimilarity,
            )
            .slice(0, r.k);
          for (const h of kept) {
            // Undirected: a–b and b–a are one edge, at the higher similarity.
            const [a, b] = source < h.id ? [source, h.id] : [h.id, source];
            const key = `${a}\u0000${b}`;
            const seen = edges.get(key);
            if (!seen || seen.similarity < h.score)
              edges.set(key, { source: a, target: b, similarity: h.score });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(NEIGHBOUR_CONCURRENCY, r.ids.length) }, worker));
      return [...edges.values()].sort(
        (x, y) =>
          y.similarity - x.similarity || x.source.localeCompare(y.source) || x.target.localeCompare(y.target),
      );
    },
  };
}
