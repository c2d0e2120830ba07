// What the search routes accept: every body and query string is checked here, once, so a bad input
// is a clear 400 (or a sane clamp) and never reaches the index. Pure, so it is unit-tested directly.
import { InputError } from '@kaboodle/platform';
import type { IndexedEntityType, SearchMode } from './index/search-index.port.ts';

export const QUERY_REQUIRED = 'Search query is required';
export const MAX_QUERY_CHARS = 1000;
export const QUERY_TOO_LONG = `Search query is too long (max ${MAX_QUERY_CHARS} characters)`;

/** API search types. `semantic` is hybrid (kNN + BM25 fused by RRF); `vector` is pure kNN. */
export const SEARCH_TYPES = ['semantic', 'keyword', 'hybrid', 'vector'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const MODE_OF: Record<SearchType, SearchMode> = {
  semantic: 'hybrid',
  hybrid: 'hybrid',
  keyword: 'keyword',
  vector: 'semantic',
};

export const ENTITY_TYPES: readonly IndexedEntityType[] = ['document', 'inventory_item'];
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_RELATED = 50;
export const MAX_NEIGHBOUR_IDS = 500;
export const MAX_NEIGHBOURS_PER_ID = 20;
const MAX_CATEGORY_CHARS = 200;
const MAX_ID_CHARS = 200;

export interface SearchRequest {
  query: string;
  searchType: SearchType;
  limit: number;
  types: IndexedEntityType[];
  category?: string;
}

export interface DocumentSearchRequest {
  query: string;
  limit: number;
}

export interface EntityRequest {
  type: IndexedEntityType;
  id: string;
  limit: number;
}

export interface NeighboursRequest {
  ids: string[];
  k: number;
  minSimilarity: number;
}

const list = (values: readonly string[]) =>
  values.length <= 1 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

function body(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new InputError('The request body must be a JSON object');
  return raw as Record<string, unknown>;
}

/** The trimmed query: required, text, at most 1000 characters (counted as the user sees them). */
export function parseQuery(raw: unknown): string {
  if (raw === undefined || raw === null) throw new InputError(QUERY_REQUIRED);
  if (typeof raw !== 'string') throw new InputError('Search query must be text');
  const query = raw.trim();
  if (query === '') throw new InputError(QUERY_REQUIRED);
  // Code points, so an emoji counts as one character.
  let chars = 0;
  for (const _ of query) if (++chars > MAX_QUERY_CHARS) throw new InputError(QUERY_TOO_LONG);
  return query;
}

/**
 * A number within [min, max]: numbers and numeric strings (query strings) are clamped and rounded
 * down; anything else (words, arrays, objects, NaN) is a 400.
 */
export function parseBounded(
  raw: unknown,
  name: string,
  bounds: { min: number; max: number; fallback: number; integer?: boolean },
): number {
  if (raw === undefined || raw === null || raw === '') return bounds.fallback;
  const n =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(raw)
        ? Number(raw)
        : NaN;
  if (!Number.isFinite(n)) {
    if (typeof raw === 'number' && !Number.isNaN(n)) return n > 0 ? bounds.max : bounds.min;
    throw new InputError(`${name} must be a number`);
  }
  const v = bounds.integer === false ? n : Math.floor(n);
  return Math.min(bounds.max, Math.max(bounds.min, v));
}

export const parseLimit = (raw: unknown, fallback = DEFAULT_LIMIT, max = MAX_LIMIT): number =>
  parseBounded(raw, 'limit', { min: 1, max, fallback });

function parseEntityType(raw: unknown, name: string): IndexedEntityType {
  if (typeof raw !== 'string' || !(ENTITY_TYPES as readonly string[]).includes(raw.trim())) {
    const shown = typeof raw === 'string' ? `"${raw.slice(0, 50)}"` : 'missing';
    throw new InputError(
      raw === undefined || raw === ''
        ? `${name} is required: ${list(ENTITY_TYPES)}`
        : `Unknown ${name} ${shown}: use ${list(ENTITY_TYPES)}`,
    );
  }
  return raw.trim() as IndexedEntityType;
}

function parseTypes(raw: unknown): IndexedEntityType[] {
  if (raw === undefined || raw === null) return [];
  const values = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(values)) throw new InputError(`types must be a list of ${list(ENTITY_TYPES)}`);
  return [...new Set(values.map((v) => parseEntityType(v, 'type')))];
}

function parseCategory(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw new InputError('category must be text');
  const category = raw.trim();
  if (category.length > MAX_CATEGORY_CHARS) {
    throw new InputError(`category is too long (max ${MAX_CATEGORY_CHARS} characters)`);
  }
  return category === '' ? undefined : category;
}

function parseSearchType(raw: unknown): SearchType {
  if (raw === undefined || raw === null || raw === '') return 'semantic';
  if (typeof raw === 'string' && (SEARCH_TYPES as readonly string[]).includes(raw.trim().toLowerCase())) {
    return raw.trim().toLowerCase() as SearchType;
  }
  const shown =
    typeof raw === 'string' ? `"${raw.slice(0, 50)}"` : (JSON.stringify(raw)?.slice(0, 50) ?? String(raw));
  throw new InputError(`Unknown search type ${shown}: use ${list(SEARCH_TYPES)}`);
}

/** POST /api/search {query, search_type, limit?, types?, category?} */
export function parseSearchRequest(raw: unknown): SearchRequest {
  const b = body(raw);
  const query = parseQuery(b.query);
  const category = parseCategory(b.category);
  return {
    query,
    searchType: parseSearchType(b.search_type),
    limit: parseLimit(b.limit),
    types: parseTypes(b.types),
    ...(category !== undefined ? { category } : {}),
  };
}

/** POST /api/documents/search {query, limit?} */
export function parseDocumentSearchRequest(raw: unknown): DocumentSearchRequest {
  const b = body(raw);
  return { query: parseQuery(b.query), limit: parseLimit(b.limit) };
}

function parseId(raw: unknown, name = 'id'): string {
  if (raw === undefined || raw === null || raw === '') throw new InputError(`${name} is required`);
  if (typeof raw !== 'string') throw new InputError(`${name} must be text`);
  const id = raw.trim();
  if (id === '') throw new InputError(`${name} is required`);
  if (id.length > MAX_ID_CHARS) throw new InputError(`${name} is too long (max ${MAX_ID_CHARS} characters)`);
  return id;
}

/** GET /api/search/related?type&id&limit and /duplicates?type&id (query strings). */
export function parseEntityRequest(raw: Record<string, unknown>, defaultLimit: number): EntityRequest {
  return {
    type: parseEntityType(raw.type, 'type'),
    id: parseId(raw.id),
    limit: parseLimit(raw.limit, defaultLimit, MAX_RELATED),
  };
}

/** POST /api/search/neighbours {ids, k?, min_similarity?} */
export function parseNeighboursRequest(raw: unknown): NeighboursRequest {
  const b = body(raw);
  if (!Array.isArray(b.ids)) throw new InputError('ids must be a list of document ids');
  if (b.ids.length > MAX_NEIGHBOUR_IDS) {
    throw new InputError(`ids takes at most ${MAX_NEIGHBOUR_IDS} document ids, got ${b.ids.length}`);
  }
  const ids = [...new Set(b.ids.map((id, i) => parseId(id, `ids[${i}]`)))];
  return {
    ids,
    k: parseBounded(b.k, 'k', { min: 1, max: MAX_NEIGHBOURS_PER_ID, fallback: 3 }),
    minSimilarity: parseBounded(b.min_similarity, 'min_similarity', {
      min: 0,
      max: 1,
      fallback: 0.5,
      integer: false,
    }),
  };
}
