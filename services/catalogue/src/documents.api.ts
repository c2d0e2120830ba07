// The vault's HTTP operations, declared once: the list (sort, filter, X-Total-Count), keyword search,
// categories, the streamed export, one document (read, correct, delete) and its original file.
// documents.routes.ts binds the handlers; the OpenAPI document and the frontends' types come from here.
import * as z from 'zod';
import { defineOperation } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { DOCUMENT_FIELDS } from './catalogue-model.ts';
import type { DocumentFields } from './catalogue-model.ts';
import {
  categoryQuery,
  editObjectError,
  entityIdParams,
  keywordOf,
  keywordQueries,
  limitQuery,
  normaliseTag,
  nothingToUpdate,
  onceQuery,
  pageQuery,
  provenanceSchema,
  tagSchema,
  tagsEdit,
  textEdit,
  withoutControls,
} from './catalogue-fields.ts';
import { DOCUMENT_SORTS } from './document.repository.ts';
import type { DocumentSort } from './document.repository.ts';

const SORT_NAMES = Object.keys(DOCUMENT_SORTS) as DocumentSort[];
const SHORT = 500;
const LONG = 10_000;

// ---- the Document ------------------------------------------------------------------------------

/** The document fields (docs/product.md#data): what the AI found, with the user's corrections written in. */
const documentFieldsShape = {
  title: z.string(),
  author: z.string(),
  category: z.string(),
  field: z.string(),
  publication_year: z.number().int().nullable(),
  summary: z.string(),
  thesis: z.string(),
  issue: z.string(),
  journal_publisher: z.string(),
  influenced_by: z.array(z.string()),
  hashtags: z.array(tagSchema),
} satisfies Record<keyof DocumentFields, z.ZodType>;

export const documentSchema = z
  .strictObject({
    id: z.string().meta({ description: 'The document id: the id of the file it was made from.' }),
    ...documentFieldsShape,
    status: z.literal('processed'),
    indexed: z.literal(true),
    source_file_id: z.string().nullable(),
    file_name: z.string(),
    content_type: z.string(),
    size: z.number().int().nonnegative().meta({ description: 'Bytes of the original file.' }),
    url: z.string().meta({ description: 'The original file: `/api/documents/{id}/file`.' }),
    corrected_fields: z.array(z.enum(DOCUMENT_FIELDS)).meta({ description: 'Fields the user corrected.' }),
    sample: z.boolean().meta({ description: 'Made from the first-run sample library.' }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    version: z.number().int().positive().meta({ description: 'Grows with every change.' }),
  })
  .meta({ id: 'Document' });

export const documentDetailSchema = documentSchema
  .extend({
    text: z.string().meta({ description: 'The extracted text.' }),
    page_count: z.number().int().nonnegative(),
    language: z.string(),
    provenance: z
      .record(z.string(), provenanceSchema)
      .meta({ description: 'Per field: how sure, and where the value came from.' }),
  })
  .meta({ id: 'DocumentDetail' });

// ---- inputs ------------------------------------------------------------------------------------

const sortQuery = onceQuery('sort')
  .transform((raw, ctx): DocumentSort | undefined => {
    const sort = raw?.trim();
    if (!sort) return undefined;
    if ((SORT_NAMES as string[]).includes(sort)) return sort as DocumentSort;
    ctx.addIssue({ code: 'custom', message: `sort must be one of ${SORT_NAMES.join(', ')}` });
    return z.NEVER;
  })
  .meta({
    description: 'The column to sort by. Text sorts ignore case; a missing year counts as 0.',
    override: { type: 'string', enum: SORT_NAMES },
  });

const orderQuery = onceQuery('order')
  .transform((raw, ctx): 'asc' | 'desc' | undefined => {
    const order = raw?.trim().toLowerCase();
    if (!order) return undefined;
    if (order === 'asc' || order === 'desc') return order;
    ctx.addIssue({ code: 'custom', message: 'order must be asc or desc' });
    return z.NEVER;
  })
  .meta({
    description: 'asc or desc (any case): a chosen column starts ascending; no column means newest first.',
    override: { type: 'string', enum: ['asc', 'desc'] },
  });

const hashtagFilter = (name: string) =>
  onceQuery(name)
    .transform((raw, ctx): string | undefined => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const tag = normaliseTag(raw);
      if (tag) return tag;
      ctx.addIssue({ code: 'custom', message: 'hashtag needs at least one letter or digit' });
      return z.NEVER;
    })
    .meta({ override: { type: 'string' } });

/** The filters and sort every listing takes (the export too). */
const filterShape = {
  ...keywordQueries,
  category: categoryQuery,
  hashtag: hashtagFilter('hashtag').meta({
    description: 'Only documents carrying this tag (`#Glass Beads` and `glass-beads` are the same).',
  }),
  tag: hashtagFilter('tag').meta({ description: 'Short form of `hashtag`.' }),
  sort: sortQuery,
  order: orderQuery,
};

const listQuery = z.object({ ...filterShape, page: pageQuery, limit: limitQuery });

const searchQuery = listQuery.superRefine((q, ctx) => {
  if (!keywordOf(q)) ctx.addIssue({ code: 'custom', path: ['query'], message: 'Search query is required' });
});

/** The repository's filter from a validated query: a chosen column starts ascending. */
export function documentFilterOf(q: z.output<z.ZodObject<typeof filterShape>>) {
  return {
    query: keywordOf(q),
    category: q.category,
    hashtag: q.hashtag ?? q.tag,
    sort: q.sort ?? 'created_at',
    order: q.order ?? (q.sort ? 'asc' : 'desc'),
  } as const;
}

const exportQuery = z.object({
  format: onceQuery('format')
    .transform((raw, ctx): 'csv' | 'json' => {
      const format = (raw ?? 'csv').trim().toLowerCase();
      if (format === 'csv' || format === 'json') return format;
      ctx.addIssue({ code: 'custom', message: 'format must be csv or json' });
      return z.NEVER;
    })
    .meta({ override: { type: 'string', enum: ['csv', 'json'], default: 'csv' } }),
  bom: onceQuery('bom')
    .transform((raw, ctx): boolean => {
      const bom = (raw ?? '0').trim().toLowerCase();
      if (['0', '1', 'true', 'false', ''].includes(bom)) return bom === '1' || bom === 'true';
      ctx.addIssue({ code: 'custom', message: 'bom must be 1 or 0' });
      return z.NEVER;
    })
    .meta({
      description: 'Start the CSV with a UTF-8 byte order mark (for spreadsheet programs).',
      override: { type: 'string', enum: ['0', '1', 'true', 'false'], default: '0' },
    }),
  ...filterShape,
});

const YEAR_MESSAGE = 'publication_year must be a whole year from 0 to 9999, or null';
const INFLUENCES_MESSAGE = 'influenced_by must be a list of up to 100 names';

/** PATCH: any of the document fields; each one sent is recorded as the user's correction. */
export const documentPatchSchema = z
  .strictObject(
    {
      title: textEdit('title', SHORT, true),
      author: textEdit('author', SHORT),
      category: textEdit('category', SHORT),
      field: textEdit('field', SHORT),
      publication_year: z
        .number({ error: YEAR_MESSAGE })
        .int({ error: YEAR_MESSAGE })
        .min(0, { error: YEAR_MESSAGE })
        .max(9999, { error: YEAR_MESSAGE })
        .nullable(),
      summary: textEdit('summary', LONG),
      thesis: textEdit('thesis', LONG),
      issue: textEdit('issue', LONG),
      journal_publisher: textEdit('journal_publisher', SHORT),
      influenced_by: z
        .array(z.string({ error: INFLUENCES_MESSAGE }).meta({ maxLength: 300 }), {
          error: INFLUENCES_MESSAGE,
        })
        .max(100, { error: INFLUENCES_MESSAGE })
        .transform((names) => names.map((x) => withoutControls(x).trim()).filter(Boolean))
        .refine(
          (names) => names.every((x) => x.length <= 300),
          'An influence is too long (max 300 characters)',
        )
        .transform((names) => [...new Set(names)])
        .meta({ description: 'Names, trimmed; repeats kept once.' }),
      hashtags: tagsEdit,
    } satisfies Record<keyof DocumentFields, z.ZodType>,
    { error: editObjectError(DOCUMENT_FIELDS) },
  )
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, nothingToUpdate(DOCUMENT_FIELDS))
  .meta({ id: 'DocumentPatch', minProperties: 1 });

// ---- operations --------------------------------------------------------------------------------

const TOTAL = { 'X-Total-Count': { description: 'How many match in all (every page).' } };

export const listDocuments = defineOperation({
  operationId: 'listDocuments',
  method: 'get',
  path: '/api/documents',
  service: 'catalogue',
  security: 'user',
  summary: 'Your documents: one page, sorted and filtered',
  query: listQuery,
  responses: {
    200: { description: 'One page of documents.', json: z.array(documentSchema), headers: TOTAL },
  },
});

export const searchDocumentsByKeyword = defineOperation({
  operationId: 'searchDocumentsByKeyword',
  method: 'get',
  path: '/api/documents/search',
  service: 'catalogue',
  security: 'user',
  summary: 'Your documents containing a keyword in any field',
  description: 'The same filters as the list; `query` (or `q`) is required.',
  query: searchQuery,
  responses: {
    200: { description: 'One page of matches.', json: z.array(documentSchema), headers: TOTAL },
  },
});

export const listDocumentCategories = defineOperation({
  operationId: 'listDocumentCategories',
  method: 'get',
  path: '/api/documents/categories',
  service: 'catalogue',
  security: 'user',
  summary: 'The categories of your documents, with how many each',
  responses: {
    200: {
      description: 'Sorted by name, ignoring case.',
      json: z.strictObject({
        categories: z.array(z.strictObject({ name: z.string(), count: z.number().int().positive() })),
      }),
    },
  },
});

export const exportDocuments = defineOperation({
  operationId: 'exportDocuments',
  method: 'get',
  path: '/api/documents/export',
  service: 'catalogue',
  security: 'user',
  summary: 'Download your documents as CSV or JSON (with the list filters)',
  description:
    'Streamed, at most CATALOGUE_EXPORT_MAX_ROWS rows. CSV cells starting with = + - @, tab or CR get a leading apostrophe.',
  query: exportQuery,
  responses: {
    200: {
      description: 'An attachment named kaboodle-documents-<date>.csv or .json.',
      content: { 'text/csv': {}, 'application/json': { schema: z.array(documentSchema) } },
      headers: {
        ...TOTAL,
        'Content-Disposition': { description: 'attachment; the file name.' },
        'X-Export-Truncated': { description: 'Set to the row limit when more documents matched.' },
      },
    },
  },
});

export const getDocument = defineOperation({
  operationId: 'getDocument',
  method: 'get',
  path: '/api/documents/{id}',
  service: 'catalogue',
  security: 'user',
  summary: 'One document, with its text and where each field came from',
  params: entityIdParams,
  responses: { 200: { description: 'The document.', json: documentDetailSchema } },
});

export const updateDocument = defineOperation({
  operationId: 'updateDocument',
  method: 'patch',
  path: '/api/documents/{id}',
  service: 'catalogue',
  security: 'user',
  summary: "Correct a document's fields",
  description:
    'The corrections are kept apart from the analysis and win over it, also after a reprocess. Another user’s id answers 404 before the body is looked at.',
  params: entityIdParams,
  body: { json: documentPatchSchema, limit: '100kb' },
  responses: { 200: { description: 'The document as corrected.', json: documentDetailSchema } },
});

export const deleteDocument = defineOperation({
  operationId: 'deleteDocument',
  method: 'delete',
  path: '/api/documents/{id}',
  service: 'catalogue',
  security: 'user',
  summary: 'Delete a document (the uploaded file stays in the Media Hub)',
  params: entityIdParams,
  responses: { 204: { description: 'Deleted.' } },
});

export const getDocumentFile = defineOperation({
  operationId: 'getDocumentFile',
  method: 'get',
  path: '/api/documents/{id}/file',
  service: 'catalogue',
  security: 'user',
  summary: "A document's original file, as a download",
  params: entityIdParams,
  responses: {
    200: {
      description: 'The bytes as uploaded.',
      content: { 'application/octet-stream': {} },
      headers: { 'Content-Disposition': { description: 'attachment; the file name.' } },
    },
  },
});

export const documentOperations: readonly OperationSpec[] = [
  listDocuments,
  searchDocumentsByKeyword,
  listDocumentCategories,
  exportDocuments,
  getDocument,
  updateDocument,
  deleteDocument,
  getDocumentFile,
];
