// Reading an inventory spreadsheet (CSV) into item fields: headers mapped to fields (Kaboodle's own
// export, Homebox's HB.* columns, InvenTree's part export, common spreadsheet words), every row
// checked with the line it starts on. Pure: the route decides whether to store (all rows or none).
import { parse } from 'csv-parse/sync';
import { InputError } from '@kaboodle/platform';
import { INVENTORY_FIELDS } from './catalogue-model.ts';
import type { InventoryFields, Tag } from './catalogue-model.ts';
import { INVENTORY_CATEGORY_NAMES, MAX_IMPORT_ROWS } from './inventory.api.ts';
import { normaliseTag } from './request-input.ts';

export type InventoryField = (typeof INVENTORY_FIELDS)[number];

export interface ImportRow {
  line: number;
  fields: Partial<InventoryFields>;
  errors: string[];
}

export interface ImportPlan {
  columns: string[];
  /** Column → field ('' when the column is not imported). */
  mapping: Record<string, InventoryField | ''>;
  rows: ImportRow[];
}

/** Header words (lower case, letters and digits only) for each field, best first. */
const SYNONYMS: Record<InventoryField, string[]> = {
  name: ['name', 'itemname', 'productname', 'partname', 'title', 'item', 'product'],
  description: ['description', 'desc', 'details', 'notes'],
  category: ['category', 'categoryname', 'type', 'group'],
  material: ['material', 'materials'],
  color: ['color', 'colour'],
  dimensions: ['dimensions', 'size', 'measurements'],
  origin_source: [
    'originsource',
    'origin',
    'countryoforigin',
    'country',
    'madein',
    'purchasefrom',
    'supplier',
  ],
  import_cost: ['importcost', 'cost', 'purchaseprice', 'unitcost', 'purchasecost', 'buyprice'],
  retail_price: ['retailprice', 'price', 'saleprice', 'sellingprice', 'listprice'],
  currency: ['currency', 'currencycode'],
  hashtags: ['hashtags', 'tags', 'labels', 'keywords'],
};

const normaliseHeader = (h: string): string =>
  h
    .trim()
    .replace(/^hb\./i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The field each header names, each field taken by at most one column (the first, best match). */
export function guessMapping(columns: string[]): Record<string, InventoryField | ''> {
  const mapping: Record<string, InventoryField | ''> = {};
  const taken = new Set<InventoryField>();
  const keys = columns.map(normaliseHeader);
  for (const column of columns) mapping[column] = '';
  for (let rank = 0; rank < 10; rank++) {
    for (const field of INVENTORY_FIELDS) {
      const word = SYNONYMS[field][rank];
      if (!word || taken.has(field)) continue;
      const at = keys.findIndex((k, i) => k === word && mapping[columns[i]!] === '');
      if (at >= 0) {
        mapping[columns[at]!] = field;
        taken.add(field);
      }
    }
  }
  return mapping;
}

/** Our export guards formula-looking cells with an apostrophe; reading them back takes it off. */
const unguard = (v: string): string => (/^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v);

/** "$1,234.50", "12.5", "" → a number, null (blank) or undefined (not an amount). */
export function parseAmount(raw: string): number | null | undefined {
  const t = raw.trim().replace(/^[A-Z]{3}\s+/, '');
  if (t === '') return null;
  const m = /^[$€£¥]?\s*(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$/.exec(t);
  if (!m || (!m[1] && !m[3])) return undefined;
  const n = Number(t.replace(/[^\d.]/g, ''));
  return Number.isFinite(n) ? Math.round(n * 100) / 100 : undefined;
}

const LIMITS: Partial<Record<InventoryField, number>> = { description: 10_000 };

function readCell(field: InventoryField, raw: string, label: string, row: ImportRow): void {
  const value = unguard(raw).trim();
  const f = row.fields;
  switch (field) {
    case 'import_cost':
    case 'retail_price': {
      const n = parseAmount(value);
      if (n === undefined) row.errors.push(`${label} "${value.slice(0, 40)}" is not an amount`);
      else if (n !== null && n > 1_000_000_000) row.errors.push(`${label} is above 1000000000`);
      else f[field] = n;
      return;
    }
    case 'currency': {
      if (value === '') return;
      const c = value.toUpperCase();
      if (!/^[A-Z]{3}$/.test(c))
        row.errors.push(`${label} "${value.slice(0, 40)}" is not a three-letter code`);
      else f.currency = c;
      return;
    }
    case 'hashtags': {
      const tags = new Map<string, Tag>();
      for (const part of value.split(/[;,|]/)) {
        if (!part.trim()) continue;
        const tag = normaliseTag(part);
        if (tag) tags.set(tag, { tag, relevancy: 1 });
      }
      f.hashtags = [...tags.values()].slice(0, 50);
      return;
    }
    case 'category': {
      const known = INVENTORY_CATEGORY_NAMES.find(
        (c) => c.toLowerCase().replace(/\s/g, '') === value.toLowerCase().replace(/[\s-]/g, ''),
      );
      f.category = known ?? value;
      if (value.length > 500) row.errors.push(`${label} is longer than 500 characters`);
      return;
    }
    default: {
      const max = LIMITS[field] ?? 500;
      if (value.length > max) row.errors.push(`${label} is longer than ${max} characters`);
      else f[field] = value;
    }
  }
}

const MAX_RECORD_CHARS = 1024 * 1024;
const MAX_HEADER_CHARS = 200;
/** A column name as a message quotes it. */
const quoted = (c: string) => (c.length > 40 ? `${c.slice(0, 40)}…` : c);

interface Parsed {
  record: string[];
  raw: string;
}

/**
 * Parse and check a CSV. Throws InputError when the file itself cannot be read (quotes, no header,
 * no name column, too many rows); row problems are reported on the rows.
 */
export function planImport(csv: string, mapping?: Record<string, string>): ImportPlan {
  let parsed: Parsed[];
  try {
    parsed = parse(csv, {
      bom: true,
      raw: true,
      relax_column_count: true,
      // a row is at most a few kB of text: a megabyte in one row is not an inventory, stop early
      max_record_size: MAX_RECORD_CHARS,
      to: MAX_IMPORT_ROWS + 2,
    }) as unknown as Parsed[];
  } catch (err) {
    const e = err as { message?: string; lines?: number; code?: string };
    const why =
      e.code === 'CSV_MAX_RECORD_SIZE'
        ? 'a row is longer than 1 MB'
        : (e.message ?? 'not CSV').replace(/^Invalid [^:]*: /, '');
    throw new InputError(`The CSV file cannot be read${e.lines ? ` at line ${e.lines}` : ''}: ${why}`);
  }
  // leading blank lines are not the header
  const linesIn = (raw: string) => (raw.match(/\r\n|\r|\n/g) ?? []).length;
  let line = 1;
  while (parsed[0] && parsed[0].record.every((c) => c.trim() === '')) line += linesIn(parsed.shift()!.raw);
  const header = parsed[0];
  if (!header || header.record.every((c) => c.trim() === '')) {
    throw new InputError('The CSV file is empty: the first line must name the columns');
  }
  if (parsed.filter((p) => p.record.some((c) => c.trim() !== '')).length - 1 > MAX_IMPORT_ROWS) {
    throw new InputError(`The CSV has more than ${MAX_IMPORT_ROWS} rows; split it into smaller files`);
  }
  const columns = header.record.map((c) => c.trim());
  const long = columns.findIndex((c) => c.length > MAX_HEADER_CHARS);
  if (long >= 0) {
    throw new InputError(
      `The first line must name the columns; column ${long + 1} is ${columns[long]!.length} characters long`,
    );
  }
  let map: Record<string, InventoryField | ''>;
  if (mapping) {
    const unknown = Object.keys(mapping).find((c) => !columns.includes(c));
    if (unknown !== undefined)
      throw new InputError(`mapping names a column the CSV does not have: "${quoted(unknown)}"`);
    map = Object.fromEntries(columns.map((c) => [c, (mapping[c] ?? '') as InventoryField | '']));
    const fields = Object.values(map).filter(Boolean);
    const twice = fields.find((f, i) => fields.indexOf(f) !== i);
    if (twice) throw new InputError(`mapping reads ${twice} from more than one column`);
  } else {
    map = guessMapping(columns);
  }
  if (!Object.values(map).includes('name')) {
    throw new InputError(
      `The CSV has no column for the item name (columns: ${columns.slice(0, 12).map(quoted).join(', ') || 'none'}). Name a column "Name", or map one to name.`,
    );
  }
  const rows: ImportRow[] = [];
  // Lines are counted from the raw text of each record, so a quoted cell over two lines moves on
  // the numbering exactly as an editor shows it.
  line += linesIn(header.raw);
  for (const { record, raw } of parsed.slice(1)) {
    const row: ImportRow = { line, fields: {}, errors: [] };
    line += linesIn(raw);
    if (record.every((c) => c.trim() === '')) continue;
    if (record.length > columns.length && record.slice(columns.length).some((c) => c.trim() !== '')) {
      row.errors.push(`has ${record.length} cells; the header names ${columns.length} columns`);
    }
    columns.forEach((column, i) => {
      const field = map[column];
      if (field) readCell(field, record[i] ?? '', column, row);
    });
    if (!row.fields.name) row.errors.push(`${columns.find((c) => map[c] === 'name')} (the name) is empty`);
    rows.push(row);
  }
  return { columns, mapping: map, rows };
}
