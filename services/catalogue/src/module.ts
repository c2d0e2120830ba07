// The catalogue service as a module: owns documents, inventory items, kaboodles and activity.
// Its routes and the file.processed consumer arrive with the ingestion-pipeline issue.
import express from 'express';
import type { Database, EventBus, Logger, ServiceModule, TokenVerifier } from '@kaboodle/platform';
import { migrations } from './migrations.ts';

export interface CatalogueModuleDeps {
  db: Database;
  bus: EventBus;
  verifier: TokenVerifier;
  logger: Logger;
}

export function createCatalogueModule(deps: CatalogueModuleDeps): ServiceModule {
  return {
    name: 'catalogue',
    checks: [{ name: 'catalogue.database', check: () => deps.db.ping() }],
    router: express.Router(),
    async start() {
      await deps.db.migrate(migrations);
    },
  };
}
