// Rebuilds the index from the catalogue: streams every entity (ListForIndex, in-process or gRPC) into
// the write-behind buffer and every kaboodle's membership into the index's kaboodles, then deletes
// what the index holds and the catalogue no longer has (an event lost while search was down). Safe beside the live consumer: the index's version guard keeps
// whichever write is newer, so a rebuild never undoes an edit that arrived while it ran, and only
// entities last changed well before the rebuild began are pruned. One at a time.
import { ConflictError, UnavailableError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import type { ListForIndexResponse } from '@kaboodle/proto';
import type { IndexWriter, WriteResult } from './index-writer.ts';
import {
  documentToIndexed,
  inventoryItemToIndexed,
  kaboodleToIndexed,
  UnindexableEntityError,
} from './indexed-entity.ts';
import type {
  IndexedEntity,
  IndexedKaboodle,
  SearchIndex,
  UpsertOutcome,
} from './index/search-index.port.ts';
import type { CatalogueClient } from './processing-client.ts';

export interface RebuildReport {
  running: boolean;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** Entities read from the catalogue. */
  read: number;
  applied: number;
  /** Already in the index at that version or newer. */
  stale: number;
  /** Not indexable (e.g. an embedding from another model). */
  skipped: number;
  /** Deleted from the index because the catalogue no longer has them. */
  removed: number;
  error: string | null;
}

export interface Rebuilder {
  /**
   * Start a rebuild and return at once with the promise of its end. Throws (synchronously)
   * ConflictError while one is running, UnavailableError when there is no catalogue to read.
   */
  start(options?: RebuildOptions): { done: Promise<RebuildReport> };
  /** Start a rebuild and wait for its end. */
  run(options?: RebuildOptions): Promise<RebuildReport>;
  status(): RebuildReport;
}

export interface RebuildOptions {
  /**
   * Write into this instead of the live index's buffer: a new index being filled beside the live one
   * (Elasticsearch's reindex after an embedding-model change), swapped in when the rebuild ends.
   */
  into?: (entities: IndexedEntity[]) => Promise<UpsertOutcome>;
}

export const REBUILD_RUNNING = 'An index rebuild is already running';
/** Entities per write when filling a new index directly. */
const INTO_BATCH = 200;
/** Writes handed to the buffer before waiting for them (bounded memory on a large catalogue). */
const WINDOW = 1_000;
/**
 * Index entries changed less than this before the rebuild began are never pruned, even when the
 * catalogue's stream did not list them: their events may still be on the way, and the catalogue's
 * clock (which stamps updatedAt) may run ahead of this process's.
 */
export const PRUNE_MARGIN_MS = 60_000;

export function createRebuilder(deps: {
  catalogue: CatalogueClient | undefined;
  writer: () => IndexWriter;
  /**
   * The live index: its kaboodles take the memberships (in both modes: they are not part of a new
   * index), and it is listed after the stream to prune what the catalogue no longer has.
   */
  index?: () => Pick<SearchIndex, 'listLive' | 'kaboodles'>;
  dimensions: () => number;
  logger: Logger;
}): Rebuilder {
  let report: RebuildReport = {
    running: false,
    startedAt: null,
    finishedAt: null,
    read: 0,
    applied: 0,
    stale: 0,
    skipped: 0,
    removed: 0,
    error: null,
  };

  const keyOf = (ownerId: string, type: string, id: string) => JSON.stringify([ownerId, type, id]);

  async function stream(
    r: RebuildReport,
    catalogue: CatalogueClient,
    options: RebuildOptions,
  ): Promise<void> {
    const dimensions = deps.dimensions();
    let window: Promise<WriteResult>[] = [];
    let batch: IndexedEntity[] = [];
    const into = options.into;
    const writer = into ? undefined : deps.writer();
    const settle = async () => {
      for (const result of await Promise.all(window)) r[result]++;
      window = [];
      if (into && batch.length > 0) {
        const outcome = await into(batch);
        r.applied += outcome.applied;
        r.stale += outcome.stale;
        batch = [];
      }
    };
    const seen = new Set<string>();
    const kaboodlesSeen = new Set<string>();
    let kaboodles: IndexedKaboodle[] = [];
    const writeKaboodles = async () => {
      if (kaboodles.length === 0) return;
      const outcome = await deps.index!().kaboodles.upsert(kaboodles);
      r.applied += outcome.applied;
      r.stale += outcome.stale;
      kaboodles = [];
    };
    for await (const message of catalogue.listForIndex() as AsyncIterable<ListForIndexResponse>) {
      r.read++;
      if (message.entity.case === 'kaboodle') {
        const k = message.entity.value;
        kaboodlesSeen.add(JSON.stringify([k.ownerId, k.id]));
        try {
          if (!deps.index) throw new UnindexableEntityError('no index to keep kaboodles in');
          kaboodles.push(kaboodleToIndexed(k));
        } catch (err) {
          if (!(err instanceof UnindexableEntityError)) throw err;
          r.skipped++;
          deps.logger.warn({ reason: err.message }, 'rebuild: kaboodle not indexable');
        }
        if (kaboodles.length >= INTO_BATCH) await writeKaboodles();
        continue;
      }
      // Listed = still in the catalogue, indexable or not: never pruned.
      if (message.entity.case === 'document')
        seen.add(keyOf(message.entity.value.ownerId, 'document', message.entity.value.id));
      else if (message.entity.case === 'inventoryItem')
        seen.add(keyOf(message.entity.value.ownerId, 'inventory_item', message.entity.value.id));
      try {
        const entity =
          message.entity.case === 'document'
            ? documentToIndexed(message.entity.value, dimensions)
            : message.entity.case === 'inventoryItem'
              ? inventoryItemToIndexed(message.entity.value, dimensions)
              : undefined;
        if (!entity) {
          r.skipped++;
          continue;
        }
        if (writer) window.push(writer.upsert(entity));
        else batch.push(entity);
      } catch (err) {
        if (!(err instanceof UnindexableEntityError)) throw err;
        r.skipped++;
        deps.logger.warn({ reason: err.message }, 'rebuild: entity not indexable');
      }
      if (window.length >= WINDOW || batch.length >= INTO_BATCH) await settle();
    }
    await settle();
    await writeKaboodles();
    if (deps.index && r.startedAt) {
      // Kaboodles deleted while search was not listening (memberships live beside any new index).
      const updatedBefore = new Date(r.startedAt.getTime() - PRUNE_MARGIN_MS);
      const live = deps.index().kaboodles;
      for await (const refs of live.listLive({ updatedBefore })) {
        const gone = refs.filter((ref) => !kaboodlesSeen.has(JSON.stringify([ref.ownerId, ref.id])));
        if (gone.length === 0) continue;
        const outcome = await live.delete(gone.map((ref) => ({ ...ref, version: ref.version + 1 })));
        r.removed += outcome.applied;
      }
    }
    // A new index (into) holds only what was just streamed; the live one may hold orphans.
    if (writer && deps.index && r.startedAt) {
      const updatedBefore = new Date(r.startedAt.getTime() - PRUNE_MARGIN_MS);
      for await (const refs of deps.index().listLive({ updatedBefore })) {
        const gone = refs.filter((ref) => !seen.has(keyOf(ref.ownerId, ref.entityType, ref.id)));
        // One version past the stored one: the delete wins over what is there, and is remembered.
        const results = await Promise.all(
          gone.map((ref) => writer.delete({ ...ref, version: ref.version + 1 })),
        );
        for (const result of results) if (result === 'applied') r.removed++;
      }
    }
  }

  function start(options: RebuildOptions = {}): { done: Promise<RebuildReport> } {
    const catalogue = deps.catalogue;
    if (!catalogue) {
      throw new UnavailableError('rebuilding needs the catalogue (CATALOGUE_GRPC_ADDRESS when split)');
    }
    if (report.running) throw new ConflictError(REBUILD_RUNNING);
    const r: RebuildReport = {
      running: true,
      startedAt: new Date(),
      finishedAt: null,
      read: 0,
      applied: 0,
      stale: 0,
      skipped: 0,
      removed: 0,
      error: null,
    };
    report = r;
    deps.logger.info('index rebuild started');
    const done = (async () => {
      try {
        await stream(r, catalogue, options);
        deps.logger.info(
          { read: r.read, applied: r.applied, stale: r.stale, skipped: r.skipped, removed: r.removed },
          'index rebuild finished',
        );
      } catch (err) {
        r.error = err instanceof Error ? err.message : String(err);
        deps.logger.error({ err, read: r.read }, 'index rebuild failed');
        throw err;
      } finally {
        r.running = false;
        r.finishedAt = new Date();
      }
      return { ...r };
    })();
    return { done };
  }

  return {
    status: () => ({ ...report }),
    start,
    run(options) {
      try {
        return start(options).done;
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
}
