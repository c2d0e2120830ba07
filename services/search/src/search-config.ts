// The search service's env keys: which index (embedded LanceDB by default, Elasticsearch when
// ELASTICSEARCH_URL is set) and the query-embedding cache. Defaults run as is.
import { defineConfig, env } from '@kaboodle/platform';

export const searchConfig = defineConfig({
  ELASTICSEARCH_URL: env.url({
    protocols: ['http', 'https'],
    description: 'Elasticsearch to index into (unset: the embedded index under KABOODLE_DATA_DIR)',
  }),
  ELASTICSEARCH_CA_FILE: env.path({
    description:
      'CA certificate (PEM) that signs the cluster’s HTTP certificate (the Helm chart mounts ECK’s); unset: the system’s CAs',
  }),
  ELASTICSEARCH_API_KEY: env.string({ secret: true, description: 'API key for ELASTICSEARCH_URL' }),
  ELASTICSEARCH_USERNAME: env.string({
    description: 'Basic-auth user for ELASTICSEARCH_URL (the Helm chart sets `elastic` for its ECK cluster)',
  }),
  ELASTICSEARCH_PASSWORD: env.string({
    secret: true,
    description: 'Basic-auth password for ELASTICSEARCH_URL',
  }),
  SEARCH_INDEX_NAME: env.string({
    default: 'kaboodle-entities',
    check: (v) => (/^[a-z0-9][a-z0-9_-]*$/.test(v) ? undefined : 'lowercase letters, digits, - and _ only'),
    description: 'Alias (Elasticsearch) or table (embedded) that searches read and writes go through',
  }),
  CATALOGUE_GRPC_ADDRESS: env.string({
    check: (v) =>
      /^[A-Za-z0-9.-]+:\d{1,5}$/.test(v) ? undefined : `must be host:port, got ${JSON.stringify(v)}`,
    description: 'host:port of the catalogue gRPC server (split mode): index rebuilds read from it',
  }),
  SEARCH_QUERY_CACHE_SIZE: env.int({
    min: 0,
    default: 1_000,
    description: 'Query embeddings kept in memory (0 turns the cache off)',
  }),
  SEARCH_RESULT_CACHE_SIZE: env.int({
    min: 0,
    default: 500,
    description:
      'Search answers kept per process, reused until the owner’s index changes (0 turns the cache off)',
  }),
  SEARCH_RESULT_CACHE_TTL: env.duration({
    min: 0,
    max: 3_600_000,
    description:
      'Longest a cached answer is reused. Unset: 10m with the in-process bus (this process applies every index write, so invalidation is exact), 5s with Kafka (several replicas each apply only their share of writes)',
  }),
  SEARCH_HYBRID_FUSION: env.enum(['learned', 'weighted', 'rrf'] as const, {
    default: 'learned',
    description:
      'How semantic/hybrid search ranks: learned (a logistic combination of cosine and BM25 evidence fitted on the evaluation sets), weighted (see SEARCH_HYBRID_VECTOR_WEIGHT) or rrf (reciprocal rank fusion, k = 60)',
  }),
  SEARCH_HYBRID_VECTOR_WEIGHT: env.string({
    default: '0.5',
    check: (v) => {
      const n = Number(v);
      return v.trim() !== '' && Number.isFinite(n) && n >= 0 && n <= 1
        ? undefined
        : `must be a number from 0 to 1, got ${JSON.stringify(v)}`;
    },
    description:
      'Weighted fusion: the share of the vector (cosine) score; the rest is the keyword (BM25) score',
  }),
  SEARCH_MEMORY_INDEX_MAX: env.int({
    min: 0,
    // 1M: the issue-21 corpus's big owner (990,000) fits; its memory index held 3.1–3.5 GB of RSS for
    // the whole process at rest (docs/benchmarks/2026-11-26-search-1m.md), and saves no longer copy it
    // (docs/benchmarks/2026-11-27-snapshot-saves.md)
    default: 1_000_000,
    description:
      'Embedded index: entities held in memory over all owners with more than 5,000 (f16 vector graph, typed-array BM25 index and key tables, about 1.8 KB each at 512 dimensions; display fields stay in a file); 0 keeps every query on LanceDB',
  }),
  // Measured with tests/bench/search/product.bench.ts at 20k items, 100 hybrid req/s on 2 cores
  // (docs/benchmarks/2026-11-26-search-harden.md): without a bound the server queued every request
  // and grew to 7.5–18 GB RSS.
  SEARCH_MAX_CONCURRENT: env.int({
    min: 1,
    max: 1_000,
    default: 8,
    description:
      'Searches (HTTP and gRPC) run at once per process; more wait their turn (see SEARCH_MAX_QUEUED)',
  }),
  SEARCH_MAX_QUEUED: env.int({
    min: 0,
    max: 10_000,
    default: 64,
    description:
      'Searches waiting for a turn beyond SEARCH_MAX_CONCURRENT; past that a search answers 503 with Retry-After at once instead of queueing without limit',
  }),
  SEARCH_REBUILD_ON_START: env.bool({
    default: true,
    description: 'Fill an empty index from the catalogue when search starts (a new folder or Elasticsearch)',
  }),
});
export type SearchConfig = ReturnType<typeof searchConfig.parse>;
