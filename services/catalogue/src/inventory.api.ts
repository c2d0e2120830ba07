// The inventory's HTTP operations, declared once (docs/product.md#calls, #inventory): the list and
// its search (arrays with X-Total-Count), sorting, one item, corrections, delete, bulk actions on a
// selection, CSV/JSON export, CSV import with a preview, and the photo at gallery size.
// inventory.routes.ts binds the handlers; the OpenAPI document and the web types come from here.
import * as z from 'zod';
import { defineOperation, wholeNumberQuery } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { INVENTORY_FIELDS } from './catalogue-model.ts';
import { INVENTORY_SORTS } from './inventory.repository.ts';

export const ITEM_NOT_FOUND = 'Inventory item not found';
export const NO_IMAGE = 'Image not available';
export const MAX_QUERY = 500;
/** A selection acts on at most this many items at once. */
export const MAX_SELECTION = 500;
/** Largest CSV accepted by the import (the request body is a little larger: JSON quoting). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;
/** Thumbnail widths the server renders (a fixed set, so every rendering can be cached). */
export const THUMBNAIL_WIDTHS = [160, 320, 640, 1280] as const;
/**
 * The categories the inventory's dropdown offers, plus Other for everything else
 * (docs/product.md#processing).
 */
export const INVENTORY_CATEGORY_NAMES = [
  'Beads',
  'Stools',
  'Bowls',
  'Fans',
  'Totebags',
  'Home Decor',
  'Other',
] as const;

const SORT_NAMES = Object.keys(INVENTORY_SORTS) as [string, ...string[]];

const id = z.string().min(1).max(200).meta({ description: 'The item id (a UUID).' });
const idParams = z.object({ id });

/** Postgres text cannot hold NUL: refused with a reason instead of failing in the database. */
const NO_NUL = (name: string) =>
  [(s: string) => !s.includes('\u0000'), `${name} must not contain NUL characters`] as const;

const trimmedText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .refine(...NO_NUL(name))
    .transform((s) => s.trim())
    .pipe(z.string().max(max, `${name} is too long (max ${max} characters)`));

const queryText = z
  .string({ error: 'query must be given once' })
  .refine(...NO_NUL('query'))
  .transform((s) => s.trim())
  .pipe(z.string().max(MAX_QUERY, `Search query is too long (max ${MAX_QUERY} characters)`))
  .transform((s) => s || undefined)
  .meta({
    description:
      'Case-insensitive substring of name, description, material or origin (docs/product.md#validation).',
  });

/**
 * The filter the list, its search and the export share (docs/product.md#validation: both filters combine).
 */
export const filterQuery = z.object({
  query: queryText.optional(),
  q: queryText.optional().meta({ description: 'Same as query.' }),
  category: z
    .string({ error: 'category must be given once' })
    .refine(...NO_NUL('category'))
    .max(200, 'category is too long (max 200 characters)')
    .optional()
    .transform((s) => s || undefined)
    .meta({ description: 'Exact category (empty means all).' }),
  sort: z
    .enum(SORT_NAMES, { error: `sort must be one of ${SORT_NAMES.join(', ')}` })
    .optional()
    .meta({ description: 'A column; prices sort as numbers. Default: newest first.' }),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
  has_image: z
    .enum(['true', 'false', '1', '0'], { error: 'has_image must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1')
    .meta({ description: 'true: only items with a photo (the gallery).' }),
});

const listQuery = filterQuery.extend({
  page: wholeNumberQuery({ min: 1, max: 1_000_000, default: 1 }),
  limit: wholeNumberQuery({ min: 1, max: 100, default: 20 }),
});

const money = z.number().nullable();
const box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const inventoryItemSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    category: z.string(),
    material: z.string(),
    color: z.string(),
    colors: z.array(z.object({ name: z.string(), hex: z.string(), share: z.number() })),
    dimensions: z.string(),
    origin_source: z.string(),
    import_cost: money,
    retail_price: money,
    currency: z.string(),
    image_url: z.string().nullable().meta({ description: 'The original photo; null for imported items.' }),
    thumbnail_url: z
      .string()
      .nullable()
      .meta({ description: 'The photo at gallery width (320 px), cacheable for a year.' }),
    status: z.enum(['processed', 'pending']),
    file_type: z.string(),
    hashtags: z.array(z.object({ tag: z.string(), relevancy: z.number() })),
    objects: z.array(z.object({ label: z.string(), score: z.number(), box: box.optional() })),
    barcodes: z.array(
      z.object({
        format: z.string(),
        value: z.string(),
        lookup: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
    source_file_id: z.string().nullable(),
    file_name: z.string(),
    corrected_fields: z.array(z.string()),
    sample: z.boolean().meta({ description: 'Made from the first-run sample library.' }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    version: z.number().int(),
  })
  .meta({ id: 'InventoryItem' });

export const inventoryDetailSchema = inventoryItemSchema
  .extend({
    text: z.string().meta({ description: 'Text read from the photo (labels, tags).' }),
    provenance: z.record(
      z.string(),
      z.object({ confidence: z.number(), source: z.string(), method: z.string(), evidence: z.string() }),
    ),
    image_width: z.number().int().nonnegative(),
    image_height: z.number().int().nonnegative(),
    image_model: z
      .string()
      .meta({ description: 'The image model of the photo vector (find by photo); empty when none.' }),
  })
  .meta({ id: 'InventoryItemDetail' });

const price = (field: string) => {
  const message = `${field} must be an amount from 0 to 1000000000, or null`;
  return z
    .number({ error: message })
    .min(0, { error: message })
    .max(1_000_000_000, { error: message })
    .nullable()
    .transform((v) => (v === null ? null : Math.round(v * 100) / 100));
};

const tagText = z.string().refine(...NO_NUL('a tag'));
const tagItem = z.union([
  tagText,
  z.object({ tag: tagText, relevancy: z.number().min(0).max(1).optional() }),
]);

const EDITABLE = INVENTORY_FIELDS.join(', ');

/** The editable (AI-generated) fields; the messages are the ones the product has always answered. */
export const inventoryPatchSchema = z
  .strictObject(
    {
      name: trimmedText('name', 500).pipe(z.string().min(1, 'name must not be empty')).optional(),
      description: trimmedText('description', 10_000).optional(),
      category: trimmedText('category', 500).optional(),
      material: trimmedText('material', 500).optional(),
      color: trimmedText('color', 500).optional(),
      dimensions: trimmedText('dimensions', 500).optional(),
      origin_source: trimmedText('origin_source', 500).optional(),
      import_cost: price('import_cost').optional(),
      retail_price: price('retail_price').optional(),
      currency: z
        .string({ error: 'currency must be text' })
        .transform((s) => s.trim().toUpperCase())
        .pipe(z.string().regex(/^[A-Z]{3}$/, 'currency must be a three-letter code such as USD'))
        .optional(),
      hashtags: z
        .array(tagItem, { error: 'hashtags must be a list of tags or {tag, relevancy} objects' })
        .max(50, 'hashtags takes at most 50 tags')
        .optional(),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `"${String(iss.keys[0]).slice(0, 80)}" cannot be edited; editable fields: ${EDITABLE}`
          : iss.code === 'invalid_type'
            ? 'Send the fields to change as a JSON object'
            : undefined,
    },
  )
  .refine((o) => Object.keys(o).length > 0, `Nothing to update: send at least one of ${EDITABLE}`)
  .meta({ id: 'InventoryPatch' });

const selection = z
  .array(id, { error: 'ids must be a list of item ids' })
  .min(1, 'Select at least one item')
  .max(MAX_SELECTION, `A selection holds at most ${MAX_SELECTION} items`);

export const bulkBodySchema = z
  .discriminatedUnion(
    'action',
    [
      z.object({ action: z.literal('delete'), ids: selection }),
      z.object({
        action: z.literal('categorise'),
        ids: selection,
        category: trimmedText('category', 200).pipe(z.string().min(1, 'Choose a category')),
      }),
    ],
    { error: 'action must be delete or categorise' },
  )
  .meta({ id: 'InventoryBulkAction' });

/** Item field → the CSV column it is read from ('' = not imported). */
const MAPPING_RULE = `mapping must map CSV columns to one of ${EDITABLE} (or "" to skip a column)`;
const mappingSchema = z.record(z.string(), z.enum(['', ...INVENTORY_FIELDS], { error: MAPPING_RULE }), {
  error: MAPPING_RULE,
});

export const importBodySchema = z
  .object({
    csv: z
      .string({ error: 'csv must be the text of the CSV file' })
      .max(MAX_IMPORT_BYTES, 'The CSV file is larger than 10 MB; split it into smaller files')
      .refine(
        (s) => !s.includes('\u0000'),
        'The CSV file contains NUL characters: save it as CSV (UTF-8) text and try again',
      ),
    mapping: mappingSchema.optional().meta({
      description: 'CSV column → item field. Omitted: guessed from the headers (Homebox, InvenTree, ours).',
    }),
    file_name: z
      .string({ error: 'file_name must be text' })
      .refine(...NO_NUL('file_name'))
      .max(255, 'file_name is too long (max 255 characters)')
      .optional()
      .meta({ description: 'The name of the file, for the activity list and provenance.' }),
    dry_run: z
      .boolean({ error: 'dry_run must be true or false' })
      .optional()
      .meta({ description: 'true: check and preview only, nothing is stored.' }),
  })
  .meta({ id: 'InventoryImport' });

const importRow = z.object({
  line: z.number().int().positive().meta({ description: 'Line of the CSV file the row starts on.' }),
  fields: z.record(z.string(), z.unknown()),
  errors: z.array(z.string()),
});

export const importReportSchema = z
  .object({
    columns: z.array(z.string()),
    mapping: z.record(z.string(), z.string()),
    rows: z.number().int().nonnegative(),
    valid: z.number().int().nonnegative(),
    errors: z
      .array(z.object({ line: z.number().int(), message: z.string() }))
      .meta({ description: 'Every problem, with the line it is on (at most 200).' }),
    preview: z.array(importRow).meta({ description: 'The first 20 rows as they would be stored.' }),
    imported: z.number().int().nonnegative(),
    ids: z.array(z.string()),
    message: z.string(),
  })
  .meta({ id: 'InventoryImportReport' });

const exportQuery = filterQuery.extend({
  format: z
    .string()
    .optional()
    .transform((s) => (s ?? 'csv').trim().toLowerCase())
    .pipe(z.enum(['csv', 'json'], { error: 'format must be csv or json' })),
  bom: z.enum(['0', '1', 'true', 'false', ''], { error: 'bom must be 1 or 0' }).optional(),
  ids: z
    .string({ error: 'ids must be given once' })
    .optional()
    .transform((s, ctx) => {
      if (!s) return undefined;
      const list = s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      if (list.length > MAX_SELECTION) {
        ctx.addIssue({ code: 'custom', message: `A selection holds at most ${MAX_SELECTION} items` });
        return z.NEVER;
      }
      return list;
    })
    .meta({ description: 'Only these items (comma-separated ids): the selection.' }),
});

const listResponses = {
  200: {
    description: 'One page of items (an array, docs/product.md#calls); the total is in X-Total-Count.',
    json: z.array(inventoryItemSchema),
    headers: { 'X-Total-Count': { description: 'Items matching the filter.' } },
  },
} as const;

export const listInventory = defineOperation({
  operationId: 'listInventory',
  method: 'get',
  path: '/api/inventory',
  service: 'catalogue',
  security: 'user',
  summary: 'Your inventory, newest first (or sorted), 20 a page',
  query: listQuery,
  responses: listResponses,
});

export const searchInventory = defineOperation({
  operationId: 'searchInventory',
  method: 'get',
  path: '/api/inventory/search',
  service: 'catalogue',
  security: 'user',
  summary: 'The inventory filtered by text and category (only the set parameters are sent)',
  query: listQuery,
  responses: listResponses,
});

export const exportInventory = defineOperation({
  operationId: 'exportInventory',
  method: 'get',
  path: '/api/inventory/export',
  service: 'catalogue',
  security: 'user',
  summary: 'Download the filtered inventory (or a selection) as CSV or JSON',
  description:
    'Streams every matching item. CSV cells a spreadsheet would run as a formula (= + - @) start with an apostrophe; the import strips it again.',
  query: exportQuery,
  responses: {
    200: {
      description: 'The file.',
      content: { 'text/csv': {}, 'application/json': { schema: z.array(inventoryItemSchema) } },
      headers: {
        'Content-Disposition': { description: 'attachment; kaboodle-inventory-<date>.<format>' },
        'X-Total-Count': { description: 'Items matching the filter.' },
        'X-Export-Truncated': { description: 'Set to the row limit when more items matched.' },
      },
    },
  },
});

export const importInventory = defineOperation({
  operationId: 'importInventory',
  method: 'post',
  path: '/api/inventory/import',
  service: 'catalogue',
  security: 'user',
  summary: 'Import items from a CSV file: preview (dry_run) or store them all',
  description:
    'Headers are mapped to item fields (or as `mapping` says). Every row is checked first; if any row has a problem nothing is stored (422, with the lines).',
  // JSON quoting can double a CSV (every line break is two characters): room for that, no more
  body: { json: importBodySchema, limit: 2 * MAX_IMPORT_BYTES + 1024 * 1024 },
  responses: {
    200: { description: 'The preview (dry_run): nothing stored.', json: importReportSchema },
    201: { description: 'Every row stored.', json: importReportSchema },
    422: { description: 'Some rows have problems: nothing stored.', json: importReportSchema },
  },
});

export const bulkInventory = defineOperation({
  operationId: 'bulkInventory',
  method: 'post',
  path: '/api/inventory/bulk',
  service: 'catalogue',
  security: 'user',
  summary: 'Delete or re-categorise selected items (all of them, or none when one is not yours)',
  body: { json: bulkBodySchema, limit: '256kb' },
  responses: {
    200: {
      description: 'Done.',
      json: z.object({ action: z.string(), ids: z.array(z.string()), count: z.number().int() }),
    },
  },
  errors: [404],
});

export const getInventoryItem = defineOperation({
  operationId: 'getInventoryItem',
  method: 'get',
  path: '/api/inventory/{id}',
  service: 'catalogue',
  security: 'user',
  summary: 'One item with its recognised objects, colours, barcodes and provenance',
  params: idParams,
  responses: { 200: { description: 'The item.', json: inventoryDetailSchema } },
});

export const updateInventoryItem = defineOperation({
  operationId: 'updateInventoryItem',
  method: 'patch',
  path: '/api/inventory/{id}',
  service: 'catalogue',
  security: 'user',
  summary: 'Correct AI-generated fields (kept when the item is reprocessed; re-indexed at once)',
  params: idParams,
  body: { json: inventoryPatchSchema, limit: '256kb' },
  responses: { 200: { description: 'The corrected item.', json: inventoryDetailSchema } },
});

export const deleteInventoryItem = defineOperation({
  operationId: 'deleteInventoryItem',
  method: 'delete',
  path: '/api/inventory/{id}',
  service: 'catalogue',
  security: 'user',
  summary: 'Delete the item (its uploaded photo stays in the Media Hub)',
  params: idParams,
  responses: { 204: { description: 'Deleted.' } },
});

export const getInventoryImage = defineOperation({
  operationId: 'getInventoryImage',
  method: 'get',
  path: '/api/inventory/{id}/image',
  service: 'catalogue',
  security: 'user',
  summary: "The item's photo: the original, or `w` pixels wide (a JPEG made once and cached)",
  params: idParams,
  query: z.object({
    w: z
      .enum(
        THUMBNAIL_WIDTHS.map(String) as [string, ...string[]],
        `w must be one of ${THUMBNAIL_WIDTHS.join(', ')}`,
      )
      .optional()
      .transform((v) => (v === undefined ? undefined : Number(v))),
    v: z.string().max(64).optional().meta({ description: 'Photo version (from thumbnail_url).' }),
  }),
  responses: {
    200: {
      description: 'The picture.',
      content: { 'image/jpeg': {}, 'image/png': {} },
      headers: {
        ETag: { description: 'Changes when the photo changes.' },
        'Cache-Control': { description: 'A year (immutable) when `v` matches the photo.' },
      },
    },
    304: { description: 'Not modified (If-None-Match).' },
  },
});

export const inventoryOperations: readonly OperationSpec[] = [
  listInventory,
  searchInventory,
  exportInventory,
  importInventory,
  bulkInventory,
  getInventoryItem,
  updateInventoryItem,
  deleteInventoryItem,
  getInventoryImage,
];
