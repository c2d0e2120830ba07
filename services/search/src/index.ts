export * from './module.ts';
export * from './processing-client.ts';
export { photoSearchOperations, searchOperations } from './operations.ts';

// Also public: what the server composes and the contract tests exercise (no deep imports).
export { createElasticsearchImageIndex, imageIndexName } from './index/elasticsearch-image-index.ts';
export { createElasticsearchSearchIndex } from './index/elasticsearch-search-index.ts';
export type { ImageIndex, ImageRecord } from './index/image-index.port.ts';
export { createLanceDbImageIndex } from './index/lancedb-image-index.ts';
export { createLanceDbSearchIndex } from './index/lancedb-search-index.ts';
export type { AnnOptions } from './index/lancedb-search-index.ts';
export { OwnerVectorGraph } from './index/vector-graph.ts';
export type { VectorGraphSettings } from './index/vector-graph.ts';
// The memory index's keyword and display-row parts and their inputs, for the benches that measure
// them beside the structures they replaced (tests/bench/search/keyword-memory.ts).
export { OwnerKeywordIndex } from './index/keyword-index.ts';
export { OwnerDisplayRows } from './index/display-rows.ts';
export { createRowMapper, displayRow } from './index/lancedb-rows.ts';
export { LEAD_BOOST, PAIR_BOOST } from './index/search-scoring.ts';
export { analyse, wordPairs } from './index/text-analysis.ts';
export type { SearchType } from './search-request.ts';
export type {
  IndexedEntity,
  IndexedEntityType,
  IndexedKaboodle,
  HitsQuery,
  RankedRef,
  SearchHit,
  SearchIndex,
  SearchMode,
  SearchQuery,
} from './index/search-index.port.ts';
export { documentToIndexed, inventoryItemToIndexed } from './indexed-entity.ts';
export { createQueryEmbedder, normaliseQuery } from './query-embedder.ts';
export { GOOD_MATCH, calibrateList, fuseHybrid } from './ranking.ts';
export type { HybridFusion } from './ranking.ts';
export { searchConfig } from './search-config.ts';
export { createSearchGrpcService } from './search.grpc.ts';
export { createSearchService } from './search.service.ts';
export { docId } from './index/elasticsearch-mappings.ts';
export type { ElasticsearchSearchIndex } from './index/elasticsearch-search-index.ts';
export { openSearchIndex } from './open-search-index.ts';
export { CALIBRATION, LEARNED_FUSION, backgroundOf, queryWordCount, rareWordIdf } from './ranking.ts';
export type { ScoredMode } from './ranking.ts';
export { runReindexJob } from './reindex.job.ts';
export type { SearchConfig } from './search-config.ts';
