// Reading and checking what the inventory routes receive (paging, search text, edits), by hand until
// they are declared on the API contract like the documents' (catalogue-fields.ts has the same rules
// as schemas). Bad input is an InputError with a message that says what to send instead.
import { InputError } from '@kaboodle/platform';
import { INVENTORY_FIELDS } from './catalogue-model.ts';
import type { InventoryFields, Tag } from './catalogue-model.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY, normaliseTag } from './catalogue-fields.ts';
import type { Page } from './entity-query.ts';

export { normaliseTag };

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
