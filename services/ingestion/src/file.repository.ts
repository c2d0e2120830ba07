// Uploaded files and their processing status, always read and written for one owner (the status
// consumer and the stale sweep, which act for the system, address files by id alone).
import { runAll, runCount, runFirst, sql } from '@kaboodle/platform';
import type { Queryable, Selectable } from '@kaboodle/platform';
import { ingestionSql as q0 } from './db-schema.ts';
import type { Files } from './db-schema.gen.ts';

export type FileStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
export const FILE_STATUSES: readonly FileStatus[] = [
  'queued',
  'processing',
  'completed',
  'failed',
  'cancelled',
];
export const TERMINAL: ReadonlySet<FileStatus> = new Set(['completed', 'failed', 'cancelled']);
export type DestinationName = 'auto' | 'document' | 'inventory';
export type ResultType = 'document' | 'inventory_item';

export interface FileRecord {
  id: string;
  ownerId: string;
  name: string;
  size: number;
  contentType: string;
  /** The type the first bytes show (served with this), null for files stored before sniffing. */
  sniffedType: string | null;
  sha256: string;
  blobKey: string;
  status: FileStatus;
  stage: string | null;
  progress: number;
  error: string | null;
  /** 1 on upload, + 1 on each reprocess or stale re-dispatch; statuses of older attempts are ignored. */
  attempt: number;
  /** Dispatches of the current request (reset by reprocess); the sweep gives up after MAX_DISPATCHES. */
  dispatches: number;
  destination: DestinationName;
  instructions: string;
  sourceUrl: string | null;
  resultType: ResultType | null;
  resultId: string | null;
  /** Part of the first-run sample library, not the user's own upload. */
  sample: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const toRecord = (r: Selectable<Files>): FileRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  size: r.size,
  contentType: r.content_type,
  sniffedType: r.sniffed_type,
  sha256: r.sha256,
  blobKey: r.blob_key,
  status: r.status,
  stage: r.stage,
  progress: r.progress,
  error: r.error,
  attempt: r.attempt,
  dispatches: r.dispatches,
  destination: r.destination,
  instructions: r.instructions,
  sourceUrl: r.source_url,
  resultType: r.result_type,
  resultId: r.result_id,
  sample: r.sample,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids come from URLs: anything that is not a UUID cannot name a file (and must not reach SQL as one). */
export const isFileId = (id: string): boolean => UUID.test(id);

/** A stale file is re-dispatched until it has been handed to processing this many times, then failed. */
export const MAX_DISPATCHES = 3;
export const STALE_REASON = 'Processing did not finish. Please try again.';

/**
 * A file whose announcement is still in the outbox (bus down, relay lease not yet taken over after a
 * crash), or left it less than the stale window ago, is waiting for the bus, not stuck: the clock
 * starts when its event is published. (The outbox table lives in this schema; key = file id.)
 */
const notWaitingForBus = (staleMs: number) =>
  sql<boolean>`NOT EXISTS (SELECT 1 FROM outbox o WHERE o.key = files.id::text
    AND (o.published_at IS NULL OR o.published_at > now() - ${staleMs} * interval '1 millisecond'))`;

/** `now() - ms`: for "no change for ms" conditions. */
const msAgo = (ms: number) => sql<Date>`now() - ${ms} * interval '1 millisecond'`;
const now = sql<Date>`now()`;
const RUNNING: FileStatus[] = ['queued', 'processing'];

export type NewFile = Pick<
  FileRecord,
  'id' | 'ownerId' | 'name' | 'size' | 'contentType' | 'sha256' | 'blobKey' | 'destination' | 'instructions'
> &
  Partial<Pick<FileRecord, 'sniffedType' | 'sourceUrl' | 'sample'>>;

export interface StatusUpdate {
  status: FileStatus;
  stage: string;
  progress: number;
  error: string | null;
  /** 0 when the sender did not say (older producers): applied to the current attempt. */
  attempt: number;
  result?: { type: ResultType; id: string } | null;
}

/** Remember the blobs of deleted rows, so a blob delete that fails after commit is retried. */
async function forgetBlobs(tx: Queryable, rows: readonly { blob_key: string }[]): Promise<void> {
  for (const row of rows) {
    await runCount(
      tx,
      q0
        .insertInto('blob_deletions')
        .values({ blob_key: row.blob_key })
        .onConflict((oc) => oc.doNothing()),
    );
  }
}

export function createFileRepository(db: Queryable) {
  const ownFile = (ownerId: string, id: string) =>
    q0.selectFrom('files').selectAll().where('id', '=', id).where('owner_id', '=', ownerId);
  return {
    /** The owner's file, or null: another user's file is indistinguishable from none. */
    async findForOwner(ownerId: string, id: string, q: Queryable = db): Promise<FileRecord | null> {
      if (!isFileId(id)) return null;
      const row = await runFirst(q, ownFile(ownerId, id));
      return row ? toRecord(row) : null;
    },

    /** The owner's earlier upload of the same content, if any (duplicate detection). */
    async findBySha(ownerId: string, sha256: string): Promise<FileRecord | null> {
      const row = await runFirst(
        db,
        q0
          .selectFrom('files')
          .selectAll()
          .where('owner_id', '=', ownerId)
          .where('sha256', '=', sha256)
          .where('status', 'not in', ['cancelled', 'failed'])
          .orderBy('created_at', 'desc')
          .limit(1),
      );
      return row ? toRecord(row) : null;
    },

    /** One page of the owner's files, newest first, and how many there are in all (Media Hub). */
    async listForOwner(
      ownerId: string,
      opts: { page: number; limit: number; status?: FileStatus },
    ): Promise<{ files: FileRecord[]; total: number }> {
      let owned = q0.selectFrom('files').where('owner_id', '=', ownerId);
      if (opts.status) owned = owned.where('status', '=', opts.status);
      const total = await runFirst(
        db,
        owned.select((eb) => eb.fn.countAll<number>().as('n')),
      );
      const rows = await runAll(
        db,
        owned
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(opts.limit)
          .offset((opts.page - 1) * opts.limit),
      );
      return { files: rows.map(toRecord), total: total?.n ?? 0 };
    },

    async insert(q: Queryable, f: NewFile): Promise<FileRecord> {
      const row = await runFirst(
        q,
        q0
          .insertInto('files')
          .values({
            id: f.id,
            owner_id: f.ownerId,
            name: f.name,
            size: f.size,
            content_type: f.contentType,
            sniffed_type: f.sniffedType ?? null,
            sha256: f.sha256,
            blob_key: f.blobKey,
            status: 'queued',
            stage: 'uploaded',
            progress: 0,
            destination: f.destination,
            instructions: f.instructions,
            source_url: f.sourceUrl ?? null,
            sample: f.sample === true,
          })
          .returningAll(),
      );
      return toRecord(row!);
    },

    /** The owner's sample-library files (the first-run samples), oldest first. */
    async listSamples(ownerId: string, q: Queryable = db): Promise<FileRecord[]> {
      const rows = await runAll(
        q,
        q0
          .selectFrom('files')
          .selectAll()
          .where('owner_id', '=', ownerId)
          .where('sample', '=', true)
          .orderBy('created_at')
          .orderBy('id'),
      );
      return rows.map(toRecord);
    },

    /** Delete every sample-library file of the owner; their blobs go to blob_deletions. */
    async deleteSamples(tx: Queryable, ownerId: string): Promise<FileRecord[]> {
      const rows = await runAll(
        tx,
        q0.deleteFrom('files').where('owner_id', '=', ownerId).where('sample', '=', true).returningAll(),
      );
      await forgetBlobs(tx, rows);
      return rows.map(toRecord);
    },

    /**
     * Apply a status from processing or the catalogue. Only the file's current attempt counts; a file
     * that has ended (completed, failed, cancelled) keeps its end; progress never goes backwards. So
     * a redelivered or late event of an earlier attempt changes nothing.
     */
    async applyStatus(id: string, s: StatusUpdate): Promise<boolean> {
      const completed = s.status === 'completed';
      const changed = await runCount(
        db,
        q0
          .updateTable('files')
          .set((eb) => ({
            status: s.status,
            stage: s.stage,
            progress: eb.fn<number>('GREATEST', [eb.ref('progress'), eb.val(s.progress)]),
            error: s.error,
            updated_at: now,
            // what the file became is known once it completes
            ...(completed ? { result_type: s.result?.type ?? null, result_id: s.result?.id ?? null } : {}),
          }))
          .where('id', '=', id)
          .where('status', 'not in', ['completed', 'failed', 'cancelled'])
          .$if(s.attempt !== 0, (qb) => qb.where('attempt', '=', s.attempt))
          .$if(s.status !== 'completed' && s.status !== 'failed', (qb) =>
            qb.where('progress', '<=', s.progress),
          ),
      );
      return changed > 0;
    },

    /**
     * Cancel queued or running work. `cancelled` says whether this call did it (then the caller
     * publishes the cancellation in the same transaction); otherwise the file as it is, or null.
     */
    async cancel(
      tx: Queryable,
      ownerId: string,
      id: string,
    ): Promise<{ file: FileRecord; cancelled: boolean } | null> {
      if (!isFileId(id)) return null;
      const row = await runFirst(
        tx,
        q0
          .updateTable('files')
          .set({ status: 'cancelled', stage: 'cancelled', updated_at: now })
          .where('id', '=', id)
          .where('owner_id', '=', ownerId)
          .where('status', 'in', RUNNING)
          .returningAll(),
      );
      if (row) return { file: toRecord(row), cancelled: true };
      const found = await runFirst(tx, ownFile(ownerId, id));
      return found ? { file: toRecord(found), cancelled: false } : null;
    },

    /**
     * Delete the owner's file record and, in the same transaction, remember its blob for deletion,
     * so a blob delete that fails after commit is retried instead of forgotten. Null when not theirs.
     */
    async deleteForOwner(tx: Queryable, ownerId: string, id: string): Promise<FileRecord | null> {
      if (!isFileId(id)) return null;
      const row = await runFirst(
        tx,
        q0.deleteFrom('files').where('id', '=', id).where('owner_id', '=', ownerId).returningAll(),
      );
      if (!row) return null;
      await forgetBlobs(tx, [row]);
      return toRecord(row);
    },

    /**
     * Remove the owner's failed uploads of these bytes (a new upload of them replaces the failed
     * ones, so a retry leaves one entry, not a trail of copies). Their blobs go to blob_deletions.
     */
    async deleteFailedCopies(tx: Queryable, ownerId: string, sha256: string): Promise<FileRecord[]> {
      const rows = await runAll(
        tx,
        q0
          .deleteFrom('files')
          .where('owner_id', '=', ownerId)
          .where('sha256', '=', sha256)
          .where('status', '=', 'failed')
          .returningAll(),
      );
      await forgetBlobs(tx, rows);
      return rows.map(toRecord);
    },

    /**
     * Queue the owner's ended file again as a new attempt (dispatch count reset). Null when the file
     * is not theirs; `running` when it is queued or processing (one statement, so two concurrent
     * requests cannot both win).
     */
    async requeue(
      tx: Queryable,
      ownerId: string,
      id: string,
      change: { instructions?: string; destination?: DestinationName },
    ): Promise<FileRecord | 'running' | null> {
      if (!isFileId(id)) return null;
      const row = await runFirst(
        tx,
        q0
          .updateTable('files')
          .set((eb) => ({
            attempt: eb('attempt', '+', 1),
            dispatches: 1,
            status: 'queued',
            stage: 'uploaded',
            progress: 0,
            error: null,
            updated_at: now,
            // undefined: unchanged
            instructions: change.instructions,
            destination: change.destination,
          }))
          .where('id', '=', id)
          .where('owner_id', '=', ownerId)
          .where('status', 'not in', RUNNING)
          .returningAll(),
      );
      if (row) return toRecord(row);
      const current = await this.findForOwner(ownerId, id, tx);
      return current ? 'running' : null;
    },

    /**
     * Stale claims: files queued or processing with no status for `staleMs`. One UPDATE … RETURNING
     * per kind, so with several ingestion replicas each stale file is taken by exactly one of them
     * (the row lock makes the second UPDATE re-check its WHERE and skip it).
     */
    async redispatchStale(tx: Queryable, staleMs: number, batch = 100): Promise<FileRecord[]> {
      const rows = await runAll(
        tx,
        q0
          .updateTable('files')
          .set((eb) => ({
            attempt: eb('attempt', '+', 1),
            dispatches: eb('dispatches', '+', 1),
            status: 'queued',
            stage: 'uploaded',
            progress: 0,
            updated_at: now,
          }))
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('files')
              .select('id')
              .where('status', 'in', RUNNING)
              .where('dispatches', '<', MAX_DISPATCHES)
              .where('updated_at', '<', msAgo(staleMs))
              .where(notWaitingForBus(staleMs))
              .orderBy('updated_at')
              .limit(batch),
          )
          // checked again on the locked row: another replica may have taken it meanwhile
          .where('status', 'in', RUNNING)
          .where('dispatches', '<', MAX_DISPATCHES)
          .where('updated_at', '<', msAgo(staleMs))
          .returningAll(),
      );
      return rows.map(toRecord);
    },

    /** Stale files that have had every dispatch: they end failed with a reason a person can act on. */
    async failStale(staleMs: number): Promise<FileRecord[]> {
      const rows = await runAll(
        db,
        q0
          .updateTable('files')
          .set({ status: 'failed', stage: 'done', progress: 100, error: STALE_REASON, updated_at: now })
          .where('status', 'in', RUNNING)
          .where('dispatches', '>=', MAX_DISPATCHES)
          .where('updated_at', '<', msAgo(staleMs))
          .where(notWaitingForBus(staleMs))
          .returningAll(),
      );
      return rows.map(toRecord);
    },

    /** Blobs whose delete has not succeeded yet, oldest first (retried by the sweep). */
    async pendingBlobDeletions(olderThanMs: number, batch = 100): Promise<string[]> {
      const rows = await runAll(
        db,
        q0
          .selectFrom('blob_deletions')
          .select('blob_key')
          .where('created_at', '<', msAgo(olderThanMs))
          .orderBy('created_at')
          .limit(batch),
      );
      return rows.map((r) => r.blob_key);
    },

    async blobDeleted(blobKey: string): Promise<void> {
      await runCount(db, q0.deleteFrom('blob_deletions').where('blob_key', '=', blobKey));
    },

    async blobDeleteFailed(blobKey: string, reason: string): Promise<void> {
      await runCount(
        db,
        q0
          .updateTable('blob_deletions')
          .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: reason }))
          .where('blob_key', '=', blobKey),
      );
    },
  };
}

export type FileRepository = ReturnType<typeof createFileRepository>;
