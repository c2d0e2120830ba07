// The dashboard's HTTP operations, declared once: the user's figures and recent activity.
// activity.routes.ts binds the handlers; the OpenAPI document and the frontends' types come from here.
import * as z from 'zod';
import { defineOperation } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { limitQuery, pageQuery } from './catalogue-fields.ts';

const count = z.number().int().nonnegative();
const ENTITY_KINDS = ['document', 'inventory_item'] as const;

export const statsSchema = z
  .strictObject({
    documents_processed: count,
    inventory_items: count,
    files_completed: count,
    files_failed: count,
    files_total: count.meta({ description: 'Files not deleted, in any state.' }),
    processing_efficiency: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .meta({ description: 'completed / (completed + failed); null while none has ended.' }),
    storage_bytes: count.meta({ description: 'Bytes of the files not deleted.' }),
  })
  .meta({ id: 'Stats' });

export const activitySchema = z
  .strictObject({
    id: z.string(),
    type: z
      .enum(['uploaded', 'processed', 'failed', 'deleted', 'edited', 'added'])
      .meta({ description: '`added`: documents or items added to a kaboodle.' }),
    message: z.string().meta({ description: 'What happened, written for the person.' }),
    file_id: z.string().nullable(),
    file_name: z.string(),
    entity_type: z.enum(ENTITY_KINDS).nullable(),
    entity_id: z.string().nullable(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'Activity' });

export const getStats = defineOperation({
  operationId: 'getStats',
  method: 'get',
  path: '/api/stats',
  service: 'catalogue',
  security: 'user',
  summary: "The dashboard's figures over your files",
  responses: { 200: { description: 'Your figures.', json: statsSchema } },
});

export const listActivity = defineOperation({
  operationId: 'listActivity',
  method: 'get',
  path: '/api/activity',
  service: 'catalogue',
  security: 'user',
  summary: 'What happened to your files and entries, newest first',
  query: z.object({ limit: limitQuery, page: pageQuery }),
  responses: {
    200: {
      description: 'The most recent events.',
      json: z.strictObject({ activity: z.array(activitySchema) }),
    },
  },
});

export const activityOperations: readonly OperationSpec[] = [getStats, listActivity];
