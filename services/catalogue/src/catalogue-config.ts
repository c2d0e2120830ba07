// The catalogue service's env keys. Defaults run as is.
import { defineConfig, env } from '@kaboodle/platform/config/index.ts';

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
});
export type CatalogueConfig = ReturnType<typeof catalogueConfig.parse>;
