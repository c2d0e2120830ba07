// Per-user activity (newest first), what the catalogue knows of each uploaded file (for the dashboard's
// stats and the attempt guard), and the event ids already applied (so redelivery is a no-op).
import { runAll, runCount, runFirst, sql } from '@kaboodle/platform';
import type { Queryable, Selectable } from '@kaboodle/platform';
import { catalogueSql as q0 } from './db-schema.ts';
import type { FileFacts as FileFactsTable } from './db-schema.gen.ts';
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

const toFacts = (r: Selectable<FileFactsTable>): FileFacts => ({
  file_id: r.file_id,
  owner_id: r.owner_id,
  file_name: r.file_name,
  content_type: r.content_type,
  size: r.size,
  status: r.status,
  attempt: r.attempt,
  processed_attempt: r.processed_attempt,
  result_type: r.result_type,
  deleted: r.deleted,
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
      const inserted = await runCount(
        q,
        q0
          .insertInto('consumed_events')
          .values({ event_id: eventId, topic })
          .onConflict((oc) => oc.column('event_id').doNothing()),
      );
      return inserted === 1;
    },

    /** Forget applied event ids older than the bus could still redeliver. */
    async pruneConsumed(olderThanMs: number): Promise<number> {
      return runCount(
        db,
        q0
          .deleteFrom('consumed_events')
          .where('consumed_at', '<', sql<Date>`now() - ${olderThanMs} * interval '1 millisecond'`),
      );
    },

    async record(q: Queryable, a: ActivityInput): Promise<void> {
      await runCount(
        q,
        q0.insertInto('activity').values({
          owner_id: a.ownerId,
          type: a.type,
          message: a.message,
          file_id: a.fileId ?? null,
          file_name: a.fileName ?? '',
          entity_type: a.entityType ?? null,
          entity_id: a.entityId ?? null,
          // clock time, not the transaction's start: newest first must match the order things happened in
          at: sql<Date>`clock_timestamp()`,
        }),
      );
    },

    /** The newest events first; `offset` skips that many (the full list pages through them). */
    async recent(ownerId: string, limit: number, offset = 0) {
      const rows = await runAll(
        db,
        q0
          .selectFrom('activity')
          .select(['id', 'type', 'message', 'file_id', 'file_name', 'entity_type', 'entity_id', 'at'])
          .where('owner_id', '=', ownerId)
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset),
      );
      return rows.map((r) => ({ ...r, id: String(r.id), at: r.at.toISOString() }));
    },

    /** The file's facts, locked for this transaction; created (owner, name, size) when first heard of. */
    async lockFile(
      q: Queryable,
      f: { fileId: string; ownerId: string; fileName?: string; contentType?: string; size?: number },
    ): Promise<FileFacts> {
      await runCount(
        q,
        q0
          .insertInto('file_facts')
          .values({
            file_id: f.fileId,
            owner_id: f.ownerId,
            file_name: f.fileName ?? '',
            content_type: f.contentType ?? '',
            size: f.size ?? 0,
            status: 'queued',
          })
          .onConflict((oc) => oc.column('file_id').doNothing()),
      );
      const row = await runFirst(
        q,
        q0.selectFrom('file_facts').selectAll().where('file_id', '=', f.fileId).forUpdate(),
      );
      return toFacts(row!);
    },

    async updateFile(
      q: Queryable,
      fileId: string,
      set: Partial<Omit<FileFacts, 'file_id' | 'owner_id'>>,
    ): Promise<void> {
      if (Object.values(set).every((v) => v === undefined)) return;
      // undefined fields are left out of the statement
      await runCount(
        q,
        q0
          .updateTable('file_facts')
          .set({ ...set, updated_at: sql<Date>`now()` })
          .where('file_id', '=', fileId),
      );
    },

    async stats(ownerId: string): Promise<Stats> {
      const r = await runFirst(
        db,
        q0
          .selectFrom('file_facts')
          .where('owner_id', '=', ownerId)
          .where('deleted', '=', false)
          .select((eb) => [
            eb
              .selectFrom('documents')
              .where('owner_id', '=', ownerId)
              .select(eb.fn.countAll<number>().as('n'))
              .as('documents'),
            eb
              .selectFrom('inventory_items')
              .where('owner_id', '=', ownerId)
              .select(eb.fn.countAll<number>().as('n'))
              .as('items'),
            eb.fn.countAll<number>().filterWhere('status', '=', 'completed').as('completed'),
            eb.fn.countAll<number>().filterWhere('status', '=', 'failed').as('failed'),
            eb.fn.countAll<number>().as('total'),
            // sum(int8) is numeric, which both adapters hand over as text
            eb.fn.coalesce(eb.fn.sum<string>('size'), sql<string>`0`).as('bytes'),
          ]),
      );
      const completed = r?.completed ?? 0;
      const failed = r?.failed ?? 0;
      return {
        documents_processed: r?.documents ?? 0,
        inventory_items: r?.items ?? 0,
        files_completed: completed,
        files_failed: failed,
        files_total: r?.total ?? 0,
        processing_efficiency:
          completed + failed === 0 ? null : Math.round((completed / (completed + failed)) * 1000) / 1000,
        storage_bytes: toNumber(r?.bytes ?? 0),
      };
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
