// The ingestion service: owns uploaded files and their status (docs/product.md#calls /process, /upload, the
// Media Hub). Uploads and pasted URLs stream into the blob store; the record and its file.uploaded event
// commit together (outbox); the file.status consumer keeps status, progress and result in step; the stale
// sweep re-dispatches files nobody reports on and retries blob deletes that failed.
import { childLogger } from '@kaboodle/platform';
import { allEnded, createOutbox } from '@kaboodle/platform';
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
import { createIngestionService } from './ingestion.service.ts';
import type { IngestionConfig } from './ingestion-config.ts';
import { migrations } from './migrations.ts';
import { createStaleSweep } from './stale-sweep.ts';
import { createAddressPolicy } from './url-guard.ts';

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
  // Uploads wake the relay at once; the poll only matters for rows committed by another replica.
  const outbox = createOutbox({ db, bus, logger, pollIntervalMs: 500 });
  const policy = createAddressPolicy(deps.config.URL_FETCH_ALLOW_HOSTS);
  const sweep = createStaleSweep({
    db,
    files,
    blobs,
    outbox,
    logger,
    staleAfterMs: deps.config.STALE_FILE_AFTER,
  });
  const service = createIngestionService({
    db,
    files,
    blobs,
    outbox,
    logger,
    fetchOptions: {
      policy,
      timeoutMs: deps.config.URL_FETCH_TIMEOUT,
      maxRedirects: deps.config.URL_FETCH_MAX_REDIRECTS,
    },
  });
  const api = createIngestionRouter({ service, blobs, verifier });
  let subscription: Subscription | undefined;
  return {
    name: 'ingestion',
    router: api.router,
    operations: api.operations,
    checks: [{ name: 'ingestion.database', check: () => db.ping() }],
    async start() {
      await db.migrate([...migrations, ...outbox.migrations]);
      await outbox.start();
      subscription = await subscribeFileStatus({ bus, files, logger });
      sweep.start();
    },
    // The file.status consumer and the outbox relay; the stale sweep logs and retries its own failures.
    background: () => allEnded(subscription?.ended, outbox.ended()),
    async stop() {
      await sweep.stop();
      await subscription?.close();
      await outbox.stop();
    },
  };
}
