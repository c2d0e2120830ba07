// The catalogue service as a module: owns documents, inventory items, kaboodles and activity.
// Its routes and the file.processed consumer arrive with the ingestion-pipeline issue.
import express from 'express';
import type { BlobStore, Database, EventBus, Logger, ServiceModule, TokenVerifier } from '@kaboodle/platform';
import type { CatalogueConfig } from './catalogue-config.ts';
import { migrations } from './migrations.ts';

export interface CatalogueModuleDeps {
  db: Database;
  bus: EventBus;
  blobs: BlobStore;
  verifier: TokenVerifier;
  logger: Logger;
  config: CatalogueConfig;
}

/** The catalogue module; in-process callers (search rebuilds in `--target=all`) use it directly. */
export type CatalogueModule = ServiceModule;

export function createCatalogueModule(deps: CatalogueModuleDeps): CatalogueModule {
  return {
    name: 'catalogue',
    checks: [{ name: 'catalogue.database', check: () => deps.db.ping() }],
    router: express.Router(),
    async start() {
      await deps.db.migrate(migrations);
    },
  };
}
