// The first-run sample library's HTTP operations (issue 18), declared once: how many sample files
// the user has, load them (processed like any upload, marked as samples), remove them all.
import * as z from 'zod';
import { defineOperation } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { fileStatusSchema } from '../ingestion.api.ts';

const count = z.number().int().nonnegative();
const state = z.object({
  loaded: count.meta({ description: 'Sample files you have now (in any state).' }),
  available: count.meta({ description: 'Files the sample library holds.' }),
});

export const getSamples = defineOperation({
  operationId: 'getSamples',
  method: 'get',
  path: '/process/samples',
  service: 'ingestion',
  security: 'user',
  summary: 'Whether you have the sample library loaded',
  responses: { 200: { description: 'Your sample files and the library size.', json: state } },
});

export const loadSamples = defineOperation({
  operationId: 'loadSamples',
  method: 'post',
  path: '/process/samples',
  service: 'ingestion',
  security: 'user',
  summary: 'Load the sample library: documents and item photos made offline, marked as samples',
  responses: {
    202: {
      description: 'The sample files you did not have yet are queued for processing.',
      json: state.extend({ files: z.array(fileStatusSchema) }),
    },
  },
});

export const removeSamples = defineOperation({
  operationId: 'removeSamples',
  method: 'delete',
  path: '/process/samples',
  service: 'ingestion',
  security: 'user',
  summary: 'Remove the sample library: its files and everything made from them',
  responses: { 200: { description: 'Removed.', json: z.object({ deleted: count }) } },
});

export const sampleOperations: readonly OperationSpec[] = [getSamples, loadSamples, removeSamples];
