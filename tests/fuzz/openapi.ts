// Reads the OpenAPI 3.1 document a running Kaboodle serves (/api/openapi.json) into the operations
// the fuzzer drives: their parameters, bodies and declared statuses. Nothing here knows a route by
// name: a service that moves a route onto the document is fuzzed from its next run on.

/** The part of JSON Schema (OpenAPI 3.1 dialect, plus 3.0's `nullable`) the fuzzer reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  nullable?: boolean;
  description?: string;
}

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OperationObject {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths?: Record<string, Record<string, OperationObject | ParameterObject[] | undefined>>;
  components?: { schemas?: Record<string, JsonSchema> };
  security?: unknown[];
}

export interface FuzzParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface FuzzOperation {
  /** operationId, or METHOD path when the document has none. */
  id: string;
  method: string;
  /** The OpenAPI template, e.g. /process/status/{id}. */
  path: string;
  service: string;
  /** Needs a signed-in caller (the document's global security applies; `security: []` is public). */
  signedIn: boolean;
  params: FuzzParameter[];
  body?: {
    required: boolean;
    json?: JsonSchema;
    multipart?: JsonSchema;
  };
  /** Every status the document declares for it. */
  declared: Set<number>;
  /** The JSON schema of each declared answer that has one. */
  answers: Map<number, JsonSchema>;
  /** Changes state (so the CSRF rule applies to cookie callers). */
  unsafe: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The operations of a document, in document order. */
export function readOperations(doc: OpenApiDocument): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  const globalSecurity = (doc.security ?? []).length > 0;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const shared = (Array.isArray(item.parameters) ? item.parameters : []) as ParameterObject[];
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const params = [...shared, ...(op.parameters ?? [])]
        .filter((p): p is ParameterObject & { in: 'path' | 'query' } => p.in === 'path' || p.in === 'query')
        .map((p) => ({
          name: p.name,
          in: p.in,
          required: p.in === 'path' || p.required === true,
          schema: p.schema ?? {},
        }));
      const content = op.requestBody?.content ?? {};
      const json = content['application/json']?.schema;
      const multipart = content['multipart/form-data']?.schema;
      out.push({
        id: op.operationId ?? `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        service: op.tags?.[0] ?? 'untagged',
        signedIn: op.security ? op.security.length > 0 : globalSecurity,
        params,
        ...(op.requestBody
          ? {
              body: {
                required: op.requestBody.required ?? false,
                ...(json ? { json } : {}),
                ...(multipart ? { multipart } : {}),
              },
            }
          : {}),
        declared: new Set(
          Object.keys(op.responses ?? {})
            .filter((s) => /^\d{3}$/.test(s))
            .map(Number),
        ),
        answers: new Map(
          Object.entries(op.responses ?? {})
            .filter(([s, r]) => /^\d{3}$/.test(s) && r.content?.['application/json']?.schema)
            .map(([s, r]) => [Number(s), r.content!['application/json']!.schema!]),
        ),
        unsafe: method !== 'get',
      });
    }
  }
  return out;
}

/** Follows `$ref`s (local ones: #/components/schemas/Name) until a schema with content. */
export function resolve(doc: OpenApiDocument, schema: JsonSchema, depth = 0): JsonSchema {
  if (!schema.$ref) return schema;
  if (depth > 20) throw new Error(`$ref cycle at ${schema.$ref}`);
  const m = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref);
  const target = m ? doc.components?.schemas?.[decodeURIComponent(m[1]!)] : undefined;
  if (!target) throw new Error(`unresolvable $ref ${schema.$ref}`);
  const { $ref: _ref, ...rest } = schema;
  return resolve(doc, { ...target, ...rest }, depth + 1);
}

/** The statuses a response may have for an operation: declared, or the one it was given. */
export function isDeclared(op: FuzzOperation, status: number): boolean {
  return op.declared.has(status);
}

/** Fills a path template with already-encoded segments. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}
