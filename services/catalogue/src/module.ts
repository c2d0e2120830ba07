// The catalogue service as a module: owns documents, inventory items, per-user activity and stats.
// file.processed becomes a document or an inventory item (id = the source file id) and the catalogue
// reports the file COMPLETED once it is stored; every change goes out as catalogue.changed through
// the outbox. Other services read it over gRPC (split) or through the typed methods below (in-process).
import express from 'express';
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
import type { GetDocumentResponse, GetInventoryItemResponse, ListForIndexResponse } from '@kaboodle/proto';
import { createActivityRepository } from './activity.repository.ts';
import { createActivityRouter } from './activity.routes.ts';
import type { CatalogueConfig } from './catalogue-config.ts';
import { createCatalogueGrpcService } from './catalogue.grpc.ts';
import { createCatalogueReader } from './catalogue-reader.ts';
import type { GetDocumentInit, GetInventoryItemInit, ListForIndexInit } from './catalogue-reader.ts';
import { createCatalogueService } from './catalogue.service.ts';
import { createDocumentRepository } from './document.repository.ts';
import { createDocumentsRouter } from './documents.routes.ts';
import { subscribeFileEvents } from './file-events.consumer.ts';
import { createInventoryRepository } from './inventory.repository.ts';
import { createInventoryRouter } from './inventory.routes.ts';
import { createInsightsRepository } from './insights.repository.ts';
import { createInsightsRouter } from './insights.routes.ts';
import { createInsightsService } from './insights.service.ts';
import { createKaboodleRepository } from './kaboodle.repository.ts';
import { createKaboodleService } from './kaboodle.service.ts';
import { createKaboodlesRouter } from './kaboodles.routes.ts';
import { connectLibrarySearch } from './library-search.grpc.ts';
import type { LibrarySearchHandle } from './library-search.port.ts';
import { createInventoryService } from './inventory.service.ts';
import { migrations } from './migrations.ts';

export interface CatalogueModuleDeps {
  db: Database;
  bus: EventBus;
  blobs: BlobStore;
  verifier: TokenVerifier;
  logger: Logger;
  config: CatalogueConfig;
  /**
   * The search service, for smart kaboodles and the insights' vector parts (in-process in
   * `--target=all`); absent when split, and those parts say they are unavailable.
   */
  search?: LibrarySearchHandle;
}

/** The catalogue module; in-process callers (search in `--target=all`) use these methods directly. */
export interface CatalogueModule extends ServiceModule {
  /** Every entity of the requested types, oldest change first (resumable with after_version). */
  listForIndex(req: ListForIndexInit): AsyncIterable<ListForIndexResponse>;
  /** NotFoundError when missing or not the owner's. */
  getDocument(req: GetDocumentInit): Promise<GetDocumentResponse>;
  getInventoryItem(req: GetInventoryItemInit): Promise<GetInventoryItemResponse>;
}

/** Applied event ids are kept this long: far beyond any redelivery of the bus. */
const CONSUMED_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export function createCatalogueModule(deps: CatalogueModuleDeps): CatalogueModule {
  const { db, bus, blobs, verifier, config } = deps;
  const logger = childLogger(deps.logger, 'catalogue');
  const documents = createDocumentRepository(db);
  const inventory = createInventoryRepository(db);
  const activity = createActivityRepository(db);
  const outbox = createOutbox({ db, bus, logger });
  // In-process when search runs here; over gRPC when split and its address is known.
  const remoteSearch =
    !deps.search && config.SEARCH_GRPC_ADDRESS
      ? connectLibrarySearch(config.SEARCH_GRPC_ADDRESS, logger)
      : undefined;
  const search: LibrarySearchHandle = deps.search ?? (() => remoteSearch);
  const kaboodleRows = createKaboodleRepository(db);
  const kaboodles = createKaboodleService({ db, kaboodles: kaboodleRows, activity, outbox, search });
  const service = createCatalogueService({
    db,
    documents,
    inventory,
    activity,
    outbox,
    onEntityDeleted: (tx, ownerId, ref) => kaboodles.entityRemoved(tx, ownerId, ref),
  });
  const insights = createInsightsService({
    db,
    insights: createInsightsRepository(db),
    kaboodleRows,
    kaboodles,
    catalogue: service,
    activity,
    outbox,
    search,
    logger,
  });
  const reader = createCatalogueReader({ db, documents, inventory, kaboodles: kaboodleRows });
  const items = createInventoryService({
    db,
    inventory,
    activity,
    outbox,
    onEntityDeleted: (tx, ownerId, ref) => kaboodles.entityRemoved(tx, ownerId, ref),
  });
  const inventoryApi = createInventoryRouter({
    inventory,
    service,
    items,
    blobs,
    verifier,
    logger,
    exportMaxRows: config.CATALOGUE_EXPORT_MAX_ROWS,
  });

  const documentsApi = createDocumentsRouter({
    documents,
    service,
    blobs,
    verifier,
    exportMaxRows: config.CATALOGUE_EXPORT_MAX_ROWS,
  });
  const activityApi = createActivityRouter({ activity, verifier });
  const router = express.Router();
  router.use(documentsApi.router);
  router.use(inventoryApi.router);
  router.use(activityApi.router);
  const kaboodleApi = createKaboodlesRouter({ kaboodles, documents, inventory, verifier });
  const insightsApi = createInsightsRouter({ insights, verifier });
  router.use(kaboodleApi.router);
  router.use(insightsApi.router);

  let subscription: Subscription | undefined;
  return {
    name: 'catalogue',
    router,
    operations: [
      ...documentsApi.operations,
      ...inventoryApi.operations,
      ...activityApi.operations,
      ...kaboodleApi.operations,
      ...insightsApi.operations,
    ],
    grpc: [createCatalogueGrpcService(reader)],
    checks: [{ name: 'catalogue.database', check: () => db.ping() }],
    listForIndex: (req) => reader.listForIndex(req),
    getDocument: (req) => reader.getDocument(req),
    getInventoryItem: (req) => reader.getInventoryItem(req),
    async start() {
      await db.migrate([...migrations, ...outbox.migrations]);
      await activity.pruneConsumed(CONSUMED_RETENTION_MS).catch((err: unknown) => {
        logger.warn({ err }, 'could not prune applied event ids');
      });
      await outbox.start();
      subscription = await subscribeFileEvents({
        bus,
        service,
        logger,
        concurrency: config.CATALOGUE_CONSUMER_CONCURRENCY,
      });
    },
    // The file events consumer and the outbox relay.
    background: () => allEnded(subscription?.ended, outbox.ended()),
    async stop() {
      await subscription?.close();
      await outbox.stop();
      remoteSearch?.close();
    },
  };
}
