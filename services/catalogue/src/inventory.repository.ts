// Inventory items, always read and written for one owner. Same shape as documents: the analysis as
// processing sent it, the user's corrections, and merged columns for listing and the keyword filter.
import type { Queryable } from '@kaboodle/platform';
import type { InventoryAnalysis } from '@kaboodle/proto';
import {
  correctedInventoryAnalysis,
  encodeInventoryAnalysis,
  inventoryFieldsFromAnalysis,
  inventorySearchText,
  mergeFields,
  provenanceToJson,
} from './catalogue-model.ts';
import type { InventoryFields, InventoryRow, Tag } from './catalogue-model.ts';
import type { SourceFile } from './document.repository.ts';
import { isEntityId, json, keysetAfter, orderBy, Params, toNumber, toNumberOrNull } from './entity-query.ts';
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

const LIST_COLUMNS = `id, owner_id, source_file_id, source_attempt, file_name, content_type, size, blob_key, sha256,
  name, description, category, material, color, colors, dimensions, origin_source, import_cost, retail_price,
  currency, hashtags, objects, barcodes, corrected_fields, sample, version, created_at, updated_at`;

function toRow(r: Record<string, unknown>): InventoryRow {
  return {
    id: r.id as string,
    owner_id: r.owner_id as string,
    source_file_id: (r.source_file_id as string | null) ?? null,
    source_attempt: toNumber(r.source_attempt ?? 0),
    file_name: (r.file_name as string) ?? '',
    content_type: (r.content_type as string) ?? '',
    size: toNumber(r.size ?? 0),
    blob_key: (r.blob_key as string) ?? '',
    sha256: (r.sha256 as string) ?? '',
    name: r.name as string,
    description: r.description as string,
    category: r.category as string,
    material: r.material as string,
    color: r.color as string,
    colors: json(r.colors, []),
    dimensions: r.dimensions as string,
    origin_source: r.origin_source as string,
    import_cost: toNumberOrNull(r.import_cost),
    retail_price: toNumberOrNull(r.retail_price),
    currency: (r.currency as string) ?? 'USD',
    hashtags: json<Tag[]>(r.hashtags, []),
    objects: json(r.objects, []),
    barcodes: json(r.barcodes, []),
    extracted_text: (r.extracted_text as string) ?? '',
    provenance: json(r.provenance, {}),
    analysis: (r.analysis as Uint8Array | null) ?? null,
    corrections: json<Record<string, unknown>>(r.corrections, {}),
    corrected_fields: json<string[]>(r.corrected_fields, []),
    sample: r.sample === true,
    version: toNumber(r.version),
    created_at: r.created_at as Date,
    updated_at: r.updated_at as Date,
  };
}

function where(p: Params, ownerId: string, f: InventoryFilter): string {
  const parts = [`owner_id = ${p.add(ownerId)}`];
  if (f.query) parts.push(`strpos(search_text, lower(${p.add(f.query)})) > 0`);
  if (f.category) parts.push(`category = ${p.add(f.category)}`);
  if (f.ids) parts.push(`id = ANY(${p.add(f.ids.filter(isEntityId))}::uuid[])`);
  if (f.hasImage) parts.push(`blob_key <> '' AND content_type LIKE 'image/%'`);
  return parts.join(' AND ');
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
      const { rows } = await q.query('SELECT * FROM inventory_items WHERE id = $1 AND owner_id = $2', [
        id,
        ownerId,
      ]);
      return rows[0] ? toRow(rows[0]) : null;
    },

    async findById(q: Queryable, id: string, forUpdate = false): Promise<InventoryRow | null> {
      const { rows } = await q.query(
        `SELECT * FROM inventory_items WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
        [id],
      );
      return rows[0] ? toRow(rows[0]) : null;
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
      const cols: [string, unknown, string?][] = [
        ['id', d.id],
        ['owner_id', d.ownerId],
        ['source_file_id', src?.fileId ?? null],
        ['source_attempt', d.attempt],
        ['file_name', src?.fileName ?? ''],
        ['content_type', src?.contentType ?? ''],
        ['size', src?.size ?? 0],
        ['blob_key', src?.blobKey ?? ''],
        ['sha256', src?.sha256 ?? ''],
        ['name', f.name],
        ['description', f.description],
        ['category', f.category],
        ['material', f.material],
        ['color', f.color],
        [
          'colors',
          JSON.stringify(corrected.colors.map((c) => ({ name: c.name, hex: c.hex, share: c.share }))),
          'jsonb',
        ],
        ['dimensions', f.dimensions],
        ['origin_source', f.origin_source],
        ['import_cost', f.import_cost],
        ['retail_price', f.retail_price],
        ['currency', f.currency],
        ['hashtags', JSON.stringify(f.hashtags), 'jsonb'],
        [
          'objects',
          JSON.stringify(
            d.analysis.objects.map((o) => ({
              label: o.label,
              score: Math.round(o.score * 1000) / 1000,
              ...(o.box && o.box.width > 0 && o.box.height > 0
                ? { box: { x: o.box.x, y: o.box.y, width: o.box.width, height: o.box.height } }
                : {}),
            })),
          ),
          'jsonb',
        ],
        ['barcodes', JSON.stringify(barcodes), 'jsonb'],
        ['extracted_text', d.analysis.text?.text ?? ''],
        ['provenance', JSON.stringify(provenanceToJson(corrected.provenance)), 'jsonb'],
        ['analysis', Buffer.from(encodeInventoryAnalysis(d.analysis))],
        ['corrections', JSON.stringify(d.corrections), 'jsonb'],
        ['corrected_fields', JSON.stringify(d.correctedFields), 'jsonb'],
        ['search_text', inventorySearchText(f), 'lower'],
        ['sample', src?.sample === true],
      ];
      const placeholders = cols.map(([, , kind], i) =>
        kind === 'jsonb' ? `$${i + 1}::jsonb` : kind === 'lower' ? `lower($${i + 1})` : `$${i + 1}`,
      );
      const names = cols.map(([c]) => c);
      const updates = names
        .filter((c) => c !== 'id' && c !== 'owner_id')
        .map((c) => `${c} = EXCLUDED.${c}`)
        .join(', ');
      const { rows } = await q.query(
        `INSERT INTO inventory_items (${names.join(', ')}, version)
         VALUES (${placeholders.join(', ')}, nextval('entity_version_seq'))
         ON CONFLICT (id) DO UPDATE SET ${updates}, version = EXCLUDED.version, updated_at = now()
           WHERE inventory_items.owner_id = EXCLUDED.owner_id
         RETURNING *`,
        cols.map(([, v]) => v),
      );
      return rows[0] ? toRow(rows[0]) : null;
    },

    async delete(q: Queryable, ownerId: string, id: string): Promise<InventoryRow | null> {
      if (!isEntityId(id)) return null;
      const { rows } = await q.query(
        'DELETE FROM inventory_items WHERE id = $1 AND owner_id = $2 RETURNING *',
        [id, ownerId],
      );
      return rows[0] ? toRow(rows[0]) : null;
    },

    /** Newest first. */
    async list(
      ownerId: string,
      f: InventoryFilter,
      page: Page,
    ): Promise<{ rows: InventoryRow[]; total: number }> {
      const p = new Params();
      const w = where(p, ownerId, f);
      const countParams = [...p.values];
      const { sort, order } = sortOf(f);
      const { rows } = await db.query(
        `SELECT ${LIST_COLUMNS} FROM inventory_items WHERE ${w} ${orderBy(sort, order)}
         LIMIT ${p.add(page.limit)} OFFSET ${p.add((page.page - 1) * page.limit)}`,
        p.values,
      );
      const count = await db.query<{ n: unknown }>(
        `SELECT count(*) AS n FROM inventory_items WHERE ${w}`,
        countParams,
      );
      return { rows: rows.map(toRow), total: toNumber(count.rows[0]?.n ?? 0) };
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
        const p = new Params();
        let w = where(p, ownerId, f);
        if (after) w += ` AND ${keysetAfter(p, sort, order, after.key, after.id)}`;
        const { rows } = await db.query<Record<string, unknown>>(
          `SELECT ${LIST_COLUMNS}, (${sort.expr})::text AS sort_key FROM inventory_items WHERE ${w}
           ${orderBy(sort, order)} LIMIT ${p.add(Math.min(batchSize, max - sent))}`,
          p.values,
        );
        for (const r of rows) yield toRow(r);
        sent += rows.length;
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) return;
        after = { key: last.sort_key as string, id: last.id as string };
      }
    },

    /** The owner's rows among `ids`, locked for an update (bulk actions). */
    async findManyForOwner(q: Queryable, ownerId: string, ids: string[]): Promise<InventoryRow[]> {
      const valid = ids.filter(isEntityId);
      if (valid.length === 0) return [];
      const { rows } = await q.query(
        'SELECT * FROM inventory_items WHERE owner_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE',
        [ownerId, valid],
      );
      return rows.map(toRow);
    },

    async count(ownerId: string): Promise<number> {
      const { rows } = await db.query<{ n: unknown }>(
        'SELECT count(*) AS n FROM inventory_items WHERE owner_id = $1',
        [ownerId],
      );
      return toNumber(rows[0]?.n ?? 0);
    },

    async findMany(ids: string[]): Promise<InventoryRow[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.query('SELECT * FROM inventory_items WHERE id = ANY($1::uuid[])', [ids]);
      return rows.map(toRow);
    },
  };
}

export type InventoryRepository = ReturnType<typeof createInventoryRepository>;
