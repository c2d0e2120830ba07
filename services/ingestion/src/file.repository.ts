// Uploaded files and their processing status, always read and written for one owner.
import type { Queryable } from '@kaboodle/platform';

export type FileStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL: ReadonlySet<FileStatus> = new Set(['completed', 'failed', 'cancelled']);

export interface FileRecord {
  id: string;
  ownerId: string;
  name: string;
  size: number;
  contentType: string;
  sha256: string;
  blobKey: string;
  status: FileStatus;
  stage: string | null;
  progress: number;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface FileRow {
  id: string;
  owner_id: string;
  name: string;
  size: string | number;
  content_type: string;
  sha256: string;
  blob_key: string;
  status: FileStatus;
  stage: string | null;
  progress: number;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (r: FileRow): FileRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  size: Number(r.size),
  contentType: r.content_type,
  sha256: r.sha256,
  blobKey: r.blob_key,
  status: r.status,
  stage: r.stage,
  progress: r.progress,
  error: r.error,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids come from URLs: anything that is not a UUID cannot name a file (and must not reach SQL as one). */
export const isFileId = (id: string): boolean => UUID.test(id);

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
        `SELECT * FROM files WHERE owner_id = $1 AND sha256 = $2 AND status <> 'cancelled'
          ORDER BY created_at DESC LIMIT 1`,
        [ownerId, sha256],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },

    async insert(
      q: Queryable,
      f: Pick<FileRecord, 'id' | 'ownerId' | 'name' | 'size' | 'contentType' | 'sha256' | 'blobKey'>,
    ): Promise<FileRecord> {
      const { rows } = await q.query<FileRow>(
        `INSERT INTO files (id, owner_id, name, size, content_type, sha256, blob_key, status, stage, progress)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', 'uploaded', 0) RETURNING *`,
        [f.id, f.ownerId, f.name, f.size, f.contentType, f.sha256, f.blobKey],
      );
      return toRecord(rows[0]!);
    },

    /**
     * Apply a status from the processing service. A file that has ended (completed, failed, cancelled)
     * keeps its end; progress never goes backwards, so a redelivered older event changes nothing.
     */
    async applyStatus(
      id: string,
      s: { status: FileStatus; stage: string; progress: number; error: string | null },
    ): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE files SET status = $2, stage = $3, progress = GREATEST(progress, $4), error = $5, updated_at = now()
          WHERE id = $1 AND status NOT IN ('completed', 'failed', 'cancelled')
            AND (progress <= $4 OR $2 IN ('completed', 'failed'))`,
        [id, s.status, s.stage, s.progress, s.error],
      );
      return rowCount > 0;
    },

    /** Cancel queued or running work; returns the file as it now is, or null when not the owner's. */
    async cancel(ownerId: string, id: string): Promise<FileRecord | null> {
      if (!isFileId(id)) return null;
      const { rows } = await db.query<FileRow>(
        `UPDATE files SET status = 'cancelled', stage = 'cancelled', updated_at = now()
          WHERE id = $1 AND owner_id = $2 AND status IN ('queued', 'processing')
          RETURNING *`,
        [id, ownerId],
      );
      if (rows[0]) return toRecord(rows[0]);
      return this.findForOwner(ownerId, id);
    },
  };
}

export type FileRepository = ReturnType<typeof createFileRepository>;
