// The catalogue service's env keys. Defaults run as is.
import { defineConfig, env } from '@kaboodle/platform';

export const catalogueConfig = defineConfig({
  CATALOGUE_EXPORT_MAX_ROWS: env.int({
    min: 1,
    default: 100_000,
    description: 'Most rows one export (CSV/JSON) streams',
  }),
  CATALOGUE_CONSUMER_CONCURRENCY: env.int({
    min: 1,
    max: 64,
    default: 4,
    description:
      'File events (processed, uploaded, status, deleted) the catalogue applies at once (different files)',
  }),
  SEARCH_GRPC_ADDRESS: env.string({
    check: (v) =>
      /^[A-Za-z0-9.-]+:\d{1,5}$/.test(v) ? undefined : `must be host:port, got ${JSON.stringify(v)}`,
    description:
      'host:port of the search gRPC server (split mode): smart kaboodles and the insights ask it; unset, they say search is unavailable',
  }),
});
export type CatalogueConfig = ReturnType<typeof catalogueConfig.parse>;
