// The API contract kit over real HTTP: validation with field-named messages, each operation's own
// body limit, the strict response check, callers, and an OpenAPI 3.1 document that validates.
import { Validator } from '@seriousme/openapi-schema-validator';
import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, NotAllowedError } from '../../errors.ts';
import { createLogger } from '../../log/logger.ts';
import type { AuthenticatedUser, TokenVerifier } from '../../auth/token-verifier.ts';
import { createHttpServer } from '../http-server.ts';
import { listen } from '../listen.ts';
import type { RunningServer } from '../listen.ts';
import { API_OPERATION, createApiRouter } from './api-router.ts';
import type { ResponseCheck } from './api-router.ts';
import { wholeNumberQuery } from './fields.ts';
import { buildOpenApiDocument } from './openapi-document.ts';
import { defineOperation } from './operation.ts';

const alice: AuthenticatedUser = {
  id: 'u1',
  email: 'alice@example.com',
  role: 'user',
  sessionId: 's1',
  expiresAt: new Date(Date.now() + 60_000),
};
/** The TokenVerifier port, accepting exactly the token "good" (token signing has its own tests). */
const verifier: TokenVerifier = {
  async verify(token) {
    if (token !== 'good') throw new AuthenticationError('Session expired');
    return alice;
  },
};

const thing = z.object({ id: z.string(), name: z.string(), size: z.number().int() }).meta({ id: 'Thing' });

const getThing = defineOperation({
  operationId: 'getThing',
  method: 'get',
  path: '/api/things/{id}',
  service: 'things',
  security: 'user',
  summary: 'One thing',
  params: z.object({ id: z.string().max(10) }),
  query: z.object({
    page: wholeNumberQuery({ min: 1, max: 5, default: 1 }),
    broken: z.enum(['shape', 'status']).optional(),
  }),
  responses: { 200: { description: 'The thing.', json: thing } },
});

const createThing = defineOperation({
  operationId: 'createThing',
  method: 'post',
  path: '/api/things',
  service: 'things',
  security: 'public',
  summary: 'Make a thing',
  body: {
    json: z.object({
      name: z.string({ error: 'Name is required' }).min(1, 'Name is required').max(20),
      size: z.number().int().min(0).optional(),
    }),
    limit: 1024,
  },
  responses: { 201: { description: 'Made.', json: thing } },
});

const bigThing = defineOperation({
  operationId: 'bigThing',
  method: 'post',
  path: '/api/big-things',
  service: 'things',
  security: 'public',
  summary: 'Make a thing with a long name',
  body: { json: z.object({ name: z.string() }, { error: 'Send the thing as a JSON object' }) },
  responses: { 201: { description: 'Made.', json: z.object({ length: z.number() }) } },
});

const adminThing = defineOperation({
  operationId: 'adminThing',
  method: 'delete',
  path: '/api/things/{id}',
  service: 'things',
  security: 'admin',
  summary: 'Remove a thing',
  params: z.object({ id: z.string() }),
  responses: { 204: { description: 'Removed.' } },
});

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close(1000)));
});

async function start(responseCheck: ResponseCheck = 'strict') {
  const api = createApiRouter({
    verifier,
    requireAdmin: async () => {
      throw new NotAllowedError('Access denied. You may not have permission for this action.');
    },
  });
  api.handle(getThing, ({ params, query, reply, res, user }) => {
    if (query.broken === 'shape') {
      res.json({ id: params.id, name: 42 });
      return;
    }
    if (query.broken === 'status') {
      res.status(202).json({ id: params.id });
      return;
    }
    reply(200, { id: params.id, name: `${user.email} page ${query.page}`, size: query.page });
  });
  api.handle(createThing, ({ body, reply }) =>
    reply(201, { id: 't1', name: body.name, size: body.size ?? 0 }),
  );
  api.handle(bigThing, ({ body, reply }) => reply(201, { length: body.name.length }));
  api.handle(adminThing, ({ res }) => void res.status(204).end());
  const logger = createLogger({ component: 'test', level: 'silent' });
  const kit = createHttpServer({ logger, responseCheck, routers: [api.router] });
  const server = await listen(kit.app, 0, '127.0.0.1');
  running.push(server);
  return { url: server.url, api };
}

const get = (url: string, headers: Record<string, string> = { authorization: 'Bearer good' }) =>
  fetch(url, { headers });
const post = (url: string, body: string, type = 'application/json') =>
  fetch(url, { method: 'POST', headers: { 'content-type': type }, body });

describe('requests are checked against their operation', () => {
  it('passes typed, coerced values to the handler', async () => {
    const { url } = await start();
    const res = await get(`${url}/api/things/abc?page=3`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'abc', name: 'alice@example.com page 3', size: 3 });
  });

  it('names the field and the rule in a 400', async () => {
    const { url } = await start();
    const cases: Array<[Promise<Response>, string]> = [
      [get(`${url}/api/things/abc?page=9`), 'page must be a whole number between 1 and 5'],
      [get(`${url}/api/things/abc?page=two`), 'page must be a whole number between 1 and 5'],
      [get(`${url}/api/things/abc?page=1&page=2`), 'page must be a whole number between 1 and 5'],
      [get(`${url}/api/things/abcdefghijkl`), 'id must be at most 10 characters'],
      [get(`${url}/api/things/abc?broken=maybe`), 'broken must be one of shape, status'],
      [post(`${url}/api/things`, '{}'), 'Name is required'],
      [post(`${url}/api/things`, '{"name":"lamp","size":1.5}'), 'size must be a whole number'],
      [post(`${url}/api/things`, '{"name":"lamp","size":"big"}'), 'size must be a number'],
      [post(`${url}/api/things`, '[1,2]'), 'Request body must be a JSON object'],
      [post(`${url}/api/things`, '{"name":'), 'Invalid JSON in request body'],
      [
        post(`${url}/api/things`, 'name=lamp', 'application/x-www-form-urlencoded'),
        'Send the request body as JSON (Content-Type: application/json)',
      ],
      [fetch(`${url}/api/things`, { method: 'POST' }), 'Request body must be a JSON object'],
      // the schema's own words win, also when the body is missing altogether
      [post(`${url}/api/big-things`, '[1]'), 'Send the thing as a JSON object'],
      [fetch(`${url}/api/big-things`, { method: 'POST' }), 'Send the thing as a JSON object'],
    ];
    for (const [response, message] of cases) {
      const res = await response;
      expect({ status: res.status, message: ((await res.json()) as { message: string }).message }).toEqual({
        status: 400,
        message,
      });
    }
  });

  it('applies each operation’s own body limit, not a shared one', async () => {
    const { url } = await start();
    const long = JSON.stringify({ name: 'x'.repeat(2000) });
    const small = await post(`${url}/api/things`, long);
    expect(small.status).toBe(413);
    expect(await small.json()).toMatchObject({ message: 'Request body is too large (limit 1024 bytes)' });
    const big = await post(`${url}/api/big-things`, long);
    expect(big.status).toBe(201);
    expect(await big.json()).toEqual({ length: 2000 });
  });

  it('asks callers to sign in, and admins to be admins', async () => {
    const { url } = await start();
    expect((await get(`${url}/api/things/abc`, {})).status).toBe(401);
    expect((await get(`${url}/api/things/abc`, { authorization: 'Bearer forged' })).status).toBe(401);
    const del = await fetch(`${url}/api/things/abc`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer good', 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(del.status).toBe(403);
  });

  it('marks the route layers it creates, so routes outside the contract can be found', async () => {
    const { api } = await start();
    const handlers = (
      api.router as unknown as { stack: Array<{ route?: { stack: Array<{ handle: object }> } }> }
    ).stack
      .flatMap((layer) => layer.route?.stack ?? [])
      .filter((l) => API_OPERATION in l.handle);
    expect(handlers).toHaveLength(4);
  });
});

describe('answers are checked against their declaration (API_RESPONSE_CHECK)', () => {
  it('strict: a body that drifts from its schema becomes a 500 naming the operation', async () => {
    const { url } = await start('strict');
    const res = await get(`${url}/api/things/abc?broken=shape`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      code: 'ContractViolation',
      details: { operationId: 'getThing', status: 200, problem: expect.stringMatching(/^name: /) },
    });
  });

  it('strict: an undeclared status is a violation; declared errors are not', async () => {
    const { url } = await start('strict');
    const res = await get(`${url}/api/things/abc?broken=status`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ details: { problem: 'status 202 is not declared' } });
    expect((await get(`${url}/api/things/abc?page=0`)).status).toBe(400);
  });

  it('log: the answer goes out unchanged', async () => {
    const { url } = await start('log');
    const res = await get(`${url}/api/things/abc?broken=shape`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'abc', name: 42 });
  });
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 with every operation, its parameters, bodies and error answers', async () => {
    const doc = buildOpenApiDocument([getThing, createThing, bigThing, adminThing], {
      title: 'Things',
      version: '1.0.0',
    });
    const result = await new Validator().validate(
      structuredClone(doc) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const op = doc.paths!['/api/things/{id}']!.get!;
    expect(op.operationId).toBe('getThing');
    expect(Object.keys(op.responses!).sort()).toEqual(['200', '400', '401', '403', '404', '503']);
    expect(doc.paths!['/api/things']!.post!.security).toEqual([]);
    expect(doc.components!.schemas).toHaveProperty('Thing');
    expect(doc.components!.schemas).toHaveProperty('Error');
  });

  it('refuses an operation declared twice, and path parameters that differ from params', () => {
    expect(() => buildOpenApiDocument([getThing, getThing], { title: 't', version: '1' })).toThrow(
      /declared twice/,
    );
    expect(() =>
      defineOperation({
        operationId: 'bad',
        method: 'get',
        path: '/api/x/{id}',
        service: 'x',
        security: 'public',
        summary: 'x',
        responses: {},
      }),
    ).toThrow(/path parameters \{id\} and params \(\) differ/);
  });
});
