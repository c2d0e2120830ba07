// Uploaded files and their processing status, always read and written for one owner (the status
// consumer and the stale sweep, which act for the system, address files by id alone).
import type { Queryable } from '@kaboodle/platform';

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

interface FileRow {
  id: string;
  owner_id: string;
  name: string;
  size: string | number;
  content_type: string;
  sniffed_type: string | null;
  sha256: string;
  blob_key: string;
  status: FileStatus;
  stage: string | null;
  progress: number;
  error: string | null;
  attempt: number;
  dispatches: number;
  destination: DestinationName;
  instructions: string;
  source_url: string | null;
  result_type: ResultType | null;
  result_id: string | null;
  sample: boolean | null;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (r: FileRow): FileRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  size: Number(r.size),
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
  sample: r.sample === true,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
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
const NOT_WAITING_FOR_BUS = `NOT EXISTS (SELECT 1 FROM outbox o WHERE o.key = files.id::text
  AND (o.published_at IS NULL OR o.published_at > now() - $1 * interval '1 millisecond'))`;

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

export function createFileRepository(db: Queryable) {
  return {
    /** The owner's file, or null: another user's file is indistinguishable from none. */
    async findForOwner(ownerId: string, id: string, q: Queryable = db): Promise<FileRecord | null> {
      if (!isFileId(id)) return null;
      const { rows } = await q.query<FileRow>('SELECT * FROM files WHERE id = $1 AND owner_id = $2', [
        id,
        ownerId,
      ]);
      return rows[0] ? toRecord(rows[0]) : null;
    },

    /** The owner's earlier upload of the same content, if any (duplicate detection). */
    async findBySha(ownerId: string, sha256: string): Promise<FileRecord | null> {
      const { rows } = await db.query<FileRow>(
        `SELECT * FROM files WHERE owner_id = $1 AND sha256 = $2 AND status NOT IN ('cancelled', 'failed')
          ORDER BY created_at DESC LIMIT 1`,
        [ownerId, sha256],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },

    /** One page of the owner's files, newest first, and how many there are in all (Media Hub). */
    async listForOwner(
      ownerId: string,
      opts: { page: number; limit: number; status?: FileStatus },
    ): Promise<{ files: FileRecord[]; total: number }> {
      const params: unknown[] = [ownerId];
      let where = 'owner_id = $1';
      if (opts.status) {
        params.push(opts.status);
        where += ` AND status = $${params.length}`;
      }
      const total = await db.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM files WHERE ${where}`,
        params,
      );
      const { rows } = await db.query<FileRow>(
        `SELECT * FROM files WHERE ${where} ORDER BY created_at DESC, id DESC
          LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, opts.limit, (opts.page - 1) * opts.limit],
      );
      return { files: rows.map(toRecord), total: Number(total.rows[0]?.n ?? 0) };
    },

    async insert(q: Queryable, f: NewFile): Promise<FileRecord> {
      const { rows } = await q.query<FileRow>(
        `INSERT INTO files (id, owner_id, name, size, content_type, sniffed_type, sha256, blob_key, status,
                            stage, progress, destination, instructions, source_url, sample)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', 'uploaded', 0, $9, $10, $11, $12) RETURNING *`,
        [
          f.id,
          f.ownerId,
          f.name,
          f.size,
          f.contentType,
          f.sniffedType ?? null,
          f.sha256,
          f.blobKey,
          f.destination,
          f.instructions,
          f.sourceUrl ?? null,
          f.sample === true,
        ],
      );
      return toRecord(rows[0]!);
    },

    /** The owner's sample-library files (the first-run samples), oldest first. */
    async listSamples(ownerId: string, q: Queryable = db): Promise<FileRecord[]> {
      const { rows } = await q.query<FileRow>(
        'SELECT * FROM files WHERE owner_id = $1 AND sample ORDER BY created_at, id',
        [ownerId],
      );
      return rows.map(toRecord);
    },

    /** Delete every sample-library file of the owner; their blobs go to blob_deletions. */
    async deleteSamples(tx: Queryable, ownerId: string): Promise<FileRecord[]> {
      const { rows } = await tx.query<FileRow>(
        'DELETE FROM files WHERE owner_id = $1 AND sample RETURNING *',
        [ownerId],
      );
      for (const row of rows) {
        await tx.query('INSERT INTO blob_deletions (blob_key) VALUES ($1) ON CONFLICT DO NOTHING', [
          row.blob_key,
        ]);
      }
      return rows.map(toRecord);
    },

    /**
     * Apply a status from processing or the catalogue. Only the file's current attempt counts; a file
     * that has ended (completed, failed, cancelled) keeps its end; progress never goes backwards. So
     * a redelivered or late event of an earlier attempt changes nothing.
     */
    async applyStatus(id: string, s: StatusUpdate): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE files SET status = $2, stage = $3, progress = GREATEST(progress, $4), error = $5,
                updated_at = now(),
                result_type = CASE WHEN $2 = 'completed' THEN $7 ELSE result_type END,
                result_id = CASE WHEN $2 = 'completed' THEN $8 ELSE result_id END
          WHERE id = $1 AND status NOT IN ('completed', 'failed', 'cancelled')
            AND ($6 = 0 OR attempt = $6)
            AND (progress <= $4 OR $2 IN ('completed', 'failed'))`,
        [id, s.status, s.stage, s.progress, s.error, s.attempt, s.result?.type ?? null, s.result?.id ?? null],
      );
      return rowCount > 0;
    },

    /** Cancel queued or running work; returns the file as it now is, or null when not the owner's. */
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
      const { rows } = await tx.query<FileRow>(
        `UPDATE files SET status = 'cancelled', stage = 'cancelled', updated_at = now()
          WHERE id = $1 AND owner_id = $2 AND status IN ('queued', 'processing')
          RETURNING *`,
        [id, ownerId],
      );
      if (rows[0]) return { file: toRecord(rows[0]), cancelled: true };
      const { rows: found } = await tx.query<FileRow>('SELECT * FROM files WHERE id = $1 AND owner_id = $2', [
        id,
        ownerId,
      ]);
      return found[0] ? { file: toRecord(found[0]), cancelled: false } : null;
    },

    /**
     * Delete the owner's file record and, in the same transaction, remember its blob for deletion,
     * so a blob delete that fails after commit is retried instead of forgotten. Null when not theirs.
     */
    async deleteForOwner(tx: Queryable, ownerId: string, id: string): Promise<FileRecord | null> {
      if (!isFileId(id)) return null;
      const { rows } = await tx.query<FileRow>(
        'DELETE FROM files WHERE id = $1 AND owner_id = $2 RETURNING *',
        [id, ownerId],
      );
      if (!rows[0]) return null;
      await tx.query('INSERT INTO blob_deletions (blob_key) VALUES ($1) ON CONFLICT DO NOTHING', [
        rows[0].blob_key,
      ]);
      return toRecord(rows[0]);
    },

    /**
     * Remove the owner's failed uploads of these bytes (a new upload of them replaces the failed
     * ones, so a retry leaves one entry, not a trail of copies). Their blobs go to blob_deletions.
     */
    async deleteFailedCopies(tx: Queryable, ownerId: string, sha256: string): Promise<FileRecord[]> {
      const { rows } = await tx.query<FileRow>(
        `DELETE FROM files WHERE owner_id = $1 AND sha256 = $2 AND status = 'failed' RETURNING *`,
        [ownerId, sha256],
      );
      for (const row of rows) {
        await tx.query('INSERT INTO blob_deletions (blob_key) VALUES ($1) ON CONFLICT DO NOTHING', [
          row.blob_key,
        ]);
      }
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
      const { rows } = await tx.query<FileRow>(
        `UPDATE files SET attempt = attempt + 1, dispatches = 1, status = 'queued', stage = 'uploaded',
                progress = 0, error = NULL, updated_at = now(),
                instructions = COALESCE($3, instructions), destination = COALESCE($4, destination)
          WHERE id = $1 AND owner_id = $2 AND status NOT IN ('queued', 'processing')
          RETURNING *`,
        [id, ownerId, change.instructions ?? null, change.destination ?? null],
      );
      if (rows[0]) return toRecord(rows[0]);
      const current = await this.findForOwner(ownerId, id, tx);
      return current ? 'running' : null;
    },

    /**
     * Stale claims: files queued or processing with no status for `staleMs`. One UPDATE … RETURNING
     * per kind, so with several ingestion replicas each stale file is taken by exactly one of them
     * (the row lock makes the second UPDATE re-check its WHERE and skip it).
     */
    async redispatchStale(tx: Queryable, staleMs: number, batch = 100): Promise<FileRecord[]> {
      const { rows } = await tx.query<FileRow>(
        `UPDATE files SET attempt = attempt + 1, dispatches = dispatches + 1, status = 'queued',
                stage = 'uploaded', progress = 0, updated_at = now()
          WHERE id IN (SELECT id FROM files
                        WHERE status IN ('queued', 'processing') AND dispatches < $2
                          AND updated_at < now() - $1 * interval '1 millisecond'
                          AND ${NOT_WAITING_FOR_BUS}
                        ORDER BY updated_at LIMIT $3)
            AND status IN ('queued', 'processing') AND dispatches < $2
            AND updated_at < now() - $1 * interval '1 millisecond'
          RETURNING *`,
        [staleMs, MAX_DISPATCHES, batch],
      );
      return rows.map(toRecord);
    },

    /** Stale files that have had every dispatch: they end failed with a reason a person can act on. */
    async failStale(staleMs: number): Promise<FileRecord[]> {
      const { rows } = await db.query<FileRow>(
        `UPDATE files SET status = 'failed', stage = 'done', progress = 100, error = $3, updated_at = now()
          WHERE status IN ('queued', 'processing') AND dispatches >= $2
            AND updated_at < now() - $1 * interval '1 millisecond'
            AND ${NOT_WAITING_FOR_BUS}
          RETURNING *`,
        [staleMs, MAX_DISPATCHES, STALE_REASON],
      );
      return rows.map(toRecord);
    },

    /** Blobs whose delete has not succeeded yet, oldest first (retried by the sweep). */
    async pendingBlobDeletions(olderThanMs: number, batch = 100): Promise<string[]> {
      const { rows } = await db.query<{ blob_key: string }>(
        `SELECT blob_key FROM blob_deletions WHERE created_at < now() - $1 * interval '1 millisecond'
          ORDER BY created_at LIMIT $2`,
        [olderThanMs, batch],
      );
      return rows.map((r) => r.blob_key);
    },

    async blobDeleted(blobKey: string): Promise<void> {
      await db.query('DELETE FROM blob_deletions WHERE blob_key = $1', [blobKey]);
    },

    async blobDeleteFailed(blobKey: string, reason: string): Promise<void> {
      await db.query(
        'UPDATE blob_deletions SET attempts = attempts + 1, last_error = $2 WHERE blob_key = $1',
        [blobKey, reason],
      );
    },
  };
}

export type FileRepository = ReturnType<typeof createFileRepository>;
