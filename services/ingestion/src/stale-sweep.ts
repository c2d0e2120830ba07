// The stale-claim sweep: a periodic job that hands files stuck in queued/processing (no status for
// STALE_FILE_AFTER, e.g. a worker killed mid-file or an event lost with an in-process bus) to
// processing again as a new attempt, up to MAX_DISPATCHES, then fails them with a reason; and retries
// blob deletes that failed after their record was gone. Safe with several ingestion replicas: each
// claim is one UPDATE … RETURNING, so a stale file is taken by exactly one of them.
import type { BlobStore, Database, Logger } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import { fileUploadedEvent } from './file-events.ts';
import type { FileRepository } from './file.repository.ts';

export interface StaleSweepDeps {
  db: Database;
  files: FileRepository;
  blobs: BlobStore;
  outbox: Outbox;
  logger: Logger;
  staleAfterMs: number;
  /** Between rounds (default staleAfterMs / 4), jittered ±20% so replicas do not march in step. */
  intervalMs?: number;
}

export interface SweepResult {
  redispatched: number;
  failed: number;
  blobsDeleted: number;
}

export interface StaleSweep {
  /** One round now (tests, and the timer). */
  sweep(): Promise<SweepResult>;
  start(): void;
  stop(): Promise<void>;
}

export function createStaleSweep(deps: StaleSweepDeps): StaleSweep {
  const { db, files, blobs, outbox, logger, staleAfterMs } = deps;
  const intervalMs = deps.intervalMs ?? Math.max(1_000, Math.floor(staleAfterMs / 4));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  async function deleteBlobs(): Promise<number> {
    let deleted = 0;
    // Only deletes older than a minute: the request that deleted the record is trying right now.
    for (const key of await files.pendingBlobDeletions(Math.min(60_000, staleAfterMs))) {
      try {
        await blobs.delete(key);
        await files.blobDeleted(key);
        deleted++;
      } catch (err) {
        await files.blobDeleteFailed(key, (err as Error)?.message ?? String(err)).catch(() => undefined);
        logger.warn({ err, blobKey: key }, 'deleting a removed file’s blob failed again; will retry');
      }
    }
    return deleted;
  }

  async function sweep(): Promise<SweepResult> {
    const redispatched = await db.transaction(async (tx) => {
      const stale = await files.redispatchStale(tx, staleAfterMs);
      if (stale.length > 0) await outbox.enqueue(tx, stale.map(fileUploadedEvent));
      return stale;
    });
    for (const f of redispatched) {
      logger.warn(
        { fileId: f.id, attempt: f.attempt, dispatch: f.dispatches },
        'file had no status for too long; handed to processing again',
      );
    }
    const failed = await files.failStale(staleAfterMs);
    for (const f of failed)
      logger.warn({ fileId: f.id, attempt: f.attempt }, 'file failed: processing did not finish');
    const blobsDeleted = await deleteBlobs();
    return { redispatched: redispatched.length, failed: failed.length, blobsDeleted };
  }

  function schedule(): void {
    if (stopped) return;
    const jittered = intervalMs * (0.8 + Math.random() * 0.4);
    timer = setTimeout(() => {
      running = sweep()
        .catch((err: unknown) => logger.warn({ err }, 'stale-file sweep failed; will try again'))
        .finally(schedule);
    }, jittered);
    timer.unref();
  }

  return {
    sweep,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
