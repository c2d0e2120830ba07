// The kaboodle operations, declared once (the contract): list, create, get, rename/describe, delete,
// add and remove members in batches, notes, reorder, export (CSV, JSON, BibTeX) and "which kaboodles
// hold this". kaboodles.routes.ts binds the handlers; the OpenAPI document comes from these.
import * as z from 'zod';
import { defineOperation } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { MAX_BATCH, MAX_MEMBERS } from './kaboodle.service.ts';

export const MAX_NAME = 100;
export const MAX_DESCRIPTION = 2000;
export const MAX_NOTE = 1000;
const MAX_QUERY = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const entityType = z.enum(['document', 'inventory_item'], {
  error: 'type must be document or inventory_item',
});
const entityId = z
  .string({ error: 'id must be a document or item id' })
  .regex(UUID, { error: 'id must be a document or item id' });

export const memberRef = z.object({ type: entityType, id: entityId }).meta({ id: 'KaboodleMemberRef' });
const noteField = z
  .string({ error: 'The note must be text' })
  .transform((s) => s.trim())
  .pipe(z.string().max(MAX_NOTE, `A note is limited to ${MAX_NOTE} characters`));
const memberInput = memberRef.extend({ note: noteField.optional() });

const nameField = z
  .string({ error: 'Kaboodle name is required' })
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, 'Kaboodle name is required')
      .max(MAX_NAME, `Kaboodle name is limited to ${MAX_NAME} characters`),
  );
const descriptionField = z
  .string({ error: 'The description must be text' })
  .transform((s) => s.trim())
  .pipe(z.string().max(MAX_DESCRIPTION, `The description is limited to ${MAX_DESCRIPTION} characters`));

export const smartInput = z
  .object({
    query: z
      .string({ error: 'Search query is required' })
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1, 'Search query is required')
          .max(MAX_QUERY, `Search query is too long (max ${MAX_QUERY} characters)`),
      ),
    search_type: z
      .enum(['semantic', 'keyword', 'hybrid'], { error: 'search_type must be semantic, keyword or hybrid' })
      .default('semantic'),
    types: z.array(entityType).max(2).default([]),
    category: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().max(200))
      .nullable()
      .optional(),
    kaboodle_id: z
      .string({ error: 'kaboodle_id must be a kaboodle id' })
      .regex(UUID, { error: 'kaboodle_id must be a kaboodle id' })
      .nullable()
      .optional()
      .meta({ description: 'Search only within this kaboodle of yours (one with its own members).' }),
  })
  .meta({
    id: 'SmartSearch',
    description: 'A saved search: the kaboodle holds whatever matches it now (at most 100, best first).',
  });

// Any text: an id that names nothing answers 404 like another user's, never a 400 that tells them apart.
const idParams = z.object({ id: z.string().min(1).max(200) });

const cover = z
  .object({
    type: entityType,
    id: z.string(),
    title: z.string(),
    image_url: z.string().nullable().meta({ description: "An item's picture; null for a document." }),
    excerpt: z.string().meta({ description: "The start of a document's text (its first page)." }),
  })
  .nullable()
  .meta({ id: 'KaboodleCover' });

const smartOut = z.object({
  query: z.string(),
  search_type: z.enum(['semantic', 'keyword', 'hybrid']),
  types: z.array(entityType),
  category: z.string().nullable(),
  kaboodle_id: z.string().nullable().meta({ description: 'The kaboodle it searches within, if any.' }),
});

export const kaboodleSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    smart: smartOut.nullable(),
    member_count: z.number().int().nonnegative(),
    document_count: z.number().int().nonnegative(),
    item_count: z.number().int().nonnegative(),
    cover,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    version: z.number().int(),
  })
  .meta({ id: 'KaboodleSummary' });

export const kaboodleMember = z
  .object({
    type: entityType,
    id: z.string(),
    title: z.string(),
    subtitle: z.string().meta({ description: 'Author (documents) or material (items).' }),
    category: z.string(),
    summary: z.string(),
    year: z.number().int().nullable(),
    hashtags: z.array(z.string()),
    image_url: z.string().nullable(),
    file_url: z.string().nullable().meta({ description: "A document's original file." }),
    link: z.string().meta({ description: 'The page that shows it in the web app.' }),
    retail_price: z.number().nullable(),
    note: z.string(),
    added_at: z.iso.datetime().nullable(),
    position: z.number().int(),
    score: z.number().optional().meta({ description: 'Smart kaboodles: how well it matches.' }),
  })
  .meta({ id: 'KaboodleMember' });

export const kaboodleDetail = kaboodleSummary
  .extend({ members: z.array(kaboodleMember) })
  .meta({ id: 'Kaboodle' });

const service = 'catalogue';

export const listKaboodles = defineOperation({
  operationId: 'listKaboodles',
  method: 'get',
  path: '/api/kaboodles',
  service,
  security: 'user',
  summary: "The user's kaboodles, most recently changed first",
  responses: { 200: { description: 'Cards.', json: z.object({ kaboodles: z.array(kaboodleSummary) }) } },
});

export const createKaboodle = defineOperation({
  operationId: 'createKaboodle',
  method: 'post',
  path: '/api/kaboodles',
  service,
  security: 'user',
  summary: 'Create a kaboodle, optionally with its first members, or a smart one from a search',
  body: {
    json: z.object({
      name: nameField,
      description: descriptionField.default(''),
      members: z
        .array(memberInput)
        .max(MAX_BATCH, `Add at most ${MAX_BATCH} documents and items at a time`)
        .default([]),
      smart: smartInput.nullable().optional(),
    }),
    limit: '256kb',
  },
  responses: { 201: { description: 'Created.', json: kaboodleDetail } },
  errors: [404, 409],
});

export const getKaboodle = defineOperation({
  operationId: 'getKaboodle',
  method: 'get',
  path: '/api/kaboodles/{id}',
  service,
  security: 'user',
  summary: 'A kaboodle with its members in order (a smart one: its search’s current results)',
  params: idParams,
  responses: { 200: { description: 'The kaboodle.', json: kaboodleDetail } },
});

export const updateKaboodle = defineOperation({
  operationId: 'updateKaboodle',
  method: 'patch',
  path: '/api/kaboodles/{id}',
  service,
  security: 'user',
  summary: 'Rename, describe, choose the cover, or change a smart kaboodle’s search',
  params: idParams,
  body: {
    json: z
      .object({
        name: nameField.optional(),
        description: descriptionField.optional(),
        cover: memberRef.nullable().optional(),
        smart: smartInput.optional(),
      })
      .strict(),
    limit: '64kb',
  },
  responses: { 200: { description: 'The kaboodle after the change.', json: kaboodleDetail } },
  errors: [409],
});

export const deleteKaboodle = defineOperation({
  operationId: 'deleteKaboodle',
  method: 'delete',
  path: '/api/kaboodles/{id}',
  service,
  security: 'user',
  summary: 'Delete a kaboodle (its documents and items stay in the library)',
  params: idParams,
  responses: { 204: { description: 'Deleted.' } },
});

const batch = z.object({
  members: z
    .array(memberInput)
    .min(1, 'Choose at least one document or item')
    .max(MAX_BATCH, `Add or remove at most ${MAX_BATCH} documents and items at a time`),
});

export const addKaboodleMembers = defineOperation({
  operationId: 'addKaboodleMembers',
  method: 'post',
  path: '/api/kaboodles/{id}/members',
  service,
  security: 'user',
  summary: `Add documents and items (at most ${MAX_BATCH} at a time, ${MAX_MEMBERS} in all)`,
  description:
    'All or nothing: when any of them is not yours (or does not exist) nothing is added and the 404 lists them. Those already in the kaboodle are counted in `already`.',
  params: idParams,
  body: { json: batch, limit: '256kb' },
  responses: {
    200: {
      description: 'What changed, and the kaboodle after it.',
      json: z.object({ added: z.number().int(), already: z.number().int(), kaboodle: kaboodleDetail }),
    },
  },
  errors: [409],
});

export const removeKaboodleMembers = defineOperation({
  operationId: 'removeKaboodleMembers',
  method: 'post',
  path: '/api/kaboodles/{id}/members/remove',
  service,
  security: 'user',
  summary: 'Remove documents and items from a kaboodle (they stay in the library)',
  params: idParams,
  body: { json: batch, limit: '256kb' },
  responses: {
    200: {
      description: 'How many were removed, and the kaboodle after it.',
      json: z.object({ removed: z.number().int(), kaboodle: kaboodleDetail }),
    },
  },
  errors: [409],
});

export const setKaboodleMemberNote = defineOperation({
  operationId: 'setKaboodleMemberNote',
  method: 'put',
  path: '/api/kaboodles/{id}/members/{type}/{entityId}/note',
  service,
  security: 'user',
  summary: "Write or clear a member's note",
  params: z.object({ id: idParams.shape.id, type: entityType, entityId }),
  body: { json: z.object({ note: noteField }), limit: '16kb' },
  responses: { 200: { description: 'The kaboodle after the change.', json: kaboodleDetail } },
  errors: [409],
});

export const reorderKaboodle = defineOperation({
  operationId: 'reorderKaboodle',
  method: 'put',
  path: '/api/kaboodles/{id}/order',
  service,
  security: 'user',
  summary: 'Put the members in a new order (every member exactly once)',
  params: idParams,
  body: {
    json: z.object({ members: z.array(memberRef).max(MAX_MEMBERS) }),
    limit: '512kb',
  },
  responses: { 200: { description: 'The kaboodle in its new order.', json: kaboodleDetail } },
  errors: [409],
});

export const exportKaboodle = defineOperation({
  operationId: 'exportKaboodle',
  method: 'get',
  path: '/api/kaboodles/{id}/export',
  service,
  security: 'user',
  summary: 'Download a kaboodle: CSV or JSON of every member, or BibTeX of its documents',
  params: idParams,
  query: z.object({
    format: z.enum(['csv', 'json', 'bibtex'], { error: 'format must be csv, json or bibtex' }).default('csv'),
    bom: z
      .enum(['0', '1', 'true', 'false'])
      .optional()
      .meta({ description: 'CSV: start with a UTF-8 BOM (Excel).' }),
  }),
  responses: {
    200: {
      description: 'An attachment named after the kaboodle.',
      content: { 'text/csv': {}, 'application/json': {}, 'application/x-bibtex': {} },
      headers: { 'Content-Disposition': { description: 'attachment; filename=…' } },
    },
  },
});

export const kaboodlesContaining = defineOperation({
  operationId: 'kaboodlesContaining',
  method: 'get',
  path: '/api/kaboodles/containing',
  service,
  security: 'user',
  summary: 'The kaboodles a document or item is in',
  query: memberRef,
  responses: {
    200: {
      description: 'Their ids and names.',
      json: z.object({ kaboodles: z.array(z.object({ id: z.string(), name: z.string() })) }),
    },
  },
});

export const kaboodleOperations: readonly OperationSpec[] = [
  listKaboodles,
  createKaboodle,
  kaboodlesContaining,
  getKaboodle,
  updateKaboodle,
  deleteKaboodle,
  addKaboodleMembers,
  removeKaboodleMembers,
  setKaboodleMemberNote,
  reorderKaboodle,
  exportKaboodle,
];
