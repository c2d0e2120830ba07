// The catalogue's LibrarySearch port over the search module in the same process: smart kaboodles run
// the unified search, recommendations and near-duplicates read vector neighbours from the index.
import { NotFoundError } from '@kaboodle/platform';
import type { LibraryHit, LibrarySearch } from '@kaboodle/catalogue';
import type { SearchModule } from '@kaboodle/search';

const hit = (h: { entityType: 'document' | 'inventory_item'; id: string; score: number }): LibraryHit => ({
  type: h.entityType,
  id: h.id,
  score: h.score,
});

export function librarySearchOf(search: SearchModule): LibrarySearch {
  return {
    async search(ownerId, q) {
      const hits = await search.search(ownerId, {
        query: q.query,
        searchType: q.searchType,
        limit: q.limit,
        types: q.types,
        ...(q.category ? { category: q.category } : {}),
        ...(q.kaboodleId ? { kaboodle: q.kaboodleId } : {}),
      });
      return hits.map(hit);
    },
    async related(ownerId, ref, limit, minSimilarity) {
      try {
        const hits = await search.index().related({
          ownerId,
          entityType: ref.type,
          id: ref.id,
          limit,
          ...(minSimilarity !== undefined ? { minSimilarity } : {}),
        });
        return hits.filter((h) => !(h.entityType === ref.type && h.id === ref.id)).map(hit);
      } catch (err) {
        if (err instanceof NotFoundError) return []; // not indexed yet, or deleted meanwhile
        throw err;
      }
    },
    indexStats: (ownerId) => search.index().stats(ownerId),
  };
}
