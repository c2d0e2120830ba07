// The inventory's own state changes beyond what processing stores: deleting items, acting on a
// selection (delete, re-categorise), and importing a spreadsheet. Each runs in one transaction with
// its catalogue.changed events (outbox), so the search index follows; a selection that names an item
// the caller does not own changes nothing (all or none, and a foreign id answers like a missing one).
import { randomUUID } from 'node:crypto';
import type { Database, OutgoingEvent, Queryable } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import {
  create,
  FieldProvenanceSchema,
  HashtagSchema,
  InventoryAnalysisSchema,
  moneyFromNumber,
  ProvenanceSource,
} from '@kaboodle/proto';
import type { FieldProvenance, InventoryAnalysis } from '@kaboodle/proto';
import type { ActivityRepository } from './activity.repository.ts';
import { entityDeleted, inventoryUpserted } from './catalogue-events.ts';
import { decodeInventoryAnalysis } from './catalogue-model.ts';
import type { InventoryFields, InventoryRow } from './catalogue-model.ts';
import type { SourceFile } from './document.repository.ts';
import { isEntityId } from './entity-query.ts';
import type { InventoryRepository } from './inventory.repository.ts';

export interface InventoryServiceDeps {
  db: Database;
  inventory: InventoryRepository;
  activity: ActivityRepository;
  outbox: Outbox;
  /** Told, inside the deleting transaction, that an item is gone (its kaboodle memberships go too). */
  onEntityDeleted?: (
    tx: Queryable,
    ownerId: string,
    ref: { type: 'inventory_item'; id: string },
  ) => Promise<OutgoingEvent[]>;
}

/** One imported row, already checked, with the CSV line it came from. */
export interface ImportedItem {
  line: number;
  fields: Partial<InventoryFields>;
}

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function sourceOf(r: InventoryRow): SourceFile | null {
  if (!r.source_file_id && !r.blob_key) return null;
  return {
    fileId: r.source_file_id ?? r.id,
    fileName: r.file_name,
    contentType: r.content_type,
    size: r.size,
    blobKey: r.blob_key,
    sha256: r.sha256,
  };
}

/** The analysis of an imported row: its values as stated, provenance "import" with the line. */
export function importedAnalysis(item: ImportedItem, fileName: string): InventoryAnalysis {
  const f = item.fields;
  const provenance: Record<string, FieldProvenance> = {};
  for (const key of Object.keys(f)) {
    provenance[key] = create(FieldProvenanceSchema, {
      confidence: 1,
      source: ProvenanceSource.IMPORT,
      method: 'CSV import',
      evidence: `${fileName || 'CSV file'}, line ${item.line}`,
    });
  }
  const currency = f.currency || 'USD';
  return create(InventoryAnalysisSchema, {
    name: f.name ?? '',
    description: f.description ?? '',
    category: f.category ?? '',
    material: f.material ?? '',
    colors: f.color ? [{ name: f.color, hex: '', share: 1 }] : [],
    ...(f.dimensions ? { dimensions: { text: f.dimensions } } : {}),
    originSource: f.origin_source ?? '',
    ...(f.import_cost != null ? { importCost: moneyFromNumber(f.import_cost, currency) } : {}),
    ...(f.retail_price != null ? { retailPrice: moneyFromNumber(f.retail_price, currency) } : {}),
    hashtags: (f.hashtags ?? []).map((h) => create(HashtagSchema, h)),
    provenance,
  });
}

export function createInventoryService(deps: InventoryServiceDeps) {
  const { db, inventory, activity, outbox } = deps;

  /** Write corrections over a row (kept across reprocessing); returns the saved row and its event. */
  async function correct(
    tx: Queryable,
    row: InventoryRow,
    patch: Partial<InventoryFields>,
  ): Promise<InventoryRow | null> {
    return inventory.save(tx, {
      id: row.id,
      ownerId: row.owner_id,
      source: sourceOf(row),
      attempt: row.source_attempt,
      analysis: decodeInventoryAnalysis(row.analysis),
      corrections: { ...(row.corrections as Partial<InventoryFields>), ...patch },
      correctedFields: union(row.corrected_fields, Object.keys(patch)),
    });
  }

  /** The owner's rows for every id, or null when any id is missing or someone else's. */
  async function selection(tx: Queryable, ownerId: string, ids: string[]): Promise<InventoryRow[] | null> {
    const unique = [...new Set(ids)];
    if (!unique.every(isEntityId)) return null;
    const rows = await inventory.findManyForOwner(tx, ownerId, unique);
    return rows.length === unique.length ? rows : null;
  }

  return {
    /** Delete one item (the uploaded photo stays in the Media Hub). False when not the owner's. */
    async deleteItem(ownerId: string, id: string): Promise<boolean> {
      const done = await this.deleteMany(ownerId, [id]);
      return done !== null;
    },

    /** Delete every selected item, or none (null) when one is not the owner's. */
    async deleteMany(ownerId: string, ids: string[]): Promise<string[] | null> {
      return db.transaction(async (tx) => {
        const rows = await selection(tx, ownerId, ids);
        if (!rows) return null;
        const events: OutgoingEvent[] = [];
        for (const row of rows) {
          const gone = await inventory.delete(tx, ownerId, row.id);
          if (!gone) continue;
          events.push(await entityDeleted(tx, 'inventory_item', gone));
          if (deps.onEntityDeleted)
            events.push(
              ...(await deps.onEntityDeleted(tx, ownerId, { type: 'inventory_item', id: gone.id })),
            );
        }
        await activity.record(tx, {
          ownerId,
          type: 'deleted',
          message:
            rows.length === 1
              ? `Deleted the inventory item "${rows[0]!.name || rows[0]!.file_name}"`
              : `Deleted ${plural(rows.length, 'inventory item')}`,
          fileId: rows.length === 1 ? rows[0]!.source_file_id : null,
          fileName: rows.length === 1 ? rows[0]!.file_name : '',
          entityType: 'inventory_item',
          entityId: rows.length === 1 ? rows[0]!.id : null,
        });
        await outbox.enqueue(tx, events);
        return rows.map((r) => r.id);
      });
    },

    /** Give every selected item a category (a correction: reprocessing keeps it), or none. */
    async categoriseMany(ownerId: string, ids: string[], category: string): Promise<string[] | null> {
      return db.transaction(async (tx) => {
        const rows = await selection(tx, ownerId, ids);
        if (!rows) return null;
        const events: OutgoingEvent[] = [];
        for (const row of rows) {
          const saved = await correct(tx, row, { category });
          if (saved) events.push(inventoryUpserted(saved));
        }
        await activity.record(tx, {
          ownerId,
          type: 'edited',
          message: `Moved ${plural(rows.length, 'inventory item')} to "${category}"`,
          entityType: 'inventory_item',
          entityId: rows.length === 1 ? rows[0]!.id : null,
        });
        await outbox.enqueue(tx, events);
        return rows.map((r) => r.id);
      });
    },

    /** Store every imported row as a new item (no photo), all in one transaction. */
    async importItems(ownerId: string, items: ImportedItem[], fileName = ''): Promise<string[]> {
      if (items.length === 0) return [];
      return db.transaction(async (tx) => {
        const events: OutgoingEvent[] = [];
        const ids: string[] = [];
        for (const item of items) {
          const id = randomUUID();
          const row = await inventory.save(tx, {
            id,
            ownerId,
            source: null,
            attempt: 0,
            analysis: importedAnalysis(item, fileName),
            corrections: {},
            correctedFields: [],
          });
          if (!row) throw new Error(`importing line ${item.line}: the item was not stored`);
          ids.push(id);
          events.push(inventoryUpserted(row));
        }
        await activity.record(tx, {
          ownerId,
          type: 'uploaded',
          message: `Imported ${plural(items.length, 'inventory item')}${fileName ? ` from "${fileName}"` : ' from a CSV file'}`,
          fileName,
          entityType: 'inventory_item',
          entityId: ids.length === 1 ? ids[0]! : null,
        });
        await outbox.enqueue(tx, events);
        return ids;
      });
    },
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
