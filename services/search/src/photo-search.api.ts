// The photo search operations, declared once: find items by a photo (the photo is the request
// body), and the items whose photos look like one item's (the item page's "looks like").
import * as z from 'zod';
import { defineOperation, wholeNumberQuery } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { BUSY } from './search.api.ts';

export const MAX_PHOTO_BYTES = 20 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png'] as const;

export const photoHitSchema = z
  .object({
    type: z.enum(['document', 'inventory_item']),
    id: z.string(),
    title: z.string(),
    name: z.string(),
    description: z.string(),
    content: z.string(),
    url: z.string(),
    image_url: z.string(),
    score: z.number().min(0).max(1).meta({ description: 'Cosine similarity of the two photos.' }),
    category: z.string(),
    hashtags: z.array(z.string()),
  })
  .meta({ id: 'PhotoMatch' });

export const findByPhoto = defineOperation({
  operationId: 'findByPhoto',
  method: 'post',
  path: '/api/search/by-photo',
  service: 'search',
  security: 'user',
  summary: 'Your items ranked by how much their photos look like this one',
  description:
    'Send the photo as the body (Content-Type image/jpeg or image/png) or as the `photo` file of a multipart form; at most 20 MB. Only your own items are compared.',
  query: z.object({ limit: wholeNumberQuery({ min: 1, max: 50, default: 20 }) }),
  body: {
    multipart: z.object({
      photo: z.string().meta({ description: 'A JPEG or PNG photo.', format: 'binary' }),
    }),
  },
  responses: {
    200: {
      description: 'The best matches first.',
      json: z.object({ results: z.array(photoHitSchema), model: z.string() }),
      headers: { 'Server-Timing': { description: 'embed, index and total milliseconds.' } },
    },
    503: BUSY,
  },
  errors: [413],
});

export const imageNeighbours = defineOperation({
  operationId: 'imageNeighbours',
  method: 'get',
  path: '/api/search/image-neighbours',
  service: 'search',
  security: 'user',
  summary: 'Items whose photos look like this item’s',
  query: z.object({
    type: z
      .enum(['inventory_item'], { error: 'type must be inventory_item' })
      .optional()
      .default('inventory_item'),
    id: z.string({ error: 'id is required' }).min(1, 'id is required').max(200),
    limit: wholeNumberQuery({ min: 1, max: 50, default: 10 }),
  }),
  responses: {
    200: {
      description: 'The nearest photos ([] when the item has none, or is not yours).',
      json: z.object({ results: z.array(photoHitSchema) }),
    },
    503: BUSY,
  },
});

export const photoSearchOperations: readonly OperationSpec[] = [findByPhoto, imageNeighbours];
