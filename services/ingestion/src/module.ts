// The ingestion service: owns uploaded files and their status (spec §7 /process, /upload).
// The bus and blob store report their own health (the entrypoint opens them); the database is its own.
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
    checks: [{ name: 'ingestion.database', check: () => deps.db.ping() }],
    router: createIngestionRouter({ files, verifier: deps.verifier }),
    async start() {
      await deps.db.migrate(migrations);
    },
  };
}
