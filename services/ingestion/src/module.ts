// The ingestion service: owns uploaded files and their status (spec §7 /process, /upload).
// Upload routes arrive with the ingestion-pipeline issue; today it owns its schema. Engine health
// (database, bus, blob store) is reported by the entrypoint that opens them.
import express from 'express';
import type { BlobStore, Database, EventBus, ServiceModule } from '@kaboodle/platform';
import { migrations } from './migrations.ts';

export interface IngestionModuleDeps {
  db: Database;
  bus: EventBus;
  blobs: BlobStore;
}

export function createIngestionModule(deps: IngestionModuleDeps): ServiceModule {
  return {
    name: 'ingestion',
    router: express.Router(),
    async start() {
      await deps.db.migrate(migrations);
    },
  };
}
