// What the search routes accept, as the zod schemas search.api.ts declares: every body and query
// string is checked here, once, so a bad input is a clear 400 (or a sane clamp) and never reaches the
// index. The same schemas document the operations; the parse* functions apply them outside a request.
import * as z from 'zod';
import { validateInput } from '@kaboodle/platform';
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

export const ENTITY_TYPES = ['document', 'inventory_item'] as const satisfies readonly IndexedEntityType[];
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
  /** Only members of this kaboodle of the searcher's (its search's results for a smart one). */
  kaboodle?: string;
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

const BODY_NOT_OBJECT = 'The request body must be a JSON object';

/** Code points, so an emoji counts as one character (as JSON Schema's maxLength counts). */
function withinChars(text: string, max: number): boolean {
  let chars = 0;
  for (const _ of text) if (++chars > max) return false;
  return true;
}

/** The trimmed query: required, text, at most 1000 characters (counted as the user sees them). */
export const queryField = z
  .string({ error: (iss) => (iss.input == null ? QUERY_REQUIRED : 'Search query must be text') })
  .trim()
  .min(1, QUERY_REQUIRED)
  .refine((q) => withinChars(q, MAX_QUERY_CHARS), QUERY_TOO_LONG)
  .meta({ description: 'What to look for (trimmed; at most 1,000 characters).', maxLength: MAX_QUERY_CHARS });

const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i;

/**
 * A number within [min, max]: numbers and numeric strings (query strings) are clamped and rounded
 * down; anything else (words, arrays, objects) is a 400. The rule is a clamp, not a refusal, so the
 * schema is a transform and the document states the range it clamps to.
 */
export function boundedNumber(
  name: string,
  bounds: { min: number; max: number; fallback: number; integer?: boolean },
  description: string,
) {
  const integer = bounds.integer !== false;
  return z
    .unknown()
    .transform((raw, ctx): number => {
      if (raw === undefined || raw === null || raw === '') return bounds.fallback;
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && NUMBER_TEXT.test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(n)) {
        // 1e999 in JSON is Infinity: out of range, so clamped like any other big number
        if (typeof raw === 'number' && !Number.isNaN(n)) return n > 0 ? bounds.max : bounds.min;
        ctx.addIssue({ code: 'custom', message: `${name} must be a number` });
        return z.NEVER;
      }
      const v = integer ? Math.floor(n) : n;
      return Math.min(bounds.max, Math.max(bounds.min, v));
    })
    .meta({
      description: `${description} Values outside ${bounds.min}..${bounds.max} are clamped${integer ? ', fractions rounded down' : ''}.`,
      override: {
        type: integer ? 'integer' : 'number',
        minimum: bounds.min,
        maximum: bounds.max,
        default: bounds.fallback,
      },
    });
}

const limitField = (fallback: number, max: number) =>
  boundedNumber('limit', { min: 1, max, fallback }, 'How many results at most.');

const entityTypeMessage = (raw: unknown, name: string): string =>
  raw === undefined || raw === ''
    ? `${name} is required: ${list(ENTITY_TYPES)}`
    : `Unknown ${name} ${typeof raw === 'string' ? `"${raw.slice(0, 50)}"` : 'missing'}: use ${list(ENTITY_TYPES)}`;

/** document or inventory_item (surrounding spaces ignored). */
const entityType = (name: string) =>
  z
    .string({ error: (iss) => entityTypeMessage(iss.input, name) })
    .trim()
    .pipe(z.enum(ENTITY_TYPES, { error: (iss) => entityTypeMessage(iss.input, name) }))
    .meta({ override: { type: 'string', enum: [...ENTITY_TYPES] } });

const typesField = z
  .union([z.string(), z.array(z.unknown())], { error: `types must be a list of ${list(ENTITY_TYPES)}` })
  .nullish()
  .transform((v, ctx): IndexedEntityType[] => {
    const out = new Set<IndexedEntityType>();
    for (const raw of v == null ? [] : typeof v === 'string' ? [v] : v) {
      const type = entityType('type').safeParse(raw);
      if (!type.success) {
        ctx.addIssue({ code: 'custom', message: type.error.issues[0]!.message });
        return z.NEVER;
      }
      out.add(type.data);
    }
    return [...out];
  })
  .meta({
    description: 'Only these kinds of entity (one or a list); none means both.',
    override: {
      anyOf: [
        { type: 'string', enum: [...ENTITY_TYPES] },
        { type: 'array', items: { type: 'string', enum: [...ENTITY_TYPES] } },
      ],
    },
  });

const categoryField = z
  .string({ error: 'category must be text' })
  .trim()
  .max(MAX_CATEGORY_CHARS, `category is too long (max ${MAX_CATEGORY_CHARS} characters)`)
  .nullish()
  .transform((c) => c || undefined)
  .meta({ description: 'Only entities of exactly this category.' });

const kaboodleField = z
  .string({ error: 'kaboodle must be a kaboodle id' })
  .trim()
  .max(MAX_ID_CHARS, `kaboodle is too long (max ${MAX_ID_CHARS} characters)`)
  .nullish()
  .transform((k) => k || undefined)
  .meta({
    description:
      "Only the members of this kaboodle of yours (a smart kaboodle's: whatever its search finds now). 404 when you have no such kaboodle.",
  });

const searchTypeField = z
  .unknown()
  .transform((raw, ctx): SearchType => {
    if (raw === undefined || raw === null || raw === '') return 'semantic';
    const value = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
    if (value !== undefined && (SEARCH_TYPES as readonly string[]).includes(value))
      return value as SearchType;
    const shown =
      typeof raw === 'string' ? `"${raw.slice(0, 50)}"` : (JSON.stringify(raw)?.slice(0, 50) ?? String(raw));
    ctx.addIssue({ code: 'custom', message: `Unknown search type ${shown}: use ${list(SEARCH_TYPES)}` });
    return z.NEVER;
  })
  .meta({
    description:
      'semantic: by meaning and keywords together (the default); hybrid: the same; keyword: words only; vector: meaning only. Any case.',
    override: { type: 'string', enum: [...SEARCH_TYPES], default: 'semantic' },
  });

/** An id: text, trimmed, 1 to 200 characters. */
const idField = (name: string) =>
  z
    .string({
      error: (iss) =>
        iss.input == null || iss.input === '' ? `${name} is required` : `${name} must be text`,
    })
    .trim()
    .min(1, `${name} is required`)
    .max(MAX_ID_CHARS, `${name} is too long (max ${MAX_ID_CHARS} characters)`);

/** POST /api/search {query, search_type, limit?, types?, category?, kaboodle?} */
export const searchBody = z
  .object(
    {
      query: queryField,
      category: categoryField.optional(),
      search_type: searchTypeField.optional(),
      limit: limitField(DEFAULT_LIMIT, MAX_LIMIT).optional(),
      types: typesField.optional(),
      kaboodle: kaboodleField.optional(),
    },
    { error: BODY_NOT_OBJECT },
  )
  .transform((b): SearchRequest => ({
    query: b.query,
    searchType: b.search_type ?? 'semantic',
    limit: b.limit ?? DEFAULT_LIMIT,
    types: b.types ?? [],
    ...(b.category !== undefined ? { category: b.category } : {}),
    ...(b.kaboodle !== undefined ? { kaboodle: b.kaboodle } : {}),
  }))
  .meta({ id: 'SearchRequest' });

/** POST /api/documents/search {query, limit?} */
export const documentSearchBody = z
  .object(
    { query: queryField, limit: limitField(DEFAULT_LIMIT, MAX_LIMIT).optional() },
    { error: BODY_NOT_OBJECT },
  )
  .transform((b): DocumentSearchRequest => ({ query: b.query, limit: b.limit ?? DEFAULT_LIMIT }));

/** GET /api/search/related?type&id&limit and /duplicates?type&id (query strings). */
export const entityQuery = (defaultLimit: number) =>
  z.object({
    type: entityType('type').meta({ description: 'The kind of entity the id names.' }),
    id: idField('id').meta({ description: 'The document or inventory item id.' }),
    limit: limitField(defaultLimit, MAX_RELATED).optional(),
  });

export const toEntityRequest = (
  q: z.output<ReturnType<typeof entityQuery>>,
  defaultLimit: number,
): EntityRequest => ({ type: q.type, id: q.id, limit: q.limit ?? defaultLimit });

/** POST /api/search/neighbours {ids, k?, min_similarity?} */
export const neighboursBody = z
  .object(
    {
      ids: z
        .array(z.unknown(), { error: 'ids must be a list of document ids' })
        .superRefine((ids, ctx) => {
          if (ids.length > MAX_NEIGHBOUR_IDS)
            ctx.addIssue({
              code: 'custom',
              message: `ids takes at most ${MAX_NEIGHBOUR_IDS} document ids, got ${ids.length}`,
              abort: true,
            });
        })
        .transform((ids, ctx): string[] => {
          const out = new Set<string>();
          for (const [i, raw] of ids.entries()) {
            const id = idField(`ids[${i}]`).safeParse(raw);
            if (!id.success) {
              ctx.addIssue({ code: 'custom', message: id.error.issues[0]!.message });
              return z.NEVER;
            }
            out.add(id.data);
          }
          return [...out];
        })
        .meta({
          description: `The documents shown (at most ${MAX_NEIGHBOUR_IDS}); repeats count once.`,
          override: {
            type: 'array',
            items: { type: 'string', minLength: 1, maxLength: MAX_ID_CHARS },
            maxItems: MAX_NEIGHBOUR_IDS,
          },
        }),
      k: boundedNumber(
        'k',
        { min: 1, max: MAX_NEIGHBOURS_PER_ID, fallback: 3 },
        'Nearest neighbours per document.',
      ).optional(),
      min_similarity: boundedNumber(
        'min_similarity',
        { min: 0, max: 1, fallback: 0.5, integer: false },
        'Cosine similarity an edge needs.',
      ).optional(),
    },
    { error: BODY_NOT_OBJECT },
  )
  .transform((b): NeighboursRequest => ({ ids: b.ids, k: b.k ?? 3, minSimilarity: b.min_similarity ?? 0.5 }));

// Outside a request (unit tests, benches): the same schemas, the same InputError a route gives.
// A missing body is an empty one (the routes take the body as optional).
export const parseSearchRequest = (raw: unknown): SearchRequest =>
  validateInput(searchBody, raw ?? {}, 'body');
export const parseDocumentSearchRequest = (raw: unknown): DocumentSearchRequest =>
  validateInput(documentSearchBody, raw ?? {}, 'body');
export const parseEntityRequest = (raw: Record<string, unknown>, defaultLimit: number): EntityRequest =>
  toEntityRequest(validateInput(entityQuery(defaultLimit), raw, 'query'), defaultLimit);
export const parseNeighboursRequest = (raw: unknown): NeighboursRequest =>
  validateInput(neighboursBody, raw ?? {}, 'body');
