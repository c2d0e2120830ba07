// The search service as a module: owns the search index (hybrid keyword + vector), kept in step with
// the catalogue by the catalogue.changed consumer, searched through the routes. Query embeddings come
// from the processing service: in-process when both run here, gRPC otherwise.
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import { checkGrpcHealth, childLogger, ConflictError, UnavailableError } from '@kaboodle/platform';
import type {
  EventBus,
  HealthCheck,
  Logger,
  ServiceModule,
  Subscription,
  TokenVerifier,
} from '@kaboodle/platform';
import { subscribeCatalogueChanges } from './catalogue-changed.consumer.ts';
import type { ElasticsearchSearchIndex } from './index/elasticsearch-search-index.ts';
import type { ImageIndex } from './index/image-index.port.ts';
import type { IndexedEntity, SearchHit, SearchIndex, UpsertOutcome } from './index/search-index.port.ts';
import { imageRecordOf, withImageIndex } from './index/with-image-index.ts';
import { createIndexWriter } from './index-writer.ts';
import type { IndexWriter } from './index-writer.ts';
import { openImageIndex, openSearchIndex } from './open-search-index.ts';
import { createPhotoSearchRouter } from './photo-search.routes.ts';
import { createPhotoSearch } from './photo-search.service.ts';
import { connectCatalogue, connectProcessing, MAX_EMBED_TEXTS } from './processing-client.ts';
import type { CatalogueModuleHandle, EmbeddingSpace, ProcessingModuleHandle } from './processing-client.ts';
import { createQueryEmbedder } from './query-embedder.ts';
import type { QueryEmbedder } from './query-embedder.ts';
import { createRebuilder, REBUILD_RUNNING } from './rebuild.service.ts';
import type { Rebuilder } from './rebuild.service.ts';
import { createResultCache } from './result-cache.ts';
import { createSearchAdmission } from './search-admission.ts';
import type { SearchAdmission } from './search-admission.ts';
import type { RebuildReport } from './rebuild.service.ts';
import type { SearchConfig } from './search-config.ts';
import type { SearchRequest } from './search-request.ts';
import { createSearchGrpcService } from './search.grpc.ts';
import { createSearchRouter } from './search.routes.ts';
import { createSearchService } from './search.service.ts';

export interface SearchModuleDeps {
  bus: EventBus;
  verifier: TokenVerifier;
  logger: Logger;
  processing: ProcessingModuleHandle;
  /** Undefined when split without CATALOGUE_GRPC_ADDRESS: rebuilds are then unavailable. */
  catalogue: CatalogueModuleHandle | undefined;
  config: SearchConfig & { KABOODLE_DATA_DIR: string };
  /** Another index than the configured one (unit tests, benches); default openSearchIndex. */
  openIndex?: (space: EmbeddingSpace) => SearchIndex;
  /** Another image index (unit tests); default openImageIndex. */
  openImages?: (space: EmbeddingSpace) => ImageIndex;
}

export interface SearchModule extends ServiceModule {
  /** Stream every catalogue entity into the index (what POST /api/search/admin/rebuild starts). */
  rebuild(): Promise<RebuildReport>;
  /** Resolves once the index is open and the consumer subscribed (split: when processing first answers). */
  ready(): Promise<void>;
  /** The open index; throws UnavailableError before ready. */
  index(): SearchIndex;
  readonly embedder: QueryEmbedder;
  /** The bound on searches running and waiting, with its counts (metrics, tests). */
  readonly admission: SearchAdmission;
  /** The unified search as POST /api/search runs it (the catalogue's smart kaboodles, in-process). */
  search(ownerId: string, request: SearchRequest): Promise<SearchHit[]>;
}

const NOT_OPEN = 'the search index is not open yet';

/** The photo vectors of a rebuild's entities into the photo index alone (the text index has them). */
async function upsertPhotos(images: ImageIndex, entities: IndexedEntity[]): Promise<UpsertOutcome> {
  const records = entities.flatMap((e) => imageRecordOf(e, images) ?? []);
  return records.length > 0 ? images.upsert(records) : { applied: 0, stale: 0 };
}

export function createSearchModule(deps: SearchModuleDeps): SearchModule {
  const { bus, config } = deps;
  const logger = childLogger(deps.logger, 'search');
  const processing = connectProcessing(deps.processing, logger);
  const catalogue = connectCatalogue(deps.catalogue, logger);
  const embedder = createQueryEmbedder({
    embed: processing.embed,
    cacheSize: config.SEARCH_QUERY_CACHE_SIZE,
    maxBatch: MAX_EMBED_TEXTS,
  });

  let index: SearchIndex | undefined;
  let images: ImageIndex | undefined;
  let writer: IndexWriter | undefined;
  let dimensions = 0;
  let subscription: Subscription | undefined;
  let opening: Promise<void> | undefined;
  const stopping = new AbortController();

  const currentIndex = (): SearchIndex => {
    if (!index) throw new UnavailableError(NOT_OPEN);
    return index;
  };
  const rebuilder = createRebuilder({
    catalogue,
    writer: () => {
      if (!writer) throw new UnavailableError(NOT_OPEN);
      return writer;
    },
    index: () => {
      if (!index) throw new UnavailableError(NOT_OPEN);
      return index;
    },
    dimensions: () => dimensions,
    logger,
  });
  // A fill the module starts by itself (an empty index, a new embedding model) counts as a running
  // rebuild from its decision through its retries, not only while a stream runs: otherwise an admin
  // could read "not running" between two attempts and have the POST that follows refused with 409.
  let filling = false;
  const fillInBackground = (task: Promise<void>) => {
    filling = true;
    void task
      .catch((err: unknown) => logger.error({ err }, 'filling the search index on start failed'))
      .finally(() => {
        filling = false;
      });
  };
  const adminRebuilder: Rebuilder = {
    status: () => ({ ...rebuilder.status(), ...(filling && { running: true }) }),
    start(options) {
      if (filling) throw new ConflictError(REBUILD_RUNNING);
      return rebuilder.start(options);
    },
    run(options) {
      try {
        return adminRebuilder.start(options).done;
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
  const results = createResultCache<SearchHit[]>({
    size: config.SEARCH_RESULT_CACHE_SIZE,
    ttlMs: config.SEARCH_RESULT_CACHE_TTL ?? (bus.kind === 'memory' ? 600_000 : 5_000),
  });
  const service = createSearchService({
    index: currentIndex,
    embedder,
    logger,
    results,
    fusion:
      config.SEARCH_HYBRID_FUSION === 'weighted'
        ? { method: 'weighted', vectorWeight: Number(config.SEARCH_HYBRID_VECTOR_WEIGHT) }
        : { method: config.SEARCH_HYBRID_FUSION },
  });

  async function open(): Promise<void> {
    const space = await processing.space(stopping.signal);
    dimensions = space.dimensions;
    const opened = deps.openIndex?.(space) ?? openSearchIndex({ config, space, logger });
    await opened.open();
    // The photo vectors: beside the text index, written with it (find an item by photo).
    const imageSpace = await processing.imageSpace(stopping.signal).catch((err: unknown) => {
      logger.warn({ err }, 'the processing service offers no image model: find by photo is off');
      return undefined;
    });
    let written: SearchIndex = opened;
    if (imageSpace) {
      const opening = deps.openImages?.(imageSpace) ?? openImageIndex({ config, space: imageSpace });
      await opening.open();
      images = opening;
      written = withImageIndex(opened, opening);
    }
    index = opened;
    writer = createIndexWriter({
      index: written,
      onWritten: (owners) => owners.forEach((o) => results.invalidateOwner(o)),
    });
    subscription = await subscribeCatalogueChanges(bus, {
      writer,
      index: written,
      dimensions,
      logger,
      onOwnerRemoved: (o) => results.invalidateOwner(o),
      onKaboodleChanged: (o) => results.invalidateOwner(o),
    });
    logger.info({ kind: opened.kind, dimensions }, 'search index open');
    if (!catalogue) return;
    if (opened.kind === 'elasticsearch' && (opened as ElasticsearchSearchIndex).describe().reindexRequired) {
      fillInBackground(reindexForNewModel(opened as ElasticsearchSearchIndex));
    } else if (config.SEARCH_REBUILD_ON_START) {
      fillInBackground(rebuildIfEmpty(opened));
    }
  }

  /**
   * The embedder changed (model or dimensions): fill a new Elasticsearch index beside the live one
   * from the catalogue, then swap the alias. Searches keep answering (keyword-only) meanwhile.
   */
  async function reindexForNewModel(opened: ElasticsearchSearchIndex): Promise<void> {
    try {
      await opened.reindex(async (target) => {
        const report = await rebuilder.run({ into: (entities) => target.upsert(entities) });
        logger.info(
          { read: report.read, applied: report.applied },
          'new index filled for the new embedding model',
        );
      });
      logger.info({ alias: opened.alias }, 'search index rebuilt for the new embedding model and swapped in');
    } catch (err) {
      if (err instanceof ConflictError) {
        // Another replica or the reindex Job holds the lease: this one writes to both indices meanwhile
        // and follows the alias when it moves.
        logger.info({ reason: err.message }, 'search index reindex runs elsewhere; writing to both indices');
        return;
      }
      logger.error(
        { err },
        'rebuilding the search index for the new embedding model failed: semantic search stays keyword-only until POST /api/search/admin/rebuild succeeds',
      );
    }
  }

  /**
   * A new or wiped index is filled from the catalogue (a fresh Elasticsearch, a deleted folder). A
   * photo index made by this open (a first start with photos, a new image model) beside a filled
   * text index gets the photos alone. An empty photo index that was already there is a library
   * without photos: nothing to fill (a full rebuild there would rerun on every start).
   */
  async function rebuildIfEmpty(opened: SearchIndex): Promise<void> {
    let photosOnly: boolean;
    try {
      const entities = (await opened.stats()).entities;
      photosOnly = entities > 0 && images?.created === true;
      if (entities > 0 && !photosOnly) return;
    } catch (err) {
      logger.warn({ err }, 'could not tell whether the search index is empty: no automatic rebuild');
      return;
    }
    const photos = images;
    const options =
      photosOnly && photos
        ? { into: (entities: IndexedEntity[]) => upsertPhotos(photos, entities) }
        : undefined;
    // The catalogue may still be starting (its module or its pod): try a few times.
    for (let attempt = 1; attempt <= 6 && !stopping.signal.aborted; attempt++) {
      try {
        const report = await rebuilder.run(options);
        if (report.read > 0)
          logger.info(
            { read: report.read, applied: report.applied, photosOnly },
            photosOnly
              ? 'filled a new photo index from the catalogue'
              : 'filled an empty search index from the catalogue',
          );
        return;
      } catch (err) {
        const waitMs = 1000 * 2 ** (attempt - 1);
        logger.warn({ err, attempt, waitMs }, 'filling the empty search index from the catalogue failed');
        await sleep(waitMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      }
    }
  }

  const checks: HealthCheck[] = [
    {
      name: 'search.index',
      check: async () => {
        if (!index) throw new Error(NOT_OPEN);
        await index.ping();
        await images?.ping();
      },
    },
  ];
  if (deps.processing.kind === 'grpc') {
    const { address, credentials } = deps.processing;
    // Split mode: reported, never critical: keyword search still answers without query embeddings,
    // and one service's outage must not take another out of its Service (readiness cascade).
    checks.push({
      name: 'search.processing-grpc',
      check: () => checkGrpcHealth(address, { timeoutMs: 1500, ...(credentials && { credentials }) }),
      critical: false,
    });
  }

  // One bound for every way in (HTTP, gRPC, the catalogue in-process): they share the process.
  const admission = createSearchAdmission({
    concurrency: config.SEARCH_MAX_CONCURRENT,
    queued: config.SEARCH_MAX_QUEUED,
  });
  const photos = createPhotoSearch({
    images: () => {
      if (!images)
        throw new UnavailableError('Finding items by photo is not available yet; try again shortly.');
      return images;
    },
    embedImage: (bytes, signal) => processing.embedImage(bytes, signal),
  });
  const photoApi = createPhotoSearchRouter({ verifier: deps.verifier, photos, admission });
  const api = createSearchRouter({
    verifier: deps.verifier,
    service,
    rebuilder: adminRebuilder,
    logger,
    admission,
  });
  // the photo operations' fixed paths first, so no pattern of the text routes can take them
  const router = express.Router();
  router.use(photoApi.router);
  router.use(api.router);

  return {
    name: 'search',
    checks,
    router,
    operations: [...api.operations, ...photoApi.operations],
    // Split mode: the catalogue's smart kaboodles and insights ask over gRPC.
    grpc: [createSearchGrpcService({ service, index: currentIndex, admission })],
    embedder,
    admission,
    index: currentIndex,
    search: async (ownerId, request) => (await admission.run(() => service.search(ownerId, request))).value,
    rebuild: () => adminRebuilder.run(),
    ready: () => opening ?? Promise.reject(new UnavailableError('the search module has not started')),
    async start() {
      opening = open();
      if (deps.processing.kind === 'in-process') {
        await opening;
        return;
      }
      // Split: the embedding size comes from the processing service, which may start later; search
      // answers 503 and /readyz says why until then.
      opening.catch((err: unknown) => {
        if (!stopping.signal.aborted) logger.error({ err }, 'opening the search index failed');
      });
    },
    // Opening the index (split: waits for processing), then the catalogue-changed consumer. An
    // opening that failed is final (nothing opens it again), so it is reported too.
    background: async () => {
      await opening;
      await subscription?.ended;
    },
    async stop() {
      stopping.abort();
      await opening?.catch(() => undefined);
      await subscription?.close();
      await writer?.close();
      await index?.close();
      await images?.close();
      processing.close();
      catalogue?.close();
    },
  };
}
