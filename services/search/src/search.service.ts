// The search use cases over the index port: unified search, document search with excerpts, related
// items, near-duplicates and the graph's similarity edges. Every call takes the owner id from the
// verified token and passes it to the index, which filters by it: nothing else is ever searched.
import { performance } from 'node:perf_hooks';
import { NotFoundError, UnavailableError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import type { IndexedEntityType, SearchHit, SearchIndex } from './index/search-index.port.ts';
import type { QueryEmbedder } from './query-embedder.ts';
import { MODE_OF } from './search-request.ts';
import type {
  DocumentSearchRequest,
  EntityRequest,
  NeighboursRequest,
  SearchRequest,
} from './search-request.ts';

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
}

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
  async function embed(text: string): Promise<{ vector?: Float32Array; ms: number; error?: unknown }> {
    const t = performance.now();
    try {
      const vector = await deps.embedder.embed(text);
      return { vector, ms: performance.now() - t };
    } catch (err) {
      return { ms: performance.now() - t, error: err };
    }
  }

  async function run(
    ownerId: string,
    query: string,
    mode: 'keyword' | 'semantic' | 'hybrid',
    options: { limit: number; entityTypes?: IndexedEntityType[]; category?: string; withExcerpts?: boolean },
  ): Promise<Timed<SearchHit[]>> {
    const index = deps.index();
    let embedMs = 0;
    let vector: Float32Array | undefined;
    let degraded: 'keyword' | undefined;
    if (mode !== 'keyword') {
      const e = await embed(query);
      embedMs = e.ms;
      vector = e.vector;
      if (!vector) {
        // Pure kNN has nothing to fall back on; hybrid still answers by its keyword half.
        if (mode === 'semantic') {
          throw new UnavailableError('embedding the search query', { cause: e.error });
        }
        deps.logger.warn({ err: e.error }, 'query embedding failed: answering by keyword only');
        degraded = 'keyword';
        mode = 'keyword';
      }
    }
    const t = performance.now();
    const hits = await index.search({
      ownerId,
      text: query,
      mode,
      limit: options.limit,
      ...(vector ? { vector } : {}),
      ...(options.entityTypes?.length ? { entityTypes: options.entityTypes } : {}),
      ...(options.category !== undefined ? { category: options.category } : {}),
      ...(options.withExcerpts ? { withExcerpts: true } : {}),
    });
    return {
      value: hits,
      timing: { embed: embedMs, index: performance.now() - t },
      ...(degraded ? { degraded } : {}),
    };
  }

  async function assertIndexed(index: SearchIndex, ownerId: string, request: EntityRequest): Promise<void> {
    const version = await index.versionOf({ entityType: request.type, id: request.id, ownerId });
    if (version === undefined) throw new NotFoundError(NOT_FOUND[request.type]);
  }

  return {
    search: (ownerId, r) =>
      run(ownerId, r.query, MODE_OF[r.searchType], {
        limit: r.limit,
        entityTypes: r.types,
        ...(r.category !== undefined ? { category: r.category } : {}),
      }),

    searchDocuments: (ownerId, r) =>
      run(ownerId, r.query, 'hybrid', { limit: r.limit, entityTypes: ['document'], withExcerpts: true }),

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
