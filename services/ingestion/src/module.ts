// The ingestion service: owns uploaded files and their status (spec §7 /process, /upload). Uploads
// stream into the blob store; the record and its file.uploaded event commit together (outbox); the
// file.status consumer keeps status and progress in step with processing.
import { childLogger } from '@kaboodle/platform';
import { createOutbox } from '@kaboodle/platform/outbox/index.ts';
import type {
  BlobStore,
  Database,
  EventBus,
  Logger,
  ServiceModule,
  Subscription,
  TokenVerifier,
} from '@kaboodle/platform';
import { createFileRepository } from './file.repository.ts';
import { subscribeFileStatus } from './file-status.consumer.ts';
import { createIngestionRouter } from './ingestion.routes.ts';
import type { IngestionConfig } from './ingestion-config.ts';
import { migrations } from './migrations.ts';

export interface IngestionModuleDeps {
  db: Database;
  bus: EventBus;
  blobs: BlobStore;
  verifier: TokenVerifier;
  logger: Logger;
  config: IngestionConfig;
}

export function createIngestionModule(deps: IngestionModuleDeps): ServiceModule {
  const { db, bus, blobs, verifier } = deps;
  const logger = childLogger(deps.logger, 'ingestion');
  const files = createFileRepository(db);
  const outbox = createOutbox({ db, bus, logger });
  let subscription: Subscription | undefined;
  return {
    name: 'ingestion',
    router: createIngestionRouter({ db, files, blobs, outbox, verifier }),
    checks: [{ name: 'ingestion.database', check: () => db.ping() }],
    async start() {
      await db.migrate([...migrations, ...outbox.migrations]);
      await outbox.start();
      subscription = await subscribeFileStatus({ bus, files, logger });
    },
    async stop() {
      await subscription?.close();
      await outbox.stop();
    },
  };
}
