// The catalogue's state changes, each in one transaction with the events announcing it (outbox):
// storing what processing found, following uploads, failures and deletions of files, and the user's
// edits. Idempotent by design: an event id applied once is a no-op again, and for file.processed the
// attempt guard (per file) makes a redelivery or an older attempt arriving late change nothing.
import type { OutgoingEvent } from '@kaboodle/platform';
import type { Database, Queryable } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import { FileState, Topics } from '@kaboodle/proto';
import type { FileDeleted, FileProcessed, FileStatus, FileUploaded } from '@kaboodle/proto';
import type { ActivityRepository, EntityKind } from './activity.repository.ts';
import {
  documentUpserted,
  entityDeleted,
  fileCompleted,
  fileFailed,
  inventoryUpserted,
} from './catalogue-events.ts';
import { decodeDocumentAnalysis, decodeInventoryAnalysis } from './catalogue-model.ts';
import type { DocumentFields, DocumentRow, InventoryFields, InventoryRow } from './catalogue-model.ts';
import type { DocumentRepository, SourceFile } from './document.repository.ts';
import { isEntityId } from './entity-query.ts';
import type { InventoryRepository } from './inventory.repository.ts';

export type ApplyOutcome = 'stored' | 'duplicate' | 'stale' | 'deleted' | 'invalid';

/** Shown to the user when the catalogue cannot store a result after every retry. */
export const STORE_FAILED_REASON = 'The result could not be saved. Please try processing the file again.';

export interface CatalogueServiceDeps {
  db: Database;
  documents: DocumentRepository;
  inventory: InventoryRepository;
  activity: ActivityRepository;
  outbox: Outbox;
  /** Told, inside the deleting transaction, that an entity is gone (its kaboodle memberships go too). */
  onEntityDeleted?: (
    tx: Queryable,
    ownerId: string,
    ref: { type: EntityKind; id: string },
  ) => Promise<OutgoingEvent[]>;
}

const KIND_WORDS: Record<EntityKind, string> = {
  document: 'a document',
  inventory_item: 'an inventory item',
};

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

export function createCatalogueService(deps: CatalogueServiceDeps) {
  const { db, documents, inventory, activity, outbox } = deps;

  const sourceOf = (r: DocumentRow | InventoryRow): SourceFile => ({
    fileId: r.source_file_id ?? r.id,
    fileName: r.file_name,
    contentType: r.content_type,
    size: r.size,
    blobKey: r.blob_key,
    sha256: r.sha256,
  });

  async function deleteEntity(
    tx: Queryable,
    kind: EntityKind,
    ownerId: string,
    id: string,
  ): Promise<{ row: DocumentRow | InventoryRow; events: OutgoingEvent[] } | null> {
    const row =
      kind === 'document' ? await documents.delete(tx, ownerId, id) : await inventory.delete(tx, ownerId, id);
    if (!row) return null;
    const events = [await entityDeleted(tx, kind, row)];
    if (deps.onEntityDeleted) events.push(...(await deps.onEntityDeleted(tx, ownerId, { type: kind, id })));
    return { row, events };
  }

  /**
   * file.status CANCELLED (from ingestion, when the user cancels queued or running work): that
   * attempt's result is dropped, whether it arrives later (processed_attempt moves past it) or was
   * stored a moment before the cancel (deleted again), so a cancelled file never shows in the library.
   * An earlier attempt's entity (a cancelled reprocess) stays.
   */
  async function applyCancelled(e: FileStatus, eventId: string): Promise<ApplyOutcome> {
    if (!isEntityId(e.fileId) || !e.ownerId) return 'invalid';
    const attempt = Math.max(1, e.attempt);
    return db.transaction(async (tx) => {
      if (!(await activity.firstDelivery(tx, eventId, Topics.fileStatus))) return 'duplicate';
      const facts = await activity.lockFile(tx, { fileId: e.fileId, ownerId: e.ownerId });
      if (facts.owner_id !== e.ownerId) return 'invalid';
      if (facts.deleted) return 'deleted';
      if (attempt < facts.attempt || facts.processed_attempt > attempt) return 'stale';
      const events: OutgoingEvent[] = [];
      if (facts.processed_attempt === attempt) {
        for (const kind of ['document', 'inventory_item'] as const) {
          const gone = await deleteEntity(tx, kind, e.ownerId, e.fileId);
          if (gone) events.push(...gone.events);
        }
      }
      await activity.updateFile(tx, e.fileId, {
        status: 'cancelled',
        attempt,
        processed_attempt: attempt,
        result_type: null,
      });
      if (events.length > 0) await outbox.enqueue(tx, events);
      return 'stored';
    });
  }

  return {
    /** Delete one entity inside the caller's transaction (a merge); the events to enqueue, or null. */
    removeEntity: deleteEntity,

    /**
     * file.processed: store the document or inventory item (id = source file id), keeping the user's
     * corrections; report the file COMPLETED for this attempt.
     */
    async applyProcessed(e: FileProcessed): Promise<ApplyOutcome> {
      const file = e.file;
      const ownerId = e.ownerId;
      if (!file || !isEntityId(file.fileId) || !ownerId || !e.result.case) return 'invalid';
      if (file.ownerId && file.ownerId !== ownerId) return 'invalid';
      const id = file.fileId;
      const attempt = Math.max(1, e.attempt);
      const result = e.result;
      if (result.case === undefined) return 'invalid';
      const kind: EntityKind = result.case === 'document' ? 'document' : 'inventory_item';
      const source: SourceFile = {
        fileId: id,
        fileName: file.fileName,
        contentType: file.contentType,
        size: Number(file.sizeBytes),
        blobKey: file.blobKey,
        sha256: file.sha256,
        sample: file.sample,
      };
      return db.transaction(async (tx) => {
        const facts = await activity.lockFile(tx, {
          fileId: id,
          ownerId,
          fileName: source.fileName,
          contentType: source.contentType,
          size: source.size,
        });
        if (facts.owner_id !== ownerId) return 'invalid';
        if (facts.deleted) return 'deleted';
        if (attempt <= facts.processed_attempt) return 'stale';

        const events: OutgoingEvent[] = [];
        // A reprocess that changed the kind replaces the other kind's entity.
        const other = await deleteEntity(
          tx,
          kind === 'document' ? 'inventory_item' : 'document',
          ownerId,
          id,
        );
        if (other) events.push(...other.events);

        let title: string;
        if (result.case === 'document') {
          const existing = await documents.findById(tx, id, true);
          if (existing && existing.owner_id !== ownerId) return 'invalid';
          const row = await documents.save(tx, {
            id,
            ownerId,
            source,
            attempt,
            analysis: result.value,
            corrections: (existing?.corrections ?? {}) as Partial<DocumentFields>,
            correctedFields: existing?.corrected_fields ?? [],
          });
          if (!row) return 'invalid';
          title = row.title;
          events.push(documentUpserted(row));
        } else {
          const existing = await inventory.findById(tx, id, true);
          if (existing && existing.owner_id !== ownerId) return 'invalid';
          const row = await inventory.save(tx, {
            id,
            ownerId,
            source,
            attempt,
            analysis: result.value,
            corrections: (existing?.corrections ?? {}) as Partial<InventoryFields>,
            correctedFields: existing?.corrected_fields ?? [],
          });
          if (!row) return 'invalid';
          title = row.name;
          events.push(inventoryUpserted(row));
        }
        events.push(fileCompleted({ ownerId, fileId: id, attempt, kind, entityId: id }));

        await activity.updateFile(tx, id, {
          status: 'completed',
          processed_attempt: attempt,
          attempt: Math.max(attempt, facts.attempt),
          result_type: kind,
          ...(source.fileName ? { file_name: source.fileName } : {}),
          ...(source.size ? { size: source.size } : {}),
        });
        const name = source.fileName || facts.file_name;
        await activity.record(tx, {
          ownerId,
          type: 'processed',
          message: `Processed "${name}" as ${KIND_WORDS[kind]}${title ? `: "${title}"` : ''}`,
          fileId: id,
          fileName: name,
          entityType: kind,
          entityId: id,
        });
        await outbox.enqueue(tx, events);
        return 'stored';
      });
    },

    /** Storing failed for good (last retry): the file ends `failed` with a reason, not stuck at 90%. */
    async failStoring(e: FileProcessed): Promise<void> {
      const file = e.file;
      if (!file || !isEntityId(file.fileId) || !e.ownerId) return;
      const attempt = Math.max(1, e.attempt);
      await db.transaction(async (tx) => {
        const facts = await activity.lockFile(tx, { fileId: file.fileId, ownerId: e.ownerId });
        if (facts.owner_id !== e.ownerId || facts.processed_attempt >= attempt) return;
        await activity.updateFile(tx, file.fileId, {
          status: 'failed',
          attempt: Math.max(attempt, facts.attempt),
        });
        await activity.record(tx, {
          ownerId: e.ownerId,
          type: 'failed',
          message: `Processing "${file.fileName || facts.file_name}" failed: ${STORE_FAILED_REASON}`,
          fileId: file.fileId,
          fileName: file.fileName || facts.file_name,
        });
        await outbox.enqueue(tx, [
          fileFailed({ ownerId: e.ownerId, fileId: file.fileId, attempt, reason: STORE_FAILED_REASON }),
        ]);
      });
    },

    /** file.uploaded: the file's size and name for stats, "uploaded" in the activity. */
    async applyUploaded(e: FileUploaded, eventId: string): Promise<ApplyOutcome> {
      const file = e.file;
      if (!file || !isEntityId(file.fileId) || !e.ownerId) return 'invalid';
      const attempt = Math.max(1, e.attempt);
      return db.transaction(async (tx) => {
        if (!(await activity.firstDelivery(tx, eventId, Topics.fileUploaded))) return 'duplicate';
        const facts = await activity.lockFile(tx, {
          fileId: file.fileId,
          ownerId: e.ownerId,
          fileName: file.fileName,
          contentType: file.contentType,
          size: Number(file.sizeBytes),
        });
        if (facts.owner_id !== e.ownerId) return 'invalid';
        if (facts.deleted) return 'deleted';
        const newer = attempt > facts.attempt;
        await activity.updateFile(tx, file.fileId, {
          file_name: file.fileName,
          content_type: file.contentType,
          size: Number(file.sizeBytes),
          // an older attempt, or one already stored (events of two topics may cross), keeps its status
          ...(newer && attempt > facts.processed_attempt ? { status: 'queued', attempt } : {}),
        });
        if (attempt < facts.attempt) return 'stale';
        await activity.record(tx, {
          ownerId: e.ownerId,
          type: 'uploaded',
          message: attempt > 1 ? `Reprocessing "${file.fileName}"` : `Uploaded "${file.fileName}"`,
          fileId: file.fileId,
          fileName: file.fileName,
        });
        return 'stored';
      });
    },

    /** file.status FAILED: the file's end for the stats and "failed" in the activity. */
    async applyStatus(e: FileStatus, eventId: string): Promise<ApplyOutcome> {
      if (e.status === FileState.CANCELLED) return applyCancelled(e, eventId);
      if (e.status !== FileState.FAILED) return 'invalid'; // COMPLETED is ours; progress is ingestion's
      if (!isEntityId(e.fileId) || !e.ownerId) return 'invalid';
      const attempt = Math.max(1, e.attempt);
      return db.transaction(async (tx) => {
        if (!(await activity.firstDelivery(tx, eventId, Topics.fileStatus))) return 'duplicate';
        const facts = await activity.lockFile(tx, { fileId: e.fileId, ownerId: e.ownerId });
        if (facts.owner_id !== e.ownerId) return 'invalid';
        if (facts.deleted) return 'deleted';
        if (attempt < facts.attempt || facts.processed_attempt >= attempt) return 'stale';
        await activity.updateFile(tx, e.fileId, { status: 'failed', attempt });
        const reason = e.error || 'Processing failed';
        await activity.record(tx, {
          ownerId: e.ownerId,
          type: 'failed',
          message: facts.file_name
            ? `Processing "${facts.file_name}" failed: ${reason}`
            : `Processing failed: ${reason}`,
          fileId: e.fileId,
          fileName: facts.file_name,
        });
        return 'stored';
      });
    },

    /** file.deleted: whatever the file became goes too (catalogue.changed DELETE). */
    async applyFileDeleted(e: FileDeleted, eventId: string): Promise<ApplyOutcome> {
      if (!isEntityId(e.fileId) || !e.ownerId) return 'invalid';
      return db.transaction(async (tx) => {
        if (!(await activity.firstDelivery(tx, eventId, Topics.fileDeleted))) return 'duplicate';
        const facts = await activity.lockFile(tx, { fileId: e.fileId, ownerId: e.ownerId });
        if (facts.owner_id !== e.ownerId) return 'invalid';
        await activity.updateFile(tx, e.fileId, { deleted: true });
        const events: OutgoingEvent[] = [];
        let removed: EntityKind | null = null;
        for (const kind of ['document', 'inventory_item'] as const) {
          const gone = await deleteEntity(tx, kind, e.ownerId, e.fileId);
          if (gone) {
            events.push(...gone.events);
            removed = kind;
          }
        }
        if (!facts.deleted) {
          await activity.record(tx, {
            ownerId: e.ownerId,
            type: 'deleted',
            message: `Deleted "${facts.file_name}"${removed ? ` and the ${removed === 'document' ? 'document' : 'inventory item'} made from it` : ''}`,
            fileId: e.fileId,
            fileName: facts.file_name,
            entityType: removed,
            entityId: removed ? e.fileId : null,
          });
        }
        await outbox.enqueue(tx, events);
        return 'stored';
      });
    },

    /** The user's corrections: kept across reprocessing, re-indexed now. Null when not the owner's. */
    async updateDocument(
      ownerId: string,
      id: string,
      patch: Partial<DocumentFields>,
    ): Promise<DocumentRow | null> {
      if (!isEntityId(id)) return null;
      return db.transaction(async (tx) => {
        const row = await documents.findById(tx, id, true);
        if (!row || row.owner_id !== ownerId) return null;
        const fields = Object.keys(patch);
        const saved = await documents.save(tx, {
          id,
          ownerId,
          source: sourceOf(row),
          attempt: row.source_attempt,
          analysis: decodeDocumentAnalysis(row.analysis),
          corrections: { ...(row.corrections as Partial<DocumentFields>), ...patch },
          correctedFields: union(row.corrected_fields, fields),
        });
        if (!saved) return null;
        await activity.record(tx, {
          ownerId,
          type: 'edited',
          message: `Edited "${saved.title || row.file_name}" (${fields.join(', ')})`,
          fileId: row.source_file_id,
          fileName: row.file_name,
          entityType: 'document',
          entityId: id,
        });
        await outbox.enqueue(tx, [documentUpserted(saved)]);
        return saved;
      });
    },

    async updateInventoryItem(
      ownerId: string,
      id: string,
      patch: Partial<InventoryFields>,
    ): Promise<InventoryRow | null> {
      if (!isEntityId(id)) return null;
      return db.transaction(async (tx) => {
        const row = await inventory.findById(tx, id, true);
        if (!row || row.owner_id !== ownerId) return null;
        const fields = Object.keys(patch);
        const saved = await inventory.save(tx, {
          id,
          ownerId,
          source: sourceOf(row),
          attempt: row.source_attempt,
          analysis: decodeInventoryAnalysis(row.analysis),
          corrections: { ...(row.corrections as Partial<InventoryFields>), ...patch },
          correctedFields: union(row.corrected_fields, fields),
        });
        if (!saved) return null;
        await activity.record(tx, {
          ownerId,
          type: 'edited',
          message: `Edited "${saved.name || row.file_name}" (${fields.join(', ')})`,
          fileId: row.source_file_id,
          fileName: row.file_name,
          entityType: 'inventory_item',
          entityId: id,
        });
        await outbox.enqueue(tx, [inventoryUpserted(saved)]);
        return saved;
      });
    },

    /** Delete the document only (the uploaded file stays in the Media Hub). */
    async deleteDocument(ownerId: string, id: string): Promise<boolean> {
      if (!isEntityId(id)) return false;
      return db.transaction(async (tx) => {
        const gone = await deleteEntity(tx, 'document', ownerId, id);
        if (!gone) return false;
        const row = gone.row as DocumentRow;
        await activity.record(tx, {
          ownerId,
          type: 'deleted',
          message: `Deleted the document "${row.title || row.file_name}"`,
          fileId: row.source_file_id,
          fileName: row.file_name,
          entityType: 'document',
          entityId: id,
        });
        await outbox.enqueue(tx, gone.events);
        return true;
      });
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
