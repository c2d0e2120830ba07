// The ingestion service's HTTP operations, declared once: uploads and pasted links, status, cancel,
// the Media Hub's file list, the original bytes, delete and reprocess. ingestion.routes.ts binds the
// handlers; the OpenAPI document and the frontends' types come from these declarations.
import * as z from 'zod';
import { defineOperation, wholeNumberQuery } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { ALLOWED_TYPES, MAX_FILE_BYTES } from './file-rules.ts';
import { FILE_STATUSES } from './file.repository.ts';

export const MAX_INSTRUCTIONS = 2000;
const DESTINATIONS = ['auto', 'document', 'inventory'] as const;

/** C0 control characters other than tab and newlines (Postgres text cannot hold NUL at all). */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export const instructionsField = z
  .string({ error: 'AI instructions must be text' })
  .transform((s) => s.replace(CONTROL_CHARACTERS, '').trim())
  .pipe(z.string().max(MAX_INSTRUCTIONS, `AI instructions are limited to ${MAX_INSTRUCTIONS} characters`))
  .meta({
    description: 'The "customise AI instructions" text sent with the file (at most 2,000 characters).',
  });

/** auto, document or inventory, in any case; "" or null means the default (auto). */
export const destinationField = z
  .union([z.string(), z.null()])
  .transform((v, ctx) => {
    if (v === null || v.trim() === '') return undefined;
    const d = v.trim().toLowerCase();
    if ((DESTINATIONS as readonly string[]).includes(d)) return d as (typeof DESTINATIONS)[number];
    ctx.addIssue({
      code: 'custom',
      message: `Unknown destination "${v}": choose auto, document or inventory`,
    });
    return z.NEVER;
  })
  .meta({
    description: 'Where the result goes: auto (photos become inventory items), document or inventory.',
    override: { type: 'string', enum: [...DESTINATIONS] },
  });

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

const fileId = z.string().min(1).max(200).meta({ description: 'The file id (a UUID).' });
const idParams = z.object({ id: fileId });

export const fileStatusSchema = z
  .object({
    id: z.string(),
    file_id: z.string().meta({ description: 'Same as id.' }),
    name: z.string(),
    size: z.number().int().nonnegative(),
    content_type: z.string(),
    status: z.enum(FILE_STATUSES as [string, ...string[]]),
    stage: z.string().nullable(),
    progress: z.number().min(0).max(100),
    error: z.string().nullable().meta({ description: 'Why it failed, written for the person.' }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    attempt: z.number().int().positive(),
    destination: z.enum(DESTINATIONS),
    instructions: z.string(),
    source_url: z.string().nullable(),
    result: z
      .object({ type: z.enum(['document', 'inventory_item']), id: z.string(), url: z.string() })
      .nullable()
      .meta({ description: 'What the file became, once completed.' }),
    sample: z
      .boolean()
      .meta({ description: 'Part of the first-run sample library (POST /process/samples).' }),
  })
  .meta({ id: 'FileStatus' });

const queued = fileStatusSchema
  .extend({ duplicate: z.boolean(), message: z.string() })
  .meta({ id: 'FileQueued' });
const withMessage = fileStatusSchema.extend({ message: z.string() }).meta({ id: 'FileStatusWithMessage' });

const uploadForm = z
  .object({
    file: z.string().meta({
      description: `The file (PDF, JPEG, PNG, TXT, DOC, DOCX; at most ${MAX_FILE_BYTES} bytes).`,
      format: 'binary',
      // The rules themselves, for clients that check a file before sending it (the frontends' copy
      // is generated from here: npm run generate:api)
      'x-file-rules': { maxBytes: MAX_FILE_BYTES, types: ALLOWED_TYPES },
    }),
    instructions: z.string().max(MAX_INSTRUCTIONS).optional(),
    destination: z.enum(DESTINATIONS).optional(),
    force: z
      .enum(['true', 'false'])
      .optional()
      .meta({ description: 'Process even if the same bytes were uploaded before.' }),
  })
  .meta({ id: 'UploadForm' });

const uploadResponses = {
  202: { description: 'Stored and queued for processing.', json: queued },
  200: {
    description: 'The same bytes were uploaded before: not processed again (duplicate: true).',
    json: queued,
  },
} as const;

export const processFile = defineOperation({
  operationId: 'processFile',
  method: 'post',
  path: '/process',
  service: 'ingestion',
  security: 'user',
  summary: 'Upload a file, or have a pasted link fetched, for processing',
  description:
    'multipart/form-data with the file, or JSON `{url}`: the link is fetched by the server (20 MB, the allowed types plus web pages; private and local network addresses are refused).',
  query: z.object({ force: flag.optional() }),
  body: {
    multipart: uploadForm,
    json: z.object({
      url: z
        .unknown()
        .meta({ description: 'An http(s) link to a file or a web page.', override: { type: 'string' } }),
      instructions: instructionsField.optional(),
      destination: destinationField.optional(),
      force: flag.optional(),
    }),
    limit: '64kb',
  },
  responses: uploadResponses,
  errors: [413],
});

export const uploadFile = defineOperation({
  operationId: 'uploadFile',
  method: 'post',
  path: '/upload',
  service: 'ingestion',
  security: 'user',
  summary: 'Upload a file for processing (multipart only)',
  query: z.object({ force: flag.optional() }),
  body: { multipart: uploadForm },
  responses: uploadResponses,
  errors: [413],
});

export const getFileStatus = defineOperation({
  operationId: 'getFileStatus',
  method: 'get',
  path: '/process/status/{id}',
  service: 'ingestion',
  security: 'user',
  summary: "A file's processing status",
  params: idParams,
  responses: { 200: { description: 'The status.', json: fileStatusSchema } },
});

export const cancelFile = defineOperation({
  operationId: 'cancelFile',
  method: 'post',
  path: '/process/cancel/{id}',
  service: 'ingestion',
  security: 'user',
  summary: "Cancel a file's processing",
  params: idParams,
  responses: {
    200: { description: 'Cancelled, or already ended (the message says which).', json: withMessage },
  },
});

export const listFiles = defineOperation({
  operationId: 'listFiles',
  method: 'get',
  path: '/process/files',
  service: 'ingestion',
  security: 'user',
  summary: 'The Media Hub: your files, newest first',
  query: z.object({
    page: wholeNumberQuery({ min: 1, max: 1_000_000, default: 1 }),
    limit: wholeNumberQuery({ min: 1, max: 100, default: 20 }),
    status: z
      .enum(FILE_STATUSES as [string, ...string[]], {
        error: `status must be one of ${FILE_STATUSES.join(', ')}`,
      })
      .optional(),
  }),
  responses: {
    200: {
      description: 'One page of files and the total.',
      json: z.object({ files: z.array(fileStatusSchema), total: z.number().int().nonnegative() }),
    },
  },
});

export const getFileContent = defineOperation({
  operationId: 'getFileContent',
  method: 'get',
  path: '/process/files/{id}/content',
  service: 'ingestion',
  security: 'user',
  summary: 'The original bytes: inline for previews, or a download',
  params: idParams,
  query: z.object({ download: z.enum(['1', 'true', '0', 'false']).optional() }),
  responses: {
    200: {
      description: 'The file, as its content shows it to be.',
      content: { 'application/octet-stream': {} },
      headers: { 'Content-Disposition': { description: 'inline or attachment, with the file name.' } },
    },
  },
});

export const deleteFile = defineOperation({
  operationId: 'deleteFile',
  method: 'delete',
  path: '/process/files/{id}',
  service: 'ingestion',
  security: 'user',
  summary: 'Delete a file, its bytes and everything made from it',
  params: idParams,
  responses: {
    200: { description: 'Deleted.', json: z.object({ id: z.string(), deleted: z.literal(true) }) },
  },
});

export const reprocessFile = defineOperation({
  operationId: 'reprocessFile',
  method: 'post',
  path: '/process/files/{id}/reprocess',
  service: 'ingestion',
  security: 'user',
  summary: 'Process an ended file again, optionally with new instructions or destination',
  params: idParams,
  body: {
    json: z.object({ instructions: instructionsField.optional(), destination: destinationField.optional() }),
    required: false,
    limit: '64kb',
  },
  responses: { 202: { description: 'Queued again.', json: withMessage } },
  errors: [409],
});

/** The file operations (the sample library's are in samples/samples.api.ts; index.ts joins them). */
export const fileOperations: readonly OperationSpec[] = [
  processFile,
  uploadFile,
  getFileStatus,
  cancelFile,
  listFiles,
  getFileContent,
  deleteFile,
  reprocessFile,
];
