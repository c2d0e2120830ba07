// The insights operations, declared once: the observatory's overview (library counts, trends,
// recommendations, near-duplicates, diagnostics), trends alone, recommendations for a page, and the
// near-duplicate review with dismiss and merge.
import * as z from 'zod';
import { defineOperation, wholeNumberQuery } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { memberRef } from './kaboodle.api.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const entityType = z.enum(['document', 'inventory_item']);

/** `document:<id>,inventory_item:<id>` (at most 20): pages say what they show. */
const refList = z
  .string()
  .max(2000)
  .optional()
  .transform((v, ctx) => {
    if (!v) return [];
    const refs = v
      .split(',')
      .filter(Boolean)
      .map((part) => {
        const [type, id] = part.split(':');
        return { type, id };
      });
    if (
      refs.length > 20 ||
      refs.some((r) => (r.type !== 'document' && r.type !== 'inventory_item') || !UUID.test(r.id ?? ''))
    ) {
      ctx.addIssue({
        code: 'custom',
        message: 'List at most 20 references as document:<id> or inventory_item:<id>, comma separated',
      });
      return z.NEVER;
    }
    return refs as { type: 'document' | 'inventory_item'; id: string }[];
  })
  .meta({
    override: { type: 'string' },
    description: 'document:<id> or inventory_item:<id>, comma separated (≤ 20).',
  });

const periodQuery = {
  period: z.enum(['week', 'month'], { error: 'period must be week or month' }).default('week'),
  periods: wholeNumberQuery({ min: 2, max: 52, default: 12 }),
};

const entity = z
  .object({
    type: entityType,
    id: z.string(),
    title: z.string(),
    subtitle: z.string(),
    category: z.string(),
    summary: z.string(),
    hashtags: z.array(z.string()),
    image_url: z.string().nullable(),
    link: z.string(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'InsightEntity' });

const trendSeries = z.object({
  key: z.string(),
  total: z.number().int(),
  counts: z.array(z.number().int()),
  documents: z.number().int(),
  items: z.number().int(),
  direction: z.enum(['rising', 'falling', 'steady']),
  change: z.number().meta({ description: 'Recent periods against earlier ones, in [-1, 1].' }),
});

export const trendsSchema = z
  .object({
    period: z.enum(['week', 'month']),
    buckets: z.array(z.iso.datetime()),
    hashtags: z.array(trendSeries),
    categories: z.array(trendSeries),
    rising: z.array(z.string()),
    falling: z.array(z.string()),
  })
  .meta({ id: 'Trends' });

const recommendationsSchema = z
  .object({
    available: z.boolean().meta({ description: 'False when the search service cannot be reached.' }),
    items: z.array(
      z.object({
        entity,
        score: z.number(),
        because: z.object({ type: entityType, id: z.string(), title: z.string() }),
      }),
    ),
  })
  .meta({ id: 'Recommendations' });

const duplicatesSchema = z
  .object({
    available: z.boolean(),
    pairs: z.array(
      z.object({
        a: entity,
        b: entity,
        similarity: z.number(),
        reason: z.enum(['identical_file', 'similar_content']),
      }),
    ),
  })
  .meta({ id: 'NearDuplicates' });

const libraryCounts = z.object({
  documents: z.number().int(),
  document_categories: z.number().int(),
  inventory_items: z.number().int(),
  images: z.number().int(),
  images_analysed: z.number().int(),
  image_types: z.number().int(),
  kaboodles: z.number().int(),
  files_waiting: z.number().int(),
  files_waiting_images: z.number().int(),
  files_completed: z.number().int(),
  files_failed: z.number().int(),
  oldest_waiting_ms: z.number().int(),
  recent_processing_ms: z.number().int().nullable(),
});

const diagnostics = z.object({
  processing: z.object({
    processed_share: z.number().nullable(),
    files_waiting: z.number().int(),
    files_completed: z.number().int(),
    files_failed: z.number().int(),
    pipeline_lag_ms: z.number().int().meta({ description: 'How long the oldest waiting file has waited.' }),
    recent_processing_ms: z.number().int().nullable(),
  }),
  index: z.object({ entities: z.number().int(), size_bytes: z.number() }).nullable(),
  memory: z.object({
    rss_bytes: z.number(),
    heap_used_bytes: z.number(),
    system_total_bytes: z.number(),
    share: z.number(),
  }),
});

const service = 'catalogue';

export const getInsights = defineOperation({
  operationId: 'getInsights',
  method: 'get',
  path: '/api/insights',
  service,
  security: 'user',
  summary:
    'Everything the observatory shows: library counts, trends, recommendations, near-duplicates, diagnostics',
  query: z.object({ ...periodQuery, context: refList, exclude: refList }),
  responses: {
    200: {
      description: 'The overview.',
      json: z
        .object({
          generated_at: z.iso.datetime(),
          library: libraryCounts,
          trends: trendsSchema,
          recommendations: recommendationsSchema,
          duplicates: duplicatesSchema,
          diagnostics,
        })
        .meta({ id: 'Insights' }),
    },
  },
});

export const getTrends = defineOperation({
  operationId: 'getTrends',
  method: 'get',
  path: '/api/insights/trends',
  service,
  security: 'user',
  summary: 'Hashtag and category counts per week or month, each rising, falling or steady',
  query: z.object(periodQuery),
  responses: { 200: { description: 'The series.', json: trendsSchema } },
});

export const getRecommendations = defineOperation({
  operationId: 'getRecommendations',
  method: 'get',
  path: '/api/insights/recommendations',
  service,
  security: 'user',
  summary: '"You may also want": near what the user opened (context) or added lately, minus what is in view',
  query: z.object({
    context: refList,
    exclude: refList,
    limit: wholeNumberQuery({ min: 1, max: 24, default: 6 }),
  }),
  responses: { 200: { description: 'Recommendations.', json: recommendationsSchema } },
});

export const getDuplicates = defineOperation({
  operationId: 'getDuplicates',
  method: 'get',
  path: '/api/insights/duplicates',
  service,
  security: 'user',
  summary: 'Near-duplicate documents and items to review (dismissed pairs left out)',
  responses: { 200: { description: 'Pairs, most alike first.', json: duplicatesSchema } },
});

const pair = z.object({ a: memberRef, b: memberRef });

export const dismissDuplicate = defineOperation({
  operationId: 'dismissDuplicate',
  method: 'post',
  path: '/api/insights/duplicates/dismiss',
  service,
  security: 'user',
  summary: 'Not duplicates: leave this pair out of the review from now on',
  body: { json: pair, limit: '8kb' },
  responses: { 204: { description: 'Dismissed.' } },
  errors: [404],
});

export const mergeDuplicate = defineOperation({
  operationId: 'mergeDuplicate',
  method: 'post',
  path: '/api/insights/duplicates/merge',
  service,
  security: 'user',
  summary: "Keep one, move the other's kaboodle memberships to it, and delete the other",
  description:
    "The removed one's uploaded file stays in the Media Hub; `removed_file_id` names it, for `DELETE /process/files/{id}` when the user asked for the file to go too.",
  body: { json: z.object({ keep: memberRef, remove: memberRef }), limit: '8kb' },
  responses: {
    200: {
      description: 'Merged.',
      json: z.object({ kept: memberRef, removed: memberRef, removed_file_id: z.string().nullable() }),
    },
  },
  errors: [404],
});

export const insightsOperations: readonly OperationSpec[] = [
  getInsights,
  getTrends,
  getRecommendations,
  getDuplicates,
  dismissDuplicate,
  mergeDuplicate,
];
