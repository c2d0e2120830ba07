// The ingestion service: owns uploaded files and their status (spec §7 /process, /upload).
// Engine health (database, bus, blob store) is reported by the entrypoint that opens them.
import type { BlobStore, Database, EventBus, ServiceModule, TokenVerifier } from '@kaboodle/platform';
import { createFileRepository } from './file.repository.ts';
import { createIngestionRouter } from './ingestion.routes.ts';
import { migrations } from './migrations.ts';

export interface IngestionModuleDeps {
  db: Database;
  bus: EventBus;
  blobs: BlobStore;
  verifier: TokenVerifier;
}

export function createIngestionModule(deps: IngestionModuleDeps): ServiceModule {
  const files = createFileRepository(deps.db);
  return {
    name: 'ingestion',
    router: createIngestionRouter({ files, verifier: deps.verifier }),
    async start() {
      await deps.db.migrate(migrations);
    },
  };
}
