// The search service's HTTP operations, declared once: unified search, the vault's semantic search,
// related items, near-duplicates, the graph's similarity edges and the admin rebuild. search.routes.ts
// binds the handlers; the OpenAPI document and the frontends' types come from these declarations.
import * as z from 'zod';
import { defineOperation, errorBodySchema } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { GOOD_MATCH } from './ranking.ts';
import { BUSY_RETRY_AFTER_SECONDS, SEARCH_BUSY } from './search-admission.ts';
import {
  documentSearchBody,
  ENTITY_TYPES,
  entityQuery,
  neighboursBody,
  searchBody,
} from './search-request.ts';

/** A search hit's match: `weak` below the calibrated threshold, so a weak top hit is not shown as a match. */
export const matchSchema = z.enum(['good', 'weak']).meta({
  id: 'SearchMatch',
  description: `\`weak\` when the score is below ${GOOD_MATCH} (searches only): no good match.`,
});

/** The unified search result (docs/product.md#data): documents carry `title`, inventory items `name`. */
export const searchResultSchema = z
  .object({
    type: z.enum(ENTITY_TYPES),
    id: z.string(),
    title: z.string().meta({ description: "The document's title ('' for inventory items)." }),
    name: z.string().meta({ description: "The inventory item's name ('' for documents)." }),
    description: z.string().meta({ description: "The document's summary or the item's description." }),
    content: z.string().meta({ description: 'The start of the extracted text.' }),
    url: z.string().meta({ description: "The document's file ('' for inventory items)." }),
    image_url: z.string().meta({ description: "The item's photo ('' for documents)." }),
    score: z.number().min(0).max(1).meta({
      description:
        'Search: the calibrated probability that this is what was searched for (the same for every query and mode). Related and duplicates: the similarity.',
    }),
    match: matchSchema.optional(),
    category: z.string(),
    hashtags: z.array(z.string()),
    excerpt: z.string().optional().meta({ description: 'The best-matching passage, when there is one.' }),
  })
  .meta({ id: 'SearchResult' });

export const documentSearchResultSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    excerpt: z.string().meta({ description: "The passage that matched best ('' when none)." }),
    score: z.number().min(0).max(1).meta({ description: 'The calibrated probability of a match.' }),
    match: matchSchema,
    url: z.string(),
  })
  .meta({ id: 'DocumentSearchResult' });

export const similarityEdgeSchema = z
  .object({ source: z.string(), target: z.string(), similarity: z.number().min(0).max(1) })
  .meta({ id: 'SimilarityEdge' });

export const rebuildStatusSchema = z
  .object({
    running: z.boolean(),
    started_at: z.iso.datetime().nullable(),
    finished_at: z.iso.datetime().nullable(),
    read: z
      .number()
      .int()
      .nonnegative()
      .meta({ description: 'Entities and kaboodles read from the catalogue.' }),
    applied: z.number().int().nonnegative(),
    stale: z.number().int().nonnegative().meta({ description: 'Already indexed at that version or newer.' }),
    skipped: z.number().int().nonnegative().meta({ description: 'Not indexable.' }),
    removed: z
      .number()
      .int()
      .nonnegative()
      .meta({ description: 'Entities and kaboodles no longer in the catalogue.' }),
    error: z.string().nullable(),
  })
  .meta({ id: 'RebuildStatus' });

/** Default result counts when no limit is sent. */
export const RELATED_LIMIT = 10;
export const DUPLICATES_LIMIT = 20;

const results = z.object({ results: z.array(searchResultSchema) });

/** Past SEARCH_MAX_CONCURRENT + SEARCH_MAX_QUEUED searches: refused at once (search-admission.ts). */
export const BUSY = {
  description: `"${SEARCH_BUSY}" (too many searches running and waiting), or an engine search needs is not answering.`,
  json: errorBodySchema,
  headers: {
    'Retry-After': {
      description: `Seconds to wait before trying again (${BUSY_RETRY_AFTER_SECONDS} when searches are busy).`,
    },
  },
};

const TIMING_HEADERS = {
  'Server-Timing': { description: 'Where the time went: embed, index and total (ms).' },
  'X-Search-Degraded': {
    description: '`keyword` when the query could not be embedded and keyword results stand in.',
  },
  'X-Search-Cache': { description: '`hit` when served from the recent-results cache.' },
};

export const search = defineOperation({
  operationId: 'search',
  method: 'post',
  path: '/api/search',
  service: 'search',
  security: 'user',
  summary: 'Search your documents and inventory items',
  description:
    'Only your own entities are ever searched; with `kaboodle`, only that kaboodle’s members (404 "Kaboodle not found" when you have none by that id).',
  body: { json: searchBody, required: false, limit: '100kb' },
  responses: {
    503: BUSY,
    200: { description: 'The best matches, best first.', json: results, headers: TIMING_HEADERS },
  },
  errors: [404],
});

export const searchDocumentsSemantic = defineOperation({
  operationId: 'searchDocumentsSemantic',
  method: 'post',
  path: '/api/documents/search',
  service: 'search',
  security: 'user',
  summary: "The vault's semantic search: documents with the passage that matched",
  body: { json: documentSearchBody, required: false, limit: '100kb' },
  responses: {
    503: BUSY,
    200: {
      description: 'The best matching documents, best first.',
      json: z.object({ results: z.array(documentSearchResultSchema) }),
      headers: TIMING_HEADERS,
    },
  },
});

export const relatedEntities = defineOperation({
  operationId: 'relatedEntities',
  method: 'get',
  path: '/api/search/related',
  service: 'search',
  security: 'user',
  summary: 'Entities close in meaning to one of yours',
  query: entityQuery(RELATED_LIMIT),
  responses: {
    503: BUSY,
    200: { description: 'The closest first.', json: results },
  },
  errors: [404],
});

export const duplicateEntities = defineOperation({
  operationId: 'duplicateEntities',
  method: 'get',
  path: '/api/search/duplicates',
  service: 'search',
  security: 'user',
  summary: 'Near-duplicates of one of your entities',
  query: entityQuery(DUPLICATES_LIMIT),
  responses: {
    503: BUSY,
    200: { description: 'The closest first.', json: results },
  },
  errors: [404],
});

export const documentNeighbours = defineOperation({
  operationId: 'documentNeighbours',
  method: 'post',
  path: '/api/search/neighbours',
  service: 'search',
  security: 'user',
  summary: "The graph view's similarity edges between the documents shown",
  body: { json: neighboursBody, required: false, limit: '100kb' },
  responses: {
    503: BUSY,
    200: {
      description: 'Each document linked to its nearest neighbours among the ones given.',
      json: z.object({ edges: z.array(similarityEdgeSchema) }),
    },
  },
});

export const startRebuild = defineOperation({
  operationId: 'startRebuild',
  method: 'post',
  path: '/api/search/admin/rebuild',
  service: 'search',
  security: 'admin',
  summary: 'Rebuild the search index from the catalogue (admins)',
  description: 'Answers at once and runs in the background; GET follows it.',
  responses: { 202: { description: 'Started.', json: rebuildStatusSchema } },
  errors: [409],
});

export const getRebuild = defineOperation({
  operationId: 'getRebuild',
  method: 'get',
  path: '/api/search/admin/rebuild',
  service: 'search',
  security: 'admin',
  summary: 'How the last index rebuild went (admins)',
  responses: { 200: { description: 'The running or last rebuild.', json: rebuildStatusSchema } },
});

export const searchOperations: readonly OperationSpec[] = [
  search,
  searchDocumentsSemantic,
  relatedEntities,
  duplicateEntities,
  documentNeighbours,
  startRebuild,
  getRebuild,
];
