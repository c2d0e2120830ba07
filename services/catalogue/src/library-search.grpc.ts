// The LibrarySearch port over gRPC (split mode): kaboodle.search.v1.SearchService at
// SEARCH_GRPC_ADDRESS answers smart kaboodles, the insights' neighbours and the index's size.
import { createGrpcClient, NotFoundError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import { EntityType, SearchService, SearchType } from '@kaboodle/proto';
import type { SearchHit } from '@kaboodle/proto';
import type { EntityKind } from './activity.repository.ts';
import type { LibraryHit, LibrarySearch, SmartSearchType } from './library-search.port.ts';

const KINDS: Partial<Record<EntityType, EntityKind>> = {
  [EntityType.DOCUMENT]: 'document',
  [EntityType.INVENTORY_ITEM]: 'inventory_item',
};
const PROTO_KINDS: Record<EntityKind, EntityType> = {
  document: EntityType.DOCUMENT,
  inventory_item: EntityType.INVENTORY_ITEM,
};
const SEARCH_TYPES: Record<SmartSearchType, SearchType> = {
  semantic: SearchType.SEMANTIC,
  keyword: SearchType.KEYWORD,
  hybrid: SearchType.HYBRID,
};

const hits = (results: SearchHit[]): LibraryHit[] =>
  results.flatMap((h) => {
    const type = KINDS[h.entityType];
    return type ? [{ type, id: h.id, score: h.score }] : [];
  });

export function connectLibrarySearch(address: string, logger: Logger): LibrarySearch & { close(): void } {
  const client = createGrpcClient(SearchService, address, { logger, deadlineMs: 10_000 });
  return {
    async search(ownerId, q) {
      const answer = await client.search({
        ownerId,
        query: q.query,
        searchType: SEARCH_TYPES[q.searchType],
        entityTypes: q.types.map((t) => PROTO_KINDS[t]),
        category: q.category ?? '',
        kaboodleId: q.kaboodleId ?? '',
        limit: q.limit,
      });
      return hits(answer.results);
    },
    async related(ownerId, ref, limit, minSimilarity) {
      try {
        const answer = await client.related({
          ownerId,
          entityType: PROTO_KINDS[ref.type],
          id: ref.id,
          limit,
          minSimilarity: minSimilarity ?? 0,
        });
        return hits(answer.results);
      } catch (err) {
        if (err instanceof NotFoundError) return []; // not indexed yet, or deleted meanwhile
        throw err;
      }
    },
    async indexStats(ownerId) {
      const answer = await client.indexStats({ ownerId });
      return { entities: Number(answer.entities), sizeBytes: Number(answer.sizeBytes) };
    },
    close: () => client.close(),
  };
}
