// One declaration per HTTP operation (fastify/demo's route schemas, Immich's DTOs): its path, query,
// body and responses as zod schemas. The same object validates the request (api-router.ts), types the
// handler, and becomes the operation in the OpenAPI document (openapi-document.ts). Declarations are
// plain data with no handler, so the web target can publish every service's operations without
// running them.
import type * as z from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call it. `user`: a verified access token (bearer or cookie + CSRF), `req.user` is set.
 * `admin`: the same, then the module's admin check. `public`: anyone (the operation may still add
 * its own middleware, e.g. the auth service's CSRF and rate limits).
 */
export type Security = 'user' | 'admin' | 'public';

export type ZodObjectLike = z.ZodObject<z.ZodRawShape>;

export interface ResponseSpec {
  description: string;
  /** A JSON body, validated in tests (API_RESPONSE_CHECK=strict) and documented. */
  json?: z.ZodType;
  /** Non-JSON bodies (files, HTML, Prometheus text): content types and an optional schema for the doc. */
  content?: Record<string, { schema?: z.ZodType }>;
  /** Response headers worth documenting (Retry-After, Content-Disposition, Location). */
  headers?: Record<string, { description: string }>;
}

export interface RequestBodySpec {
  /** Parsed with express.json under `limit`, then validated. */
  json?: z.ZodType;
  /** Documented only: the handler streams the body itself (uploads). */
  multipart?: ZodObjectLike;
  /** Largest JSON body accepted (bytes or "64kb"; default 1mb). */
  limit?: number | string;
  /** Default true. An optional body may be absent (no content type, no bytes). */
  required?: boolean;
}

export interface OperationSpec<
  P extends ZodObjectLike | undefined = ZodObjectLike | undefined,
  Q extends ZodObjectLike | undefined = ZodObjectLike | undefined,
  B extends RequestBodySpec | undefined = RequestBodySpec | undefined,
  R extends Record<number, ResponseSpec> = Record<number, ResponseSpec>,
> {
  /** Unique across the product: `listDocuments`, `uploadFile`. */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI template: `/api/documents/{id}` (Express sees `:id`). */
  path: string;
  summary: string;
  description?: string;
  /** The owning service (`auth`, `ingestion`, …): the OpenAPI tag and the split-mode document. */
  service: string;
  security: Security;
  params?: P;
  query?: Q;
  body?: B;
  /** The operation's own answers. Errors every operation may give (400 on bad input, 401/403 when
   * signed in, 503 when an engine is down) are added by defaultErrorStatuses. */
  responses: R;
  /** Further error statuses this operation gives (404, 409, 413, 429…), with the shared error body. */
  errors?: readonly number[];
}

/** Keeps the literal types of a declaration (for the typed handler) and checks its shape. */
export function defineOperation<
  P extends ZodObjectLike | undefined = undefined,
  Q extends ZodObjectLike | undefined = undefined,
  B extends RequestBodySpec | undefined = undefined,
  R extends Record<number, ResponseSpec> = Record<number, ResponseSpec>,
>(spec: OperationSpec<P, Q, B, R>): OperationSpec<P, Q, B, R> {
  if (!/^\/[\w\-./{}]*$/.test(spec.path))
    throw new TypeError(`operation ${spec.operationId}: bad path ${spec.path}`);
  const templated = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const declared = spec.params ? Object.keys(spec.params.shape) : [];
  if (templated.join() !== declared.join()) {
    throw new TypeError(
      `operation ${spec.operationId}: path parameters {${templated.join(', ')}} and params (${declared.join(', ')}) differ`,
    );
  }
  return spec;
}

/** `/api/documents/{id}` → `/api/documents/:id`. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The error statuses an operation can always give, by what it takes and who may call it. */
export function errorStatuses(spec: OperationSpec): number[] {
  const statuses = new Set<number>(spec.errors ?? []);
  if (spec.params || spec.query || spec.body) statuses.add(400);
  if (spec.body?.json) statuses.add(413);
  if (spec.security !== 'public') {
    statuses.add(401);
    statuses.add(403);
  }
  if (spec.params) statuses.add(404);
  statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;
export type ParamsOf<O> = O extends OperationSpec<infer P, ZodObjectLike | undefined> ? Infer<P> : never;
export type QueryOf<O> = O extends OperationSpec<ZodObjectLike | undefined, infer Q> ? Infer<Q> : never;
export type BodyOf<O> =
  O extends OperationSpec<ZodObjectLike | undefined, ZodObjectLike | undefined, infer B>
    ? B extends { json: infer J }
      ? Infer<J>
      : undefined
    : never;
export type ResponsesOf<O> =
  O extends OperationSpec<
    ZodObjectLike | undefined,
    ZodObjectLike | undefined,
    RequestBodySpec | undefined,
    infer R
  >
    ? R
    : never;
/** What `reply(status, body)` accepts for a status: the schema's input type. */
export type ReplyBody<R, S extends keyof R> = R[S] extends { json: infer J }
  ? J extends z.ZodType
    ? z.input<J>
    : never
  : never;
