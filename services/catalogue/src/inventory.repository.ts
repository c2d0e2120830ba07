// Inventory items, always read and written for one owner. Same shape as documents: the analysis as
// processing sent it, the user's corrections, and merged columns for listing and the keyword filter.
import { jsonb, runAll, runFirst, sql } from '@kaboodle/platform';
import type { Queryable, Selectable } from '@kaboodle/platform';
import type { InventoryAnalysis } from '@kaboodle/proto';
import {
  correctedInventoryAnalysis,
  encodeInventoryAnalysis,
  inventoryFieldsFromAnalysis,
  inventorySearchText,
  mergeFields,
  provenanceToJson,
} from './catalogue-model.ts';
import type { InventoryFields, InventoryRow } from './catalogue-model.ts';
import type { SourceFile } from './document.repository.ts';
import { catalogueSql } from './db-schema.ts';
import type { InventoryItems } from './db-schema.gen.ts';
import { isEntityId, keysetAfter, toNumberOrNull } from './entity-query.ts';
import type { Order, Page, SortSpec } from './entity-query.ts';

/**
 * The table's columns, sortable (docs/product.md#states: text case-insensitive, prices as numbers; missing
 * first).
 */
export const INVENTORY_SORTS = {
  name: { expr: 'lower(name)', cast: 'text' },
  description: { expr: 'lower(description)', cast: 'text' },
  category: { expr: 'lower(category)', cast: 'text' },
  material: { expr: 'lower(material)', cast: 'text' },
  color: { expr: 'lower(color)', cast: 'text' },
  dimensions: { expr: 'lower(dimensions)', cast: 'text' },
  origin_source: { expr: 'lower(origin_source)', cast: 'text' },
  import_cost: { expr: 'COALESCE(import_cost, -1)', cast: 'numeric' },
  retail_price: { expr: 'COALESCE(retail_price, -1)', cast: 'numeric' },
  created_at: { expr: 'created_at', cast: 'timestamptz' },
} as const satisfies Record<string, SortSpec>;
export type InventorySort = keyof typeof INVENTORY_SORTS;

export interface InventoryFilter {
  /** Case-insensitive substring of name, description, material or origin (already trimmed). */
  query?: string | undefined;
  category?: string | undefined;
  /** Only these ids (a selection); ids that are not UUIDs match nothing. */
  ids?: string[] | undefined;
  sort?: InventorySort | undefined;
  order?: Order | undefined;
  /** Only items with a photo (the gallery). */
  hasImage?: boolean | undefined;
}

const sortOf = (f: InventoryFilter): { sort: SortSpec; order: Order } =>
  f.sort
    ? { sort: INVENTORY_SORTS[f.sort], order: f.order ?? 'asc' }
    : { sort: INVENTORY_SORTS.created_at, order: f.order ?? 'desc' };

const LIST_COLUMNS = [
  'id',
  'owner_id',
  'source_file_id',
  'source_attempt',
  'file_name',
  'content_type',
  'size',
  'blob_key',
  'sha256',
  'name',
  'description',
  'category',
  'material',
  'color',
  'colors',
  'dimensions',
  'origin_source',
  'import_cost',
  'retail_price',
  'currency',
  'hashtags',
  'objects',
  'barcodes',
  'corrected_fields',
  'sample',
  'version',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof InventoryRecord)[];

type InventoryRecord = Selectable<InventoryItems>;
/** A row as a list reads it; the columns lists skip are optional (full reads have them). */
type InventoryRead = Pick<InventoryRecord, (typeof LIST_COLUMNS)[number]> & Partial<InventoryRecord>;

function toRow(r: InventoryRead): InventoryRow {
  return {
    id: r.id,
    owner_id: r.owner_id,
    source_file_id: r.source_file_id,
    source_attempt: r.source_attempt,
    file_name: r.file_name,
    content_type: r.content_type,
    size: r.size,
    blob_key: r.blob_key,
    sha256: r.sha256,
    name: r.name,
    description: r.description,
    category: r.category,
    material: r.material,
    color: r.color,
    colors: r.colors,
    dimensions: r.dimensions,
    origin_source: r.origin_source,
    // numeric comes back as text from both adapters
    import_cost: toNumberOrNull(r.import_cost),
    retail_price: toNumberOrNull(r.retail_price),
    currency: r.currency,
    hashtags: r.hashtags,
    objects: r.objects,
    barcodes: r.barcodes,
    extracted_text: r.extracted_text ?? '',
    provenance: r.provenance ?? {},
    analysis: r.analysis ?? null,
    corrections: r.corrections ?? {},
    corrected_fields: r.corrected_fields,
    sample: r.sample,
    version: r.version,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

const q0 = catalogueSql;

/** The owner's rows matching the filter (the list, the count and the export share it). */
function filtered(ownerId: string, f: InventoryFilter) {
  let query = q0.selectFrom('inventory_items').where('owner_id', '=', ownerId);
  if (f.query) query = query.where(sql<boolean>`strpos(search_text, lower(${f.query})) > 0`);
  if (f.category) query = query.where('category', '=', f.category);
  if (f.ids) query = query.where('id', '=', sql<string>`ANY(${f.ids.filter(isEntityId)}::uuid[])`);
  if (f.hasImage) query = query.where('blob_key', '<>', '').where('content_type', 'like', 'image/%');
  return query;
}

export interface SaveInventoryItem {
  id: string;
  ownerId: string;
  /** Null for items imported from a spreadsheet (no photo). */
  source: SourceFile | null;
  attempt: number;
  analysis: InventoryAnalysis;
  corrections: Partial<InventoryFields>;
  correctedFields: string[];
}

export function createInventoryRepository(db: Queryable) {
  return {
    async findForOwner(ownerId: string, id: string, q: Queryable = db): Promise<InventoryRow | null> {
      if (!isEntityId(id)) return null;
      const row = await runFirst(
        q,
        q0.selectFrom('inventory_items').selectAll().where('id', '=', id).where('owner_id', '=', ownerId),
      );
      return row ? toRow(row) : null;
    },

    async findById(q: Queryable, id: string, forUpdate = false): Promise<InventoryRow | null> {
      const query = q0.selectFrom('inventory_items').selectAll().where('id', '=', id);
      const row = await runFirst(q, forUpdate ? query.forUpdate() : query);
      return row ? toRow(row) : null;
    },

    async save(q: Queryable, d: SaveInventoryItem): Promise<InventoryRow | null> {
      const f = mergeFields(inventoryFieldsFromAnalysis(d.analysis), d.corrections);
      const src = d.source;
      const corrected = correctedInventoryAnalysis(d.analysis, d.corrections);
      const barcodes = d.analysis.barcodes.map((b) => ({
        format: b.format,
        value: b.value,
        lookup: b.lookup
          ? {
              found: b.lookup.found,
              source: b.lookup.source,
              product_name: b.lookup.productName,
              brand: b.lookup.brand,
              description: b.lookup.description,
              category: b.lookup.category,
              origin_country: b.lookup.originCountry,
            }
          : null,
      }));
      const row = await runFirst(
        q,
        q0
          .insertInto('inventory_items')
          .values({
            id: d.id,
            owner_id: d.ownerId,
            source_file_id: src?.fileId ?? null,
            source_attempt: d.attempt,
            file_name: src?.fileName ?? '',
            content_type: src?.contentType ?? '',
            size: src?.size ?? 0,
            blob_key: src?.blobKey ?? '',
            sha256: src?.sha256 ?? '',
            name: f.name,
            description: f.description,
            category: f.category,
            material: f.material,
            color: f.color,
            colors: jsonb(corrected.colors.map((c) => ({ name: c.name, hex: c.hex, share: c.share }))),
            dimensions: f.dimensions,
            origin_source: f.origin_source,
            import_cost: f.import_cost,
            retail_price: f.retail_price,
            currency: f.currency,
            hashtags: jsonb(f.hashtags),
            objects: jsonb(
              d.analysis.objects.map((o) => ({
                label: o.label,
                score: Math.round(o.score * 1000) / 1000,
                ...(o.box && o.box.width > 0 && o.box.height > 0
                  ? { box: { x: o.box.x, y: o.box.y, width: o.box.width, height: o.box.height } }
                  : {}),
              })),
            ),
            barcodes: jsonb(barcodes),
            extracted_text: d.analysis.text?.text ?? '',
            provenance: jsonb(provenanceToJson(corrected.provenance)),
            analysis: Buffer.from(encodeInventoryAnalysis(d.analysis)),
            corrections: jsonb<Record<string, unknown>>(d.corrections),
            corrected_fields: jsonb(d.correctedFields),
            search_text: sql<string>`lower(${inventorySearchText(f)})`,
            sample: src?.sample === true,
            version: sql<number>`nextval('entity_version_seq')`,
          })
          .onConflict((oc) =>
            oc
              .column('id')
              .doUpdateSet((eb) => ({
                source_file_id: eb.ref('excluded.source_file_id'),
                source_attempt: eb.ref('excluded.source_attempt'),
                file_name: eb.ref('excluded.file_name'),
                content_type: eb.ref('excluded.content_type'),
                size: eb.ref('excluded.size'),
                blob_key: eb.ref('excluded.blob_key'),
                sha256: eb.ref('excluded.sha256'),
                name: eb.ref('excluded.name'),
                description: eb.ref('excluded.description'),
                category: eb.ref('excluded.category'),
                material: eb.ref('excluded.material'),
                color: eb.ref('excluded.color'),
                colors: eb.ref('excluded.colors'),
                dimensions: eb.ref('excluded.dimensions'),
                origin_source: eb.ref('excluded.origin_source'),
                import_cost: eb.ref('excluded.import_cost'),
                retail_price: eb.ref('excluded.retail_price'),
                currency: eb.ref('excluded.currency'),
                hashtags: eb.ref('excluded.hashtags'),
                objects: eb.ref('excluded.objects'),
                barcodes: eb.ref('excluded.barcodes'),
                extracted_text: eb.ref('excluded.extracted_text'),
                provenance: eb.ref('excluded.provenance'),
                analysis: eb.ref('excluded.analysis'),
                corrections: eb.ref('excluded.corrections'),
                corrected_fields: eb.ref('excluded.corrected_fields'),
                search_text: eb.ref('excluded.search_text'),
                sample: eb.ref('excluded.sample'),
                version: eb.ref('excluded.version'),
                updated_at: sql<Date>`now()`,
              }))
              .where('inventory_items.owner_id', '=', (eb) => eb.ref('excluded.owner_id')),
          )
          .returningAll(),
      );
      return row ? toRow(row) : null;
    },

    async delete(q: Queryable, ownerId: string, id: string): Promise<InventoryRow | null> {
      if (!isEntityId(id)) return null;
      const row = await runFirst(
        q,
        q0.deleteFrom('inventory_items').where('id', '=', id).where('owner_id', '=', ownerId).returningAll(),
      );
      return row ? toRow(row) : null;
    },

    /** Newest first. */
    async list(
      ownerId: string,
      f: InventoryFilter,
      page: Page,
    ): Promise<{ rows: InventoryRow[]; total: number }> {
      const { sort, order } = sortOf(f);
      const rows = await runAll(
        db,
        filtered(ownerId, f)
          .select(LIST_COLUMNS)
          .orderBy(sql.raw(sort.expr), order)
          .orderBy('id', order)
          .limit(page.limit)
          .offset((page.page - 1) * page.limit),
      );
      const count = await runFirst(
        db,
        filtered(ownerId, f).select((eb) => eb.fn.countAll<number>().as('n')),
      );
      return { rows: rows.map(toRow), total: count?.n ?? 0 };
    },

    /** Every matching row in the list's order, a keyset batch at a time (exports). */
    async *iterate(
      ownerId: string,
      f: InventoryFilter,
      batchSize: number,
      max: number,
    ): AsyncGenerator<InventoryRow> {
      const { sort, order } = sortOf(f);
      let after: { key: string; id: string } | undefined;
      let sent = 0;
      while (sent < max) {
        let query = filtered(ownerId, f)
          .select(LIST_COLUMNS)
          .select(sql<string>`(${sql.raw(sort.expr)})::text`.as('sort_key'))
          .orderBy(sql.raw(sort.expr), order)
          .orderBy('id', order)
          .limit(Math.min(batchSize, max - sent));
        if (after) query = query.where(keysetAfter(sort, order, after.key, after.id));
        const rows = await runAll(db, query);
        for (const r of rows) yield toRow(r);
        sent += rows.length;
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) return;
        after = { key: last.sort_key, id: last.id };
      }
    },

    /** The owner's rows among `ids`, locked for an update (bulk actions). */
    async findManyForOwner(q: Queryable, ownerId: string, ids: string[]): Promise<InventoryRow[]> {
      const valid = ids.filter(isEntityId);
      if (valid.length === 0) return [];
      const rows = await runAll(
        q,
        q0
          .selectFrom('inventory_items')
          .selectAll()
          .where('owner_id', '=', ownerId)
          .where('id', '=', sql<string>`ANY(${valid}::uuid[])`)
          .orderBy('id')
          .forUpdate(),
      );
      return rows.map(toRow);
    },

    async count(ownerId: string): Promise<number> {
      const row = await runFirst(
        db,
        filtered(ownerId, {}).select((eb) => eb.fn.countAll<number>().as('n')),
      );
      return row?.n ?? 0;
    },

    async findMany(ids: string[]): Promise<InventoryRow[]> {
      if (ids.length === 0) return [];
      const rows = await runAll(
        db,
        q0
          .selectFrom('inventory_items')
          .selectAll()
          .where('id', '=', sql<string>`ANY(${ids}::uuid[])`),
      );
      return rows.map(toRow);
    },
  };
}

export type InventoryRepository = ReturnType<typeof createInventoryRepository>;
