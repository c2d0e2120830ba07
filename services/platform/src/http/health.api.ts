// The probes every Kaboodle process answers, declared like any other operation so the OpenAPI
// document lists them: /healthz (the process answers), /readyz (every dependency answers) and
// /metrics (Prometheus text). health.routes.ts binds them.
import * as z from 'zod';
import { defineOperation } from './api/operation.ts';
import type { OperationSpec } from './api/operation.ts';

export const checkResultSchema = z
  .strictObject({
    name: z.string().meta({ description: 'e.g. `event-bus.kafka`, `catalogue.database`.' }),
    status: z.enum(['ok', 'fail', 'degraded']).meta({
      description:
        '`degraded`: a dependency this pod can serve without (a shared engine other parts buffer for, another service) is failing; it does not make the pod unready.',
    }),
    durationMs: z.number().int().nonnegative(),
    error: z.string().optional().meta({ description: 'Why it failed.' }),
  })
  .meta({ id: 'CheckResult' });

export const getHealth = defineOperation({
  operationId: 'getHealth',
  method: 'get',
  path: '/healthz',
  service: 'platform',
  security: 'public',
  summary: 'Liveness: the process answers',
  responses: {
    200: {
      description: 'Alive.',
      json: z.strictObject({ status: z.literal('ok'), uptimeSeconds: z.number().int().nonnegative() }),
    },
  },
});

export const getReadiness = defineOperation({
  operationId: 'getReadiness',
  method: 'get',
  path: '/readyz',
  service: 'platform',
  security: 'public',
  summary: 'Readiness: what this process needs to answer its own requests answers now',
  responses: {
    200: {
      description: 'Ready.',
      json: z.strictObject({ status: z.literal('ready'), checks: z.array(checkResultSchema) }),
    },
    503: {
      description: 'Not ready (a check failed) or shutting down.',
      json: z.strictObject({
        status: z.enum(['not ready', 'shutting down']),
        failed: z.array(z.string()).optional().meta({ description: '`name: reason` of each failed check.' }),
        checks: z.array(checkResultSchema),
      }),
    },
  },
});

export const getMetrics = defineOperation({
  operationId: 'getMetrics',
  method: 'get',
  path: '/metrics',
  service: 'platform',
  security: 'public',
  summary: 'Metrics in the Prometheus text format',
  responses: {
    200: { description: 'The metrics.', content: { 'text/plain': {} } },
    503: { description: 'Telemetry is not started in this process.', content: { 'text/plain': {} } },
  },
});

export const healthOperations: readonly OperationSpec[] = [getHealth, getReadiness, getMetrics];
