// The OpenAPI 3.1 document of a set of operations (one service's, or every service's for the web
// target), generated from the same zod schemas that validate requests (zod-openapi).
import * as z from 'zod';
import { createDocument } from 'zod-openapi';
import type {
  ZodOpenApiOperationObject,
  ZodOpenApiPathsObject,
  ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { ERROR_DESCRIPTIONS, errorBodySchema } from './error-schema.ts';
import { errorStatuses } from './operation.ts';
import type { OperationSpec, ResponseSpec } from './operation.ts';

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

export type OpenApiDocument = ReturnType<typeof createDocument>;

const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token from sign-in (`token` in the answer), as `Authorization: Bearer …`.',
  },
  cookieAuth: {
    type: 'apiKey',
    in: 'cookie',
    name: 'kaboodle_access',
    description:
      'The browser session. State-changing calls also send `X-Requested-With: XMLHttpRequest` and echo the `kaboodle_csrf` cookie in `X-CSRF-Token`.',
  },
} as const;

function responsesOf(op: OperationSpec): ZodOpenApiResponsesObject {
  const out: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(op.responses as Record<number, ResponseSpec>)) {
    const content: Record<string, { schema: z.ZodType }> = {};
    if (spec.json) content['application/json'] = { schema: spec.json };
    for (const [type, c] of Object.entries(spec.content ?? {}))
      content[type] = { schema: c.schema ?? z.unknown() };
    out[status] = {
      description: spec.description,
      ...(Object.keys(content).length ? { content } : {}),
      ...(spec.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(spec.headers).map(([h, d]) => [
                h,
                { description: d.description, schema: { type: 'string' } },
              ]),
            ),
          }
        : {}),
    };
  }
  for (const status of errorStatuses(op)) {
    if (out[String(status)]) continue;
    out[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'An error.',
      content: { 'application/json': { schema: errorBodySchema } },
      ...(status === 429
        ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'string' } } } }
        : {}),
    };
  }
  return out as ZodOpenApiResponsesObject;
}

function operationObject(op: OperationSpec): ZodOpenApiOperationObject {
  const content: Record<string, { schema: z.ZodType }> = {};
  if (op.body?.json) content['application/json'] = { schema: op.body.json };
  if (op.body?.multipart) content['multipart/form-data'] = { schema: op.body.multipart };
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.service],
    ...(op.security === 'public' ? { security: [] } : {}),
    ...(op.params || op.query
      ? {
          requestParams: {
            ...(op.params ? { path: op.params } : {}),
            ...(op.query ? { query: op.query } : {}),
          },
        }
      : {}),
    ...(op.body ? { requestBody: { required: op.body.required ?? true, content } } : {}),
    responses: responsesOf(op),
  };
}

export function buildOpenApiDocument(
  operations: readonly OperationSpec[],
  info: DocumentInfo,
): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  const seen = new Set<string>();
  for (const op of operations) {
    if (seen.has(op.operationId)) throw new TypeError(`operationId ${op.operationId} is declared twice`);
    seen.add(op.operationId);
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new TypeError(`${op.method.toUpperCase()} ${op.path} is declared twice`);
    item[op.method] = operationObject(op);
  }
  const tags = [...new Set(operations.map((o) => o.service))].sort().map((name) => ({ name }));
  return createDocument({
    openapi: '3.1.0',
    info: { ...info },
    tags,
    security: [{ bearerAuth: [] }, { cookieAuth: [] }],
    components: { securitySchemes: SECURITY_SCHEMES },
    paths,
  });
}
