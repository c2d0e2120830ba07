// The inventory export (GET /api/inventory/export): the filtered items or a selection as CSV (the
// table's columns, formula-looking cells guarded, the import reads it back) or a JSON array, streamed
// a keyset batch at a time with back-pressure, so memory stays one batch and a client that leaves
// stops the reading. Same conventions as the documents' export.
import { once } from 'node:events';
import type { Response } from 'express';
import { inventoryJson } from './catalogue-model.ts';
import type { InventoryRow } from './catalogue-model.ts';
import { contentDisposition } from '@kaboodle/platform';
import { csvRow, UTF8_BOM } from './csv-writer.ts';
import type { InventoryFilter, InventoryRepository } from './inventory.repository.ts';

const EXPORT_BATCH = 500;

/**
 * The table's columns (docs/product.md#inventory) with their field names, then what an import needs to
 * round-trip.
 */
export const INVENTORY_CSV_COLUMNS = [
  'id',
  'name',
  'description',
  'category',
  'material',
  'color',
  'dimensions',
  'origin_source',
  'import_cost',
  'retail_price',
  'currency',
  'hashtags',
  'file_name',
  'created_at',
  'updated_at',
] as const;

export const inventoryCsvValues = (r: InventoryRow): unknown[] =>
  INVENTORY_CSV_COLUMNS.map((c) => (c === 'hashtags' ? r.hashtags.map((h) => h.tag).join('; ') : r[c]));

async function write(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  return !res.destroyed;
}

export async function streamInventoryExport(
  res: Response,
  o: {
    inventory: InventoryRepository;
    owner: string;
    filter: InventoryFilter;
    format: 'csv' | 'json';
    bom: boolean;
    maxRows: number;
  },
): Promise<void> {
  const { total } = await o.inventory.list(o.owner, o.filter, { page: 1, limit: 1 });
  const date = new Date().toISOString().slice(0, 10);
  res.status(200).set({
    'Content-Type': o.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    'Content-Disposition': contentDisposition('attachment', `kaboodle-inventory-${date}.${o.format}`),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    'X-Total-Count': String(total),
    ...(total > o.maxRows ? { 'X-Export-Truncated': String(o.maxRows) } : {}),
  });
  const head = o.format === 'csv' ? csvRow(INVENTORY_CSV_COLUMNS) : '[';
  let open = await write(res, `${o.bom ? UTF8_BOM : ''}${head}`);
  let first = true;
  for await (const row of o.inventory.iterate(o.owner, o.filter, EXPORT_BATCH, o.maxRows)) {
    if (!open) return; // the client went away: stop reading
    const chunk =
      o.format === 'csv'
        ? csvRow(inventoryCsvValues(row))
        : `${first ? '\n' : ',\n'}${JSON.stringify(inventoryJson(row))}`;
    first = false;
    open = await write(res, chunk);
  }
  res.end(o.format === 'json' ? `${first ? '' : '\n'}]\n` : undefined);
}
