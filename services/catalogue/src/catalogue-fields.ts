// Field schemas the catalogue's operations share (documents.api.ts, activity.api.ts, and the inventory
// operations once they are declared): paging, the keyword and category filters, tags, provenance and
// text edits, each with the message a person reads when a value is refused.
import * as z from 'zod';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_QUERY = 500;
const MAX_PAGE = 1_000_000;
const MAX_CATEGORY = 200;

/** C0 control characters other than tab and newlines (Postgres text cannot hold NUL at all). */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** Text as stored or searched: invisible control characters taken out (as ingestion does). */
export const withoutControls = (s: string): string => s.replace(CONTROL_CHARACTERS, '');

/**
 * One value of a query parameter, control characters taken out; a repeated parameter is refused
 * rather than guessed at.
 */
export const onceQuery = (name: string) =>
  z
    .string({ error: `${name} must be given once` })
    .overwrite(withoutControls)
    .optional();

function wholeNumber(name: string, o: { min: number; max: number; fallback: number; message: string }) {
  return onceQuery(name)
    .transform((raw, ctx): number => {
      const text = raw?.trim() ?? '';
      if (text === '') return o.fallback;
      const n = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
      if (!(n >= o.min && n <= o.max)) {
        ctx.addIssue({ code: 'custom', message: o.message });
        return z.NEVER;
      }
      return n;
    })
    .meta({ override: { type: 'integer', minimum: o.min, maximum: o.max, default: o.fallback } });
}

export const pageQuery = wholeNumber('page', {
  min: 1,
  max: MAX_PAGE,
  fallback: 1,
  message: 'page must be a whole number of 1 or more',
}).meta({ description: 'Which page (from 1).' });

export const limitQuery = wholeNumber('limit', {
  min: 1,
  max: MAX_LIMIT,
  fallback: DEFAULT_LIMIT,
  message: `limit must be a whole number from 1 to ${MAX_LIMIT}`,
}).meta({ description: 'How many per page.' });

/** The keyword as sent (`query`, or its short form `q`): trimmed, at most 500 characters. */
const keyword = (name: string) =>
  onceQuery(name)
    .transform((raw, ctx): string | undefined => {
      if (raw === undefined) return undefined;
      const text = raw.trim();
      if (text.length > MAX_QUERY) {
        ctx.addIssue({ code: 'custom', message: `Search query is too long (max ${MAX_QUERY} characters)` });
        return z.NEVER;
      }
      return text;
    })
    .meta({ override: { type: 'string', maxLength: MAX_QUERY } });

export const keywordQueries = {
  query: keyword('query').meta({
    description: 'Case-insensitive text any shown field contains (trimmed, at most 500 characters).',
  }),
  q: keyword('q').meta({ description: 'Short form of `query` (used when `query` is absent).' }),
};

/** The keyword of a request: `query` when sent (even empty), else `q`; undefined when blank. */
export const keywordOf = (q: { query?: string | undefined; q?: string | undefined }): string | undefined =>
  (q.query !== undefined ? q.query : q.q) || undefined;

export const categoryQuery = onceQuery('category')
  .refine((c) => c === undefined || c.length <= MAX_CATEGORY, {
    message: `category is too long (max ${MAX_CATEGORY} characters)`,
  })
  .transform((c) => c || undefined)
  .meta({ description: 'Exactly this category (case matters).', override: { maxLength: MAX_CATEGORY } });

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

// ---- entities ----------------------------------------------------------------------------------

export const entityIdParams = z.object({
  id: z.string().meta({ description: 'The id (the id of the file it was made from).' }),
});

export const tagSchema = z
  .strictObject({
    tag: z.string().meta({ description: 'Lower-case kebab-case, e.g. `machine-learning`.' }),
    relevancy: z.number().min(0).max(1),
  })
  .meta({ id: 'Tag' });

export const provenanceSchema = z
  .strictObject({
    confidence: z.number().min(0).max(1),
    source: z.string().meta({ description: 'Where the value came from: ai, user, rule…' }),
    method: z.string(),
    evidence: z.string(),
  })
  .meta({ id: 'FieldProvenance' });

// ---- edits -------------------------------------------------------------------------------------

/** An edited text field: control characters out, trimmed, at most max characters, non-empty when required. */
export function textEdit(field: string, max: number, required = false) {
  const text = z
    .string({ error: `${field} must be text` })
    .overwrite(withoutControls)
    .trim();
  return (required ? text.min(1, `${field} must not be empty`) : text).max(
    max,
    `${field} is too long (max ${max} characters)`,
  );
}

const TAGS_MESSAGE = 'hashtags must be a list of tags or {tag, relevancy} objects';
const RELEVANCY_MESSAGE = 'A tag relevancy must be a number from 0 to 1';
const MAX_TAGS = 50;

/**
 * Tags as sent: plain text (relevancy 1) or {tag, relevancy}; stored the way processing writes them
 * (normaliseTag), repeats after normalising kept once, relevancy to three decimals.
 */
export const tagsEdit = z
  .array(z.unknown(), { error: TAGS_MESSAGE })
  .max(MAX_TAGS, `hashtags takes at most ${MAX_TAGS} tags`)
  .transform((items, ctx) => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    const out = new Map<string, z.output<typeof tagSchema>>();
    for (const item of items) {
      const obj = typeof item === 'string' ? { tag: item } : item;
      if (typeof obj !== 'object' || obj === null || typeof (obj as { tag?: unknown }).tag !== 'string')
        return fail(TAGS_MESSAGE);
      const { tag: raw, relevancy = 1 } = obj as { tag: string; relevancy?: unknown };
      const tag = normaliseTag(raw);
      if (!tag)
        return fail(`"${raw.slice(0, 80)}" is not a valid tag: it needs at least one letter or digit`);
      if (typeof relevancy !== 'number' || !Number.isFinite(relevancy) || relevancy < 0 || relevancy > 1)
        return fail(RELEVANCY_MESSAGE);
      if (!out.has(tag)) out.set(tag, { tag, relevancy: Math.round(relevancy * 1000) / 1000 });
    }
    return [...out.values()];
  })
  .meta({
    description:
      'Tags as text (relevancy 1) or {tag, relevancy}; normalised to kebab-case, repeats kept once.',
    // the items are checked one by one above (the first wrong one is named); this is their shape
    override: {
      type: 'array',
      maxItems: MAX_TAGS,
      items: {
        anyOf: [
          { type: 'string' },
          {
            type: 'object',
            properties: { tag: { type: 'string' }, relevancy: { type: 'number', minimum: 0, maximum: 1 } },
            required: ['tag'],
          },
        ],
      },
    },
  });

/** Turns a strict object's messages into the catalogue's: what cannot be edited, and what can. */
export function editObjectError(fields: readonly string[]) {
  return (iss: z.core.$ZodRawIssue): string =>
    iss.code === 'unrecognized_keys'
      ? `"${String(iss.keys[0]).slice(0, 80)}" cannot be edited; editable fields: ${fields.join(', ')}`
      : 'Send the fields to change as a JSON object';
}

export const nothingToUpdate = (fields: readonly string[]) => ({
  message: `Nothing to update: send at least one of ${fields.join(', ')}`,
});
