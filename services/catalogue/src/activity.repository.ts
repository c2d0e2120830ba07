// Per-user activity (newest first), what the catalogue knows of each uploaded file (for the dashboard's
// stats and the attempt guard), and the event ids already applied (so redelivery is a no-op).
import type { Queryable } from '@kaboodle/platform';
import { toNumber } from './entity-query.ts';

/** `added`: documents or items added to a kaboodle (the dashboard's "added to a kaboodle"). */
export type ActivityType = 'uploaded' | 'processed' | 'failed' | 'deleted' | 'edited' | 'added';
export type EntityKind = 'document' | 'inventory_item';

export interface ActivityInput {
  ownerId: string;
  type: ActivityType;
  message: string;
  fileId?: string | null;
  fileName?: string;
  entityType?: EntityKind | null;
  entityId?: string | null;
}

export interface FileFacts {
  file_id: string;
  owner_id: string;
  file_name: string;
  content_type: string;
  size: number;
  status: string;
  attempt: number;
  processed_attempt: number;
  result_type: EntityKind | null;
  deleted: boolean;
}

const toFacts = (r: Record<string, unknown>): FileFacts => ({
  file_id: r.file_id as string,
  owner_id: r.owner_id as string,
  file_name: r.file_name as string,
  content_type: r.content_type as string,
  size: toNumber(r.size),
  status: r.status as string,
  attempt: toNumber(r.attempt),
  processed_attempt: toNumber(r.processed_attempt),
  result_type: (r.result_type as EntityKind | null) ?? null,
  deleted: r.deleted === true,
});

export interface Stats {
  documents_processed: number;
  inventory_items: number;
  files_completed: number;
  files_failed: number;
  files_total: number;
  processing_efficiency: number | null;
  storage_bytes: number;
}

export function createActivityRepository(db: Queryable) {
  return {
    /** True the first time an event id is seen (inside the transaction that applies it). */
    async firstDelivery(q: Queryable, eventId: string, topic: string): Promise<boolean> {
      if (!eventId) return true; // no id to deduplicate by: the other guards still hold
      const res = await q.query(
        'INSERT INTO consumed_events (event_id, topic) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING',
        [eventId, topic],
      );
      return res.rowCount === 1;
    },

    /** Forget applied event ids older than the bus could still redeliver. */
    async pruneConsumed(olderThanMs: number): Promise<number> {
      const res = await db.query(
        `DELETE FROM consumed_events WHERE consumed_at < now() - $1 * interval '1 millisecond'`,
        [olderThanMs],
      );
      return res.rowCount;
    },

    async record(q: Queryable, a: ActivityInput): Promise<void> {
      await q.query(
        // clock time, not the transaction's start: newest first must match the order things happened in
        `INSERT INTO activity (owner_id, type, message, file_id, file_name, entity_type, entity_id, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp())`,
        [
          a.ownerId,
          a.type,
          a.message,
          a.fileId ?? null,
          a.fileName ?? '',
          a.entityType ?? null,
          a.entityId ?? null,
        ],
      );
    },

    /** The newest events first; `offset` skips that many (the full list pages through them). */
    async recent(ownerId: string, limit: number, offset = 0) {
      const { rows } = await db.query<Record<string, unknown>>(
        `SELECT id, type, message, file_id, file_name, entity_type, entity_id, at
           FROM activity WHERE owner_id = $1 ORDER BY at DESC, id DESC LIMIT $2 OFFSET $3`,
        [ownerId, limit, offset],
      );
      return rows.map((r) => ({
        id: String(r.id),
        type: r.type as ActivityType,
        message: r.message as string,
        file_id: (r.file_id as string | null) ?? null,
        file_name: r.file_name as string,
        entity_type: (r.entity_type as EntityKind | null) ?? null,
        entity_id: (r.entity_id as string | null) ?? null,
        at: new Date(r.at as Date).toISOString(),
      }));
    },

    /** The file's facts, locked for this transaction; created (owner, name, size) when first heard of. */
    async lockFile(
      q: Queryable,
      f: { fileId: string; ownerId: string; fileName?: string; contentType?: string; size?: number },
    ): Promise<FileFacts> {
      await q.query(
        `INSERT INTO file_facts (file_id, owner_id, file_name, content_type, size, status)
         VALUES ($1, $2, $3, $4, $5, 'queued') ON CONFLICT (file_id) DO NOTHING`,
        [f.fileId, f.ownerId, f.fileName ?? '', f.contentType ?? '', f.size ?? 0],
      );
      const { rows } = await q.query('SELECT * FROM file_facts WHERE file_id = $1 FOR UPDATE', [f.fileId]);
      return toFacts(rows[0]!);
    },

    async updateFile(
      q: Queryable,
      fileId: string,
      set: Partial<Omit<FileFacts, 'file_id' | 'owner_id'>>,
    ): Promise<void> {
      const entries = Object.entries(set).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return;
      const assignments = entries.map(([k], i) => `${k} = $${i + 2}`).join(', ');
      await q.query(`UPDATE file_facts SET ${assignments}, updated_at = now() WHERE file_id = $1`, [
        fileId,
        ...entries.map(([, v]) => v),
      ]);
    },

    async stats(ownerId: string): Promise<Stats> {
      const { rows } = await db.query<Record<string, unknown>>(
        `SELECT
           (SELECT count(*) FROM documents WHERE owner_id = $1) AS documents,
           (SELECT count(*) FROM inventory_items WHERE owner_id = $1) AS items,
           count(*) FILTER (WHERE status = 'completed') AS completed,
           count(*) FILTER (WHERE status = 'failed') AS failed,
           count(*) AS total,
           COALESCE(sum(size), 0) AS bytes
         FROM file_facts WHERE owner_id = $1 AND NOT deleted`,
        [ownerId],
      );
      const r = rows[0] ?? {};
      const completed = toNumber(r.completed ?? 0);
      const failed = toNumber(r.failed ?? 0);
      return {
        documents_processed: toNumber(r.documents ?? 0),
        inventory_items: toNumber(r.items ?? 0),
        files_completed: completed,
        files_failed: failed,
        files_total: toNumber(r.total ?? 0),
        processing_efficiency:
          completed + failed === 0 ? null : Math.round((completed / (completed + failed)) * 1000) / 1000,
        storage_bytes: toNumber(r.bytes ?? 0),
      };
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
