// Reading and checking what callers send: paging, sorting, search text and edits. Bad input is an
// InputError with a message that says what to send instead (a 400, never a 500).
import { InputError } from '@kaboodle/platform';
import { DOCUMENT_FIELDS, INVENTORY_FIELDS } from './catalogue-model.ts';
import type { DocumentFields, InventoryFields, Tag } from './catalogue-model.ts';
import { DOCUMENT_SORTS } from './document.repository.ts';
import type { DocumentSort } from './document.repository.ts';
import type { Order, Page } from './entity-query.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_QUERY = 500;

type Query = Record<string, unknown>;

/** One value of a query parameter; repeated parameters are refused rather than guessed at. */
export function single(q: Query, name: string): string | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new InputError(`${name} must be given once`);
  return v;
}

function wholeNumber(
  q: Query,
  name: string,
  min: number,
  max: number,
  fallback: number,
  text: string,
): number {
  const raw = single(q, name);
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d{1,9}$/.test(raw.trim())) throw new InputError(text);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new InputError(text);
  return n;
}

export function parsePage(q: Query): Page {
  return {
    page: wholeNumber(q, 'page', 1, 1_000_000, 1, 'page must be a whole number of 1 or more'),
    limit: wholeNumber(
      q,
      'limit',
      1,
      MAX_LIMIT,
      DEFAULT_LIMIT,
      `limit must be a whole number from 1 to ${MAX_LIMIT}`,
    ),
  };
}

export function parseLimit(q: Query, fallback = DEFAULT_LIMIT): number {
  return wholeNumber(
    q,
    'limit',
    1,
    MAX_LIMIT,
    fallback,
    `limit must be a whole number from 1 to ${MAX_LIMIT}`,
  );
}

const SORT_NAMES = Object.keys(DOCUMENT_SORTS) as DocumentSort[];

/** Sort and order: a chosen column starts ascending (spec: first click ascending); default newest first. */
export function parseSort(q: Query): { sort: DocumentSort; order: Order } {
  const sort = single(q, 'sort')?.trim();
  const order = single(q, 'order')?.trim().toLowerCase();
  if (sort && !SORT_NAMES.includes(sort as DocumentSort)) {
    throw new InputError(`sort must be one of ${SORT_NAMES.join(', ')}`);
  }
  if (order && order !== 'asc' && order !== 'desc') throw new InputError('order must be asc or desc');
  if (!sort) return { sort: 'created_at', order: (order as Order | undefined) ?? 'desc' };
  return { sort: sort as DocumentSort, order: (order as Order | undefined) ?? 'asc' };
}

/** The keyword: trimmed, 1 to 500 characters (required for search routes). */
export function parseQuery(q: Query, required: boolean): string | undefined {
  const raw = single(q, 'query') ?? single(q, 'q');
  const text = raw?.trim() ?? '';
  if (!text) {
    if (required) throw new InputError('Search query is required');
    return undefined;
  }
  if (text.length > MAX_QUERY) throw new InputError(`Search query is too long (max ${MAX_QUERY} characters)`);
  return text;
}

export function parseCategory(q: Query): string | undefined {
  const c = single(q, 'category');
  if (c === undefined || c === '') return undefined;
  if (c.length > 200) throw new InputError('category is too long (max 200 characters)');
  return c;
}

/**
 * Tags as processing writes them (lower-case ASCII kebab, up to 48): `#MachineLearning`,
 * `machine_learning` and `Machine learning` all become `machine-learning`. Null when nothing is left.
 */
export function normaliseTag(raw: string): string | null {
  const t = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/^\s*#+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return t || null;
}

export function parseHashtagFilter(q: Query): string | undefined {
  const raw = single(q, 'hashtag') ?? single(q, 'tag');
  if (raw === undefined || raw.trim() === '') return undefined;
  const tag = normaliseTag(raw);
  if (!tag) throw new InputError('hashtag needs at least one letter or digit');
  return tag;
}

// ---- edits -------------------------------------------------------------------------------------

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InputError('Send the fields to change as a JSON object');
  }
  return body as Record<string, unknown>;
}

function text(field: string, v: unknown, max: number, required = false): string {
  if (typeof v !== 'string') throw new InputError(`${field} must be text`);
  const t = v.trim();
  if (required && !t) throw new InputError(`${field} must not be empty`);
  if (t.length > max) throw new InputError(`${field} is too long (max ${max} characters)`);
  return t;
}

function tags(v: unknown): Tag[] {
  if (!Array.isArray(v)) throw new InputError('hashtags must be a list of tags or {tag, relevancy} objects');
  if (v.length > 50) throw new InputError('hashtags takes at most 50 tags');
  const out = new Map<string, Tag>();
  for (const item of v) {
    const obj = typeof item === 'string' ? { tag: item, relevancy: 1 } : item;
    if (typeof obj !== 'object' || obj === null || typeof (obj as { tag?: unknown }).tag !== 'string') {
      throw new InputError('hashtags must be a list of tags or {tag, relevancy} objects');
    }
    const { tag: rawTag, relevancy = 1 } = obj as { tag: string; relevancy?: unknown };
    const tag = normaliseTag(rawTag);
    if (!tag)
      throw new InputError(
        `"${rawTag.slice(0, 80)}" is not a valid tag: it needs at least one letter or digit`,
      );
    if (typeof relevancy !== 'number' || !Number.isFinite(relevancy) || relevancy < 0 || relevancy > 1) {
      throw new InputError('A tag relevancy must be a number from 0 to 1');
    }
    if (!out.has(tag)) out.set(tag, { tag, relevancy: Math.round(relevancy * 1000) / 1000 });
  }
  return [...out.values()];
}

function checkKeys(body: Record<string, unknown>, allowed: readonly string[]): string[] {
  const keys = Object.keys(body);
  const unknown = keys.find((k) => !allowed.includes(k));
  if (unknown !== undefined) {
    throw new InputError(
      `"${unknown.slice(0, 80)}" cannot be edited; editable fields: ${allowed.join(', ')}`,
    );
  }
  if (keys.length === 0)
    throw new InputError(`Nothing to update: send at least one of ${allowed.join(', ')}`);
  return keys;
}

export function parseDocumentPatch(body: unknown): Partial<DocumentFields> {
  const b = asObject(body);
  const out: Partial<DocumentFields> = {};
  for (const k of checkKeys(b, DOCUMENT_FIELDS) as (keyof DocumentFields)[]) {
    const v = b[k];
    switch (k) {
      case 'title':
        out.title = text(k, v, 500, true);
        break;
      case 'author':
      case 'category':
      case 'field':
      case 'journal_publisher':
        out[k] = text(k, v, 500);
        break;
      case 'summary':
      case 'thesis':
      case 'issue':
        out[k] = text(k, v, 10_000);
        break;
      case 'publication_year':
        if (v !== null && (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 9999)) {
          throw new InputError('publication_year must be a whole year from 0 to 9999, or null');
        }
        out.publication_year = v as number | null;
        break;
      case 'influenced_by': {
        if (!Array.isArray(v) || v.length > 100 || v.some((x) => typeof x !== 'string')) {
          throw new InputError('influenced_by must be a list of up to 100 names');
        }
        const names = (v as string[]).map((x) => x.trim()).filter(Boolean);
        if (names.some((x) => x.length > 300))
          throw new InputError('An influence is too long (max 300 characters)');
        out.influenced_by = [...new Set(names)];
        break;
      }
      case 'hashtags':
        out.hashtags = tags(v);
        break;
    }
  }
  return out;
}

function price(field: string, v: unknown): number | null {
  if (v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1_000_000_000) {
    throw new InputError(`${field} must be an amount from 0 to 1000000000, or null`);
  }
  return Math.round(v * 100) / 100;
}

export function parseInventoryPatch(body: unknown): Partial<InventoryFields> {
  const b = asObject(body);
  const out: Partial<InventoryFields> = {};
  for (const k of checkKeys(b, INVENTORY_FIELDS) as (keyof InventoryFields)[]) {
    const v = b[k];
    switch (k) {
      case 'name':
        out.name = text(k, v, 500, true);
        break;
      case 'description':
        out.description = text(k, v, 10_000);
        break;
      case 'category':
      case 'color':
      case 'material':
      case 'dimensions':
      case 'origin_source':
        out[k] = text(k, v, 500);
        break;
      case 'import_cost':
      case 'retail_price':
        out[k] = price(k, v);
        break;
      case 'currency': {
        const c = text(k, v, 3).toUpperCase();
        if (!/^[A-Z]{3}$/.test(c)) throw new InputError('currency must be a three-letter code such as USD');
        out.currency = c;
        break;
      }
      case 'hashtags':
        out.hashtags = tags(v);
        break;
    }
  }
  return out;
}
