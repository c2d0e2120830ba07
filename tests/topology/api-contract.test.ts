// Every HTTP route is on the API contract: the app is started (`--target=all`, and each service alone
// as in split mode), Express's router stack is walked, and every route layer must have been made by
// the API router (the API_OPERATION mark) or be on the commented list below. The document each process
// serves must validate as OpenAPI 3.1 and describe exactly the operations it serves (split mode: each
// service its own; the web target the merge of all).
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_OPERATION,
  apiDocsOperations,
  createLogger,
  expressPath,
  healthOperations,
} from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { ALL_OPERATIONS } from '@kaboodle/server';
import { startKaboodle } from '@kaboodle/server';
import type { Kaboodle } from '@kaboodle/server';
import { tempDataDir } from '../support/kaboodle-process.ts';

/**
 * Middleware that may answer requests without being an API operation, by function name. Nothing
 * else may: a hand-made route or `router.use(handler)` outside the contract fails this test.
 */
const NOT_API_MIDDLEWARE: Record<string, string> = {
  // every request: request id, log line and trace; it answers nothing itself
  requestContext: 'request context',
  // auth's answers carry tokens and personal data: Cache-Control no-store under /api/auth; answers nothing
  noStore: 'no-store header',
  // the web target's built shell and remotes (/ and /mf/<remote>/): files, not an API
  serveStatic: 'static files',
  // the web target's index.html for the shell's client-side routes (/documents, /inventory/…)
  spaFallback: 'single-page app fallback',
  // GET /process and /upload are the Processing Hub's screens; an Ingress cannot route by method, so
  // in a cluster they reach ingestion, which answers a browser with the shell's page
  screenEntry: 'screen pages on API paths',
  // GET /runtime-config.json: where each remote's manifest lives, read by the shell at start
  runtimeConfig: 'shell runtime config',
  // the JSON 404 for paths no route matched, and the one error body for every failure
  notFound: 'not found',
  errorHandler: 'error handler',
};

interface RouteLayer {
  methods: string[];
  path: string;
  operationId: string | undefined;
}
interface Walked {
  routes: RouteLayer[];
  /** Middleware outside any router, by name and where it is mounted. */
  middleware: { name: string; path: string }[];
}

interface Layer {
  name: string;
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle: { stack?: Layer[] } & Record<symbol, unknown>;
}

const join = (prefix: string, path: string) =>
  `${prefix.replace(/\/$/, '')}${path === '/' ? '' : path}` || '/';

function walk(stack: readonly Layer[], prefix = '', out: Walked = { routes: [], middleware: [] }): Walked {
  for (const layer of stack) {
    if (layer.route) {
      const marked = layer.route.stack
        .map((h) => (h.handle as Record<symbol, unknown>)[API_OPERATION])
        .find((id): id is string => typeof id === 'string');
      out.routes.push({
        methods: Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m]),
        path: join(prefix, layer.route.path),
        operationId: marked,
      });
    } else if (Array.isArray(layer.handle.stack)) {
      walk(layer.handle.stack, join(prefix, layer.rawPath ?? '/'), out);
    } else {
      out.middleware.push({ name: layer.name, path: join(prefix, layer.rawPath ?? '/') });
    }
  }
  return out;
}

function routesOf(app: Kaboodle['app']): Walked {
  return walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
}

/** Every route layer is an operation; every loose middleware is listed. */
function expectEveryRouteDeclared(walked: Walked): void {
  const undeclared = walked.routes
    .filter((r) => !r.operationId)
    .map((r) => `${r.methods.join(',').toUpperCase()} ${r.path}`);
  if (undeclared.length)
    throw new Error(`routes registered outside the API contract: ${undeclared.join(', ')}`);
  const unlisted = walked.middleware
    .filter((m) => !Object.hasOwn(NOT_API_MIDDLEWARE, m.name))
    .map((m) => `${m.name || '(anonymous)'} at ${m.path}`);
  if (unlisted.length)
    throw new Error(`middleware that is neither an operation nor on the list: ${unlisted.join(', ')}`);
}

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string }>>;
}

async function servedDocument(url: string): Promise<OpenApiDoc> {
  const res = await fetch(new URL('/api/openapi.json', url));
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApiDoc;
}

async function expectValidOpenApi31(doc: OpenApiDoc): Promise<void> {
  expect(doc.openapi).toBe('3.1.0');
  const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
  expect(result.errors ?? [], 'OpenAPI 3.1 schema errors').toEqual([]);
  expect(result.valid).toBe(true);
}

const idsOf = (doc: OpenApiDoc): string[] =>
  Object.values(doc.paths)
    .flatMap((item) => Object.values(item).map((op) => op.operationId))
    .sort();
const ids = (ops: readonly OperationSpec[]): string[] => ops.map((o) => o.operationId).sort();

/** Each served operation sits at the path and method its declaration names, as the document says. */
function expectRoutesMatchDocument(walked: Walked, doc: OpenApiDoc): void {
  const byId = new Map<string, { method: string; path: string }>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) byId.set(op.operationId, { method, path });
  for (const r of walked.routes.filter((x) => x.operationId)) {
    const declared = byId.get(r.operationId!);
    expect(declared, `${r.operationId} is served but not in the document`).toBeDefined();
    expect({ id: r.operationId, methods: r.methods, path: r.path }).toEqual({
      id: r.operationId,
      methods: [declared!.method],
      path: expressPath(declared!.path),
    });
  }
}

const served = (walked: Walked) =>
  walked.routes
    .map((r) => r.operationId)
    .filter((id): id is string => id !== undefined)
    .sort();

const logger = createLogger({ component: 'api-contract-test', level: 'warn' });

describe('API contract: --target=all', () => {
  const data = tempDataDir('kaboodle-contract-');
  let app: Kaboodle;
  beforeAll(async () => {
    app = await startKaboodle({
      target: 'all',
      env: {
        ...process.env,
        PORT: '0',
        KABOODLE_DATA_DIR: data.dir,
        DATABASE_URL: '',
        KAFKA_BROKERS: '',
        S3_ENDPOINT: '',
      },
      logger,
    });
  });
  afterAll(async () => {
    await app?.stop();
    data.remove();
  });

  it('registers no route outside the contract', () => {
    expectEveryRouteDeclared(routesOf(app.app));
  });

  it('serves an OpenAPI 3.1 document of every operation it serves, where it serves them', async () => {
    const doc = await servedDocument(app.url);
    await expectValidOpenApi31(doc);
    const walked = routesOf(app.app);
    expect(idsOf(doc)).toEqual(ids([...apiDocsOperations, ...ALL_OPERATIONS]));
    expect(served(walked)).toEqual(idsOf(doc));
    expectRoutesMatchDocument(walked, doc);
  });

  it('fails on a route added beside the contract (the check itself)', () => {
    const walked = routesOf(app.app);
    const sneaked: Walked = {
      routes: [...walked.routes, { methods: ['get'], path: '/api/secret', operationId: undefined }],
      middleware: [...walked.middleware, { name: '', path: '/api/raw' }],
    };
    expect(() => expectEveryRouteDeclared(sneaked)).toThrow(/GET \/api\/secret/);
    expect(() =>
      expectEveryRouteDeclared({ ...walked, middleware: [...walked.middleware, { name: '', path: '/' }] }),
    ).toThrow(/\(anonymous\) at \//);
  });
});

const kafka = process.env.KAFKA_BROKERS;
if (!kafka)
  console.log(
    '[api-contract] split mode skipped: KAFKA_BROKERS is not set (make engines-up starts a broker)',
  );

describe.skipIf(!kafka)('API contract: each service alone (split mode)', () => {
  const data = tempDataDir('kaboodle-contract-split-');
  // Peers only need an address here: nothing in this test calls them.
  const env = {
    ...process.env,
    PORT: '0',
    GRPC_PORT: '0',
    KABOODLE_DATA_DIR: data.dir,
    AUTH_URL: 'http://127.0.0.1:9',
    PROCESSING_GRPC_ADDRESS: '127.0.0.1:9',
  };
  afterAll(() => data.remove());

  for (const target of ['auth', 'ingestion', 'processing', 'catalogue', 'search']) {
    it(`${target}: no route outside the contract; its document holds its own operations only`, async () => {
      const app = await startKaboodle({ target, env, logger });
      try {
        const walked = routesOf(app.app);
        expectEveryRouteDeclared(walked);
        const doc = await servedDocument(app.url);
        await expectValidOpenApi31(doc);
        const own = ALL_OPERATIONS.filter((o) => o.service === target);
        expect(idsOf(doc)).toEqual(ids([...apiDocsOperations, ...healthOperations, ...own]));
        expect(served(walked)).toEqual(idsOf(doc));
        expectRoutesMatchDocument(walked, doc);
      } finally {
        await app.stop();
      }
    });
  }

  it('web: serves the merge of every service’s operations, and runs none of them', async () => {
    const app = await startKaboodle({ target: 'web', env, logger });
    try {
      const walked = routesOf(app.app);
      expectEveryRouteDeclared(walked);
      const doc = await servedDocument(app.url);
      await expectValidOpenApi31(doc);
      expect(idsOf(doc)).toEqual(ids([...apiDocsOperations, ...ALL_OPERATIONS]));
      expect(served(walked)).toEqual(ids([...apiDocsOperations, ...healthOperations]));
    } finally {
      await app.stop();
    }
  });
});
