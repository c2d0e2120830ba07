// Binds handlers to operation declarations: for each operation, the caller check (security), the JSON
// body parser with the operation's own limit, the validation of path, query and body against its
// schemas (a 400 whose message says which field and why), and the typed handler. With
// API_RESPONSE_CHECK set (tests run with `strict`), every JSON answer is checked against the schema
// declared for its status, so a response that drifts from the document fails the test that saw it.
import express, { Router } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type * as z from 'zod';
import { InputError, NotAllowedError } from '../../errors.ts';
import { ACCESS_DENIED_MESSAGE } from '../../auth/constants.ts';
import { getUser, requireUser } from '../../auth/require-user.ts';
import type { CsrfOptions } from '../../auth/csrf.ts';
import type { AuthenticatedUser, TokenVerifier } from '../../auth/token-verifier.ts';
import { errorBodySchema } from './error-schema.ts';
import { errorStatuses, expressPath } from './operation.ts';
import type {
  BodyOf,
  OperationSpec,
  ParamsOf,
  QueryOf,
  ReplyBody,
  ResponsesOf,
  ResponseSpec,
} from './operation.ts';
import { formatIssue } from './issues.ts';

export type ResponseCheck = 'off' | 'log' | 'strict';
/** Where createHttpServer keeps the API_RESPONSE_CHECK setting for every router of the app. */
export const RESPONSE_CHECK_LOCAL = 'apiResponseCheck';

export interface HandlerContext<O> {
  req: Request;
  res: Response;
  params: ParamsOf<O>;
  query: QueryOf<O>;
  body: BodyOf<O>;
  /** The signed-in caller (operations with security `user` or `admin`). */
  readonly user: AuthenticatedUser;
  /** Send a JSON answer typed by the operation's response schema for that status. */
  reply<S extends keyof ResponsesOf<O> & number>(status: S, body: ReplyBody<ResponsesOf<O>, S>): void;
}

export type OperationHandler<O> = (ctx: HandlerContext<O>) => Promise<void> | void;

export interface ApiRouterOptions {
  /** Needed by operations with security `user` or `admin`. */
  verifier?: TokenVerifier;
  csrf?: CsrfOptions;
  /** For security `admin`: throws (NotAllowedError) unless the signed-in user is an admin now. */
  requireAdmin?: (req: Request) => Promise<void>;
}

export interface HandleOptions {
  /** Middleware run after the caller check and before the body is parsed (rate limits, CSRF rules). */
  before?: RequestHandler[];
}

export interface ApiRouter {
  readonly router: Router;
  /** The operations bound so far, in order (the module's part of the OpenAPI document). */
  readonly operations: readonly OperationSpec[];
  handle<O extends OperationSpec>(operation: O, handler: OperationHandler<O>, options?: HandleOptions): void;
}

/** Marks the route layers an ApiRouter created, so a test can find any route registered around it. */
export const API_OPERATION = Symbol.for('kaboodle.apiOperation');

export function createApiRouter(options: ApiRouterOptions = {}): ApiRouter {
  const router = Router();
  const operations: OperationSpec[] = [];
  const ids = new Set<string>();

  function handle<O extends OperationSpec>(
    operation: O,
    handler: OperationHandler<O>,
    opts: HandleOptions = {},
  ): void {
    if (ids.has(operation.operationId))
      throw new TypeError(`operation ${operation.operationId} is bound twice`);
    ids.add(operation.operationId);
    operations.push(operation);
    const chain: RequestHandler[] = [checkResponses(operation)];
    if (operation.security !== 'public') {
      if (!options.verifier) throw new TypeError(`operation ${operation.operationId} needs a token verifier`);
      chain.push(requireUser(options.verifier, options.csrf));
    }
    if (operation.security === 'admin') {
      const check = options.requireAdmin;
      if (!check) throw new TypeError(`operation ${operation.operationId} is for admins: give requireAdmin`);
      chain.push(async (req, _res, next) => {
        await check(req);
        next();
      });
    }
    chain.push(...(opts.before ?? []));
    if (operation.body?.json) chain.push(jsonBody(operation));
    const run: RequestHandler = async (req, res) => {
      const params = parse(operation.params, req.params, 'path');
      const query = parse(operation.query, req.query, 'query');
      const body = readBody(operation, req);
      await handler({
        req,
        res,
        params: params as ParamsOf<O>,
        query: query as QueryOf<O>,
        body: body as BodyOf<O>,
        get user() {
          return getUser(req);
        },
        reply(status, value) {
          res.status(status).json(value);
        },
      });
    };
    chain.push(run);
    Object.defineProperty(run, API_OPERATION, { value: operation.operationId });
    router[operation.method](expressPath(operation.path), ...chain);
  }

  return { router, operations, handle };
}

/**
 * The admin check for services other than auth: the role the token carries. It can be trusted because
 * auth ends every session of an account that loses admin (kaboodle.session.revoked.v1), so a verifier
 * with the revocation check refuses the older admin tokens at once. Auth's own check reads its table.
 */
export async function requireAdminClaim(req: Request): Promise<void> {
  if (getUser(req).role !== 'admin') throw new NotAllowedError(ACCESS_DENIED_MESSAGE);
}

/**
 * Validate a value against a schema the way operations are (a 400 naming the field), for inputs a
 * handler reads itself, e.g. the fields of a streamed multipart upload.
 */
export function validateInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'path' | 'query' | 'body',
): z.output<S> {
  return parse(schema, value, where) as z.output<S>;
}

function parse(schema: z.ZodType | undefined, value: unknown, where: 'path' | 'query' | 'body'): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value, { error: (issue) => formatIssue(issue, where) });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new InputError(issue.message, {
      details: { in: where, field: issue.path.join('.') || undefined },
    });
  }
  return result.data;
}

const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

function jsonBody(operation: OperationSpec): RequestHandler {
  const parser = express.json({ limit: operation.body?.limit ?? '1mb' });
  return (req, res, next) => {
    // A multipart request to an operation that also takes uploads is the handler's to stream.
    if (operation.body?.multipart && req.is('multipart/form-data')) return next();
    if (!hasBody(req)) return next();
    if (!req.is('application/json')) {
      throw new InputError('Send the request body as JSON (Content-Type: application/json)');
    }
    parser(req, res, next);
  };
}

function readBody(operation: OperationSpec, req: Request): unknown {
  const spec = operation.body;
  if (!spec?.json) return undefined;
  if (spec.multipart && req.is('multipart/form-data')) return undefined;
  const required = spec.required ?? true;
  const raw: unknown = req.body;
  if (raw === undefined) {
    // A missing required body fails the schema itself, so its own message (if any) is the answer.
    return parse(spec.json, required ? undefined : {}, 'body');
  }
  return parse(spec.json, raw, 'body');
}

/** The schema a JSON answer with this status must match, or why there is none. */
function schemaFor(operation: OperationSpec, status: number): z.ZodType | string {
  const declared: ResponseSpec | undefined = (operation.responses as Record<number, ResponseSpec>)[status];
  if (declared) return declared.json ?? `status ${status} is declared without a JSON body`;
  if (errorStatuses(operation).includes(status)) return errorBodySchema;
  return `status ${status} is not declared`;
}

function checkResponses(operation: OperationSpec): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const mode = (req.app.locals[RESPONSE_CHECK_LOCAL] as ResponseCheck | undefined) ?? 'off';
    if (mode === 'off') return next();
    const send = res.json.bind(res);
    res.json = (value: unknown) => {
      const status = res.statusCode;
      const schema = schemaFor(operation, status);
      const problem =
        typeof schema === 'string'
          ? schema
          : (() => {
              const r = schema.safeParse(JSON.parse(JSON.stringify(value ?? null)));
              return r.success
                ? undefined
                : r.error.issues
                    .slice(0, 3)
                    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
                    .join('; ');
            })();
      if (!problem) return send(value);
      req.log?.error(
        { operationId: operation.operationId, status, problem },
        'response does not match its declared schema',
      );
      if (mode !== 'strict') return send(value);
      res.status(500);
      return send({
        error: 'Internal server error',
        message: 'Internal server error',
        code: 'ContractViolation',
        details: { operationId: operation.operationId, status, problem },
      });
    };
    next();
  };
}
