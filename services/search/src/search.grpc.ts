// kaboodle.search.v1.SearchService on the platform gRPC kit (split mode): the catalogue's smart
// kaboodles run the unified search, its insights read vector neighbours and the index's size. The
// same service and index as the HTTP routes; results are only ever the named owner's.
import { InputError, implementGrpcService, NotFoundError, validateInput } from '@kaboodle/platform';
import type { GrpcServiceRegistration } from '@kaboodle/platform';
import { create, EntityType, SearchHitSchema, SearchService, SearchType } from '@kaboodle/proto';
import type { SearchHit as SearchHitMessage } from '@kaboodle/proto';
import type { IndexedEntityType, SearchHit, SearchIndex } from './index/search-index.port.ts';
import { MAX_LIMIT, MAX_RELATED, queryField } from './search-request.ts';
import type { SearchType as ApiSearchType } from './search-request.ts';
import type { SearchAdmission } from './search-admission.ts';
import type { SearchService as Searches } from './search.service.ts';

const TYPES: Partial<Record<EntityType, IndexedEntityType>> = {
  [EntityType.DOCUMENT]: 'document',
  [EntityType.INVENTORY_ITEM]: 'inventory_item',
};
const PROTO_TYPES: Record<IndexedEntityType, EntityType> = {
  document: EntityType.DOCUMENT,
  inventory_item: EntityType.INVENTORY_ITEM,
};
const SEARCH_TYPES: Record<SearchType, ApiSearchType> = {
  [SearchType.UNSPECIFIED]: 'hybrid',
  [SearchType.SEMANTIC]: 'semantic',
  [SearchType.KEYWORD]: 'keyword',
  [SearchType.HYBRID]: 'hybrid',
};

function owner(id: string): string {
  if (!id) throw new InputError('owner_id is required');
  return id;
}

const clamp = (n: number, fallback: number, max: number) => Math.min(max, Math.max(1, n || fallback));

function hitMessage(h: SearchHit): SearchHitMessage {
  const document = h.entityType === 'document';
  return create(SearchHitSchema, {
    entityType: PROTO_TYPES[h.entityType],
    id: h.id,
    title: document ? h.title : '',
    name: document ? '' : h.title,
    description: h.description,
    content: h.content,
    url: h.url,
    imageUrl: h.imageUrl,
    score: h.score,
    category: h.category,
    excerpt: h.excerpt ?? '',
  });
}

export function createSearchGrpcService(deps: {
  service: Searches;
  index: () => SearchIndex;
  /** The HTTP routes' bound on searches running and waiting (past it: UNAVAILABLE). */
  admission?: SearchAdmission;
}): GrpcServiceRegistration {
  const admit = <T>(work: () => Promise<T>) => (deps.admission ? deps.admission.run(work) : work());
  return implementGrpcService(SearchService, {
    async search(request) {
      const types = request.entityTypes.flatMap((t) => (TYPES[t] ? [TYPES[t]] : []));
      const ownerId = owner(request.ownerId);
      const searchRequest = {
        query: validateInput(queryField, request.query, 'body'),
        searchType: SEARCH_TYPES[request.searchType] ?? 'hybrid',
        limit: clamp(request.limit, 20, MAX_LIMIT),
        types,
        ...(request.category ? { category: request.category } : {}),
        ...(request.kaboodleId ? { kaboodle: request.kaboodleId } : {}),
      };
      const timed = await admit(() => deps.service.search(ownerId, searchRequest));
      return { results: timed.value.map(hitMessage) };
    },
    async related(request) {
      const type = TYPES[request.entityType];
      if (!type) throw new InputError('entity_type must be a document or an inventory item');
      const ownerId = owner(request.ownerId);
      const index = deps.index();
      // Another owner's id is not theirs: NOT_FOUND, exactly like a missing one.
      if ((await index.versionOf({ entityType: type, id: request.id, ownerId })) === undefined) {
        throw new NotFoundError(type === 'document' ? 'Document not found' : 'Inventory item not found');
      }
      const hits = await index.related({
        ownerId,
        entityType: type,
        id: request.id,
        limit: clamp(request.limit, 10, MAX_RELATED),
        ...(request.minSimilarity > 0 ? { minSimilarity: request.minSimilarity } : {}),
      });
      return {
        results: hits.filter((h) => !(h.entityType === type && h.id === request.id)).map(hitMessage),
      };
    },
    async indexStats(request) {
      const stats = await deps.index().stats(owner(request.ownerId));
      return { entities: BigInt(stats.entities), sizeBytes: BigInt(Math.round(stats.sizeBytes)) };
    },
  });
}
