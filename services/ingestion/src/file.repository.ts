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
