// The modules `kaboodle --target` composes (Loki's modules.go): MODULE_DEPS says at a glance what each
// module needs, and the start order follows from it; below it, one init per module. Infrastructure
// modules (HTTP and gRPC servers, engines, token verifier) are pulled in as dependencies, never named
// by --target; `all` has no code of its own. When a producer and its consumer share the process, the
// in-process adapter is wired instead of a remote one (the token verifier uses the auth module's keys,
// search calls processing directly).
import path from 'node:path';
import {
  childLogger,
  createApiDocsRouter,
  createGrpcServer,
  createHttpServer,
  createSessionRevocationList,
  createTokenVerifier,
  healthOperations,
  kafkaSecurity,
  openBlobStore,
  openDatabase,
  openEventBus,
  subscribeSessionRevocations,
} from '@kaboodle/platform';
import type {
  BlobStore,
  ChannelCredentials,
  Database,
  EventBus,
  GrpcServer,
  GrpcTlsFiles,
  HttpServer,
  Logger,
  OperationSpec,
  ServiceModule,
  Subscription,
  TokenVerifier,
} from '@kaboodle/platform';
import { toAuthConfig } from '@kaboodle/auth/config';
import type { AuthModule } from '@kaboodle/auth';
import type { ProcessingModule } from '@kaboodle/processing';
import type { CatalogueModule } from '@kaboodle/catalogue';
import type { SearchModule } from '@kaboodle/search';
import { ALL_OPERATIONS, API_DESCRIPTION } from './api-operations.ts';
import { DB_SERVICES, SERVICES } from './kaboodle-config.ts';
import type { KaboodleConfig } from './kaboodle-config.ts';
import { librarySearchOf } from './library-search.ts';
import { ModuleManager } from './module-manager.ts';
import type { ModuleDefinition, RunningModule } from './module-manager.ts';
import { VERSION } from './version.ts';
import { createScreenEntryRouter, createWebModule } from './web.module.ts';

/** What each module needs. A dependency inits and starts before its dependents and stops after them. */
export const MODULE_DEPS = {
  'http-server': [],
  'grpc-server': [],
  database: [],
  'event-bus': [],
  'blob-store': [],
  'token-verifier': ['event-bus'],
  auth: ['http-server', 'database', 'event-bus'],
  ingestion: ['http-server', 'database', 'event-bus', 'blob-store', 'token-verifier'],
  processing: ['http-server', 'grpc-server', 'event-bus', 'blob-store'],
  catalogue: ['http-server', 'grpc-server', 'database', 'event-bus', 'blob-store', 'token-verifier'],
  search: ['http-server', 'grpc-server', 'event-bus', 'token-verifier'],
  web: ['http-server'],
  all: [...SERVICES, 'web'],
} as const;
export type ModuleId = keyof typeof MODULE_DEPS;
// A dependency that names no module is a type error here, not a start-up error.
const deps: Record<ModuleId, readonly ModuleId[]> = MODULE_DEPS;

/** What --target may name; the rest are infrastructure. */
const TARGETS: ReadonlySet<ModuleId> = new Set([...SERVICES, 'web', 'all']);

export interface Context {
  config: KaboodleConfig;
  targets: readonly string[];
  /** Every module id this process runs (targets plus their dependencies). */
  running: ReadonlySet<string>;
  logger: Logger;
  http?: HttpServer;
  grpc?: GrpcServer;
  /** mTLS files when service identities are enforced (GRPC_TLS_*), and the clients' credentials. */
  tls?: GrpcTlsFiles;
  grpcCredentials?: ChannelCredentials;
  bus?: EventBus;
  blobs?: BlobStore;
  verifier?: TokenVerifier;
  auth?: AuthModule;
  processing?: ProcessingModule;
  catalogue?: CatalogueModule;
  search?: SearchModule;
  databases: Database[];
  openDatabase(service: string): Database;
  /** The HTTP operations of the modules mounted in this process (its OpenAPI document). */
  operations: OperationSpec[];
  /** The address the HTTP server answers at, once it listens (links in mail when PUBLIC_BASE_URL is unset). */
  listenUrl?: string;
}

type Init = NonNullable<ModuleDefinition<Context>['init']>;

/** This process's mTLS client credentials for a gRPC handle, when identities are enforced. */
const credentials = (ctx: Context): { credentials?: ChannelCredentials } =>
  ctx.grpcCredentials ? { credentials: ctx.grpcCredentials } : {};

/** Mount a service module on the shared servers; its lifecycle is the manager's. */
function mountModule(ctx: Context, module: ServiceModule): RunningModule {
  if (module.router) ctx.http?.mount(module.router);
  if (module.operations) ctx.operations.push(...module.operations);
  if (module.checks?.length) ctx.http?.addChecks(...module.checks);
  if (module.grpc?.length) ctx.grpc?.addModule(module);
  return module;
}

const INITS: Partial<Record<ModuleId, Init>> = {
  'http-server': (ctx) => {
    ctx.http = createHttpServer({
      logger: ctx.logger,
      trustProxy: ctx.config.NODE_ENV === 'production' ? 1 : false,
      responseCheck: ctx.config.API_RESPONSE_CHECK,
    });
    // /api/openapi.json and /api/docs: this process's operations; the web target (which the
    // ingress sends these paths to) publishes every service's, merged.
    const docs = createApiDocsRouter({
      info: { title: 'Kaboodle API', version: VERSION, description: API_DESCRIPTION },
      operations: () => (ctx.running.has('web') ? ALL_OPERATIONS : [...healthOperations, ...ctx.operations]),
    });
    ctx.http.mount(docs.router);
  },

  'grpc-server': (ctx) => {
    // Every gRPC caller runs in this process: wire in-process calls and open no port (Loki skips its
    // remote Pusher when distributor and ingester are co-located).
    if (SERVICES.every((s) => ctx.running.has(s))) return;
    ctx.grpc = createGrpcServer({
      logger: ctx.logger,
      port: ctx.config.GRPC_PORT,
      host: ctx.config.HOST,
      maxConnectionAgeMs: ctx.config.GRPC_MAX_CONNECTION_AGE,
      ...(ctx.tls && { tls: ctx.tls }),
    });
  },

  // Databases open as services ask for them (ctx.openDatabase); this module closes them last.
  database: (ctx) => ({
    stop: async () => {
      await Promise.all(ctx.databases.map((db) => db.close()));
    },
  }),

  'event-bus': (ctx) => {
    const c = ctx.config;
    const bus = openEventBus({
      brokers: c.KAFKA_BROKERS,
      clientId: `kaboodle-${ctx.targets.join('-')}`,
      logger: ctx.logger,
      kafka: {
        ...kafkaSecurity(c),
        idempotent: c.KAFKA_IDEMPOTENT === 'auto' ? 'auto' : c.KAFKA_IDEMPOTENT === 'true',
      },
    });
    ctx.bus = bus;
    // Not critical: the outbox keeps events while the broker is away, and consumers resume.
    ctx.http?.addChecks({ name: `event-bus.${bus.kind}`, check: () => bus.ping(), critical: false });
    return { stop: () => bus.close() };
  },

  'blob-store': (ctx) => {
    const c = ctx.config;
    const blobs = openBlobStore({
      s3Endpoint: c.S3_ENDPOINT,
      s3AccessKey: c.S3_ACCESS_KEY,
      s3SecretKey: c.S3_SECRET_KEY,
      s3Region: c.S3_REGION,
      bucket: c.S3_BUCKET,
      dataDir: c.KABOODLE_DATA_DIR,
    });
    ctx.blobs = blobs;
    // Not critical: most requests of a pod never touch files; those that do answer 503 themselves.
    ctx.http?.addChecks({ name: `blob-store.${blobs.kind}`, check: () => blobs.ping(), critical: false });
    return { stop: () => blobs.close() };
  },

  'token-verifier': (ctx) => {
    if (ctx.running.has('auth')) {
      // In-process: the auth module's keys and its session table (asked lazily: auth inits later).
      ctx.verifier = {
        verify: (token) => {
          if (!ctx.auth) throw new Error('auth module is not initialised');
          return ctx.auth.verifier.verify(token);
        },
      };
      return;
    }
    // Split: keys from the auth service's JWKS, and sign-outs learnt from the bus so a revoked
    // session's tokens stop working here at once rather than when they expire.
    const revoked = createSessionRevocationList();
    ctx.verifier = createTokenVerifier({
      jwksUrl: new URL('/api/auth/jwks', ctx.config.AUTH_URL),
      isRevoked: (user) => revoked.isRevoked(user),
    });
    let subscription: Subscription | undefined;
    return {
      start: async () => {
        subscription = await subscribeSessionRevocations(ctx.bus!, revoked);
      },
      stop: async () => {
        await subscription?.close();
      },
      // A revocation listener that died would let signed-out sessions' tokens work until they expire.
      background: () => subscription?.ended ?? Promise.resolve(),
    };
  },

  auth: async (ctx) => {
    const { createAuthModule, openMailer } = await import('@kaboodle/auth');
    const config = toAuthConfig(ctx.config);
    const mailer = openMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: ctx.config.KABOODLE_DATA_DIR,
      logger: childLogger(ctx.logger, 'auth.mail'),
    });
    const auth = createAuthModule({
      db: ctx.openDatabase('auth'),
      logger: ctx.logger,
      config,
      mailer,
      listenUrl: () => ctx.listenUrl,
      bus: ctx.bus!,
    });
    ctx.auth = auth;
    mountModule(ctx, auth);
    return {
      start: () => auth.start(),
      stop: async () => {
        await auth.stop();
        await mailer.close();
      },
      ...(auth.background && { background: () => auth.background!() }),
    };
  },

  ingestion: async (ctx) => {
    const { createIngestionModule } = await import('@kaboodle/ingestion');
    const ingestion = createIngestionModule({
      db: ctx.openDatabase('ingestion'),
      bus: ctx.bus!,
      blobs: ctx.blobs!,
      verifier: ctx.verifier!,
      logger: ctx.logger,
      config: ctx.config,
    });
    // Without the web target here, a deep link to the Processing Hub (GET /process, /upload)
    // that an Ingress sent to ingestion still opens the shell (web.module.ts).
    const running = mountModule(ctx, ingestion);
    if (!ctx.running.has('web')) ctx.http?.mount(createScreenEntryRouter(ctx.config.FRONTENDS_DIR));
    return running;
  },

  processing: async (ctx) => {
    const { createProcessingModule } = await import('@kaboodle/processing');
    ctx.processing = createProcessingModule({
      bus: ctx.bus!,
      blobs: ctx.blobs!,
      logger: ctx.logger,
      config: ctx.config,
    });
    return mountModule(ctx, ctx.processing);
  },

  catalogue: async (ctx) => {
    const { createCatalogueModule } = await import('@kaboodle/catalogue');
    ctx.catalogue = createCatalogueModule({
      db: ctx.openDatabase('catalogue'),
      bus: ctx.bus!,
      blobs: ctx.blobs!,
      verifier: ctx.verifier!,
      logger: ctx.logger,
      config: ctx.config,
      // Smart kaboodles and insights ask the search module directly when it runs here.
      ...(ctx.running.has('search')
        ? { search: () => (ctx.search ? librarySearchOf(ctx.search) : undefined) }
        : {}),
    });
    return mountModule(ctx, ctx.catalogue);
  },

  search: async (ctx) => {
    const { createSearchModule } = await import('@kaboodle/search');
    ctx.search = createSearchModule({
      bus: ctx.bus!,
      verifier: ctx.verifier!,
      logger: ctx.logger,
      config: ctx.config,
      processing: ctx.running.has('processing')
        ? { kind: 'in-process', module: () => ctx.processing! }
        : { kind: 'grpc', address: ctx.config.PROCESSING_GRPC_ADDRESS!, ...credentials(ctx) },
      // Index rebuilds read every entity from the catalogue (in-process, or gRPC when split).
      catalogue: ctx.running.has('catalogue')
        ? { kind: 'in-process', module: () => ctx.catalogue! }
        : ctx.config.CATALOGUE_GRPC_ADDRESS
          ? { kind: 'grpc', address: ctx.config.CATALOGUE_GRPC_ADDRESS, ...credentials(ctx) }
          : undefined,
    });
    return mountModule(ctx, ctx.search);
  },

  web: (ctx) => {
    const c = ctx.config;
    const remoteUrls = {
      ...(c.REMOTE_DASHBOARD_URL && { dashboard: c.REMOTE_DASHBOARD_URL }),
      ...(c.REMOTE_VAULT_URL && { vault: c.REMOTE_VAULT_URL }),
      ...(c.REMOTE_INVENTORY_URL && { inventory: c.REMOTE_INVENTORY_URL }),
      ...(c.REMOTE_OBSERVATORY_URL && { observatory: c.REMOTE_OBSERVATORY_URL }),
    };
    return mountModule(ctx, createWebModule({ frontendsDir: c.FRONTENDS_DIR, remoteUrls }));
  },
};

/** The modules a `--target` value runs (UnknownTargetError for names that are not targets). */
export function planTargets(target: string): {
  manager: ModuleManager<Context>;
  targets: string[];
  running: Set<string>;
} {
  const manager = new ModuleManager<Context>();
  for (const id of Object.keys(deps) as ModuleId[]) {
    const init = INITS[id];
    manager.register(id, { deps: deps[id], userVisible: TARGETS.has(id), ...(init && { init }) });
  }
  const targets = manager.parseTargets(target);
  return { manager, targets, running: new Set(manager.resolve(targets)) };
}

/**
 * A service's database: its own schema on Postgres. Embedded, one PGlite cluster per process (~300 MB
 * and seconds to start each) holds a schema per service; services split into separate processes
 * get a cluster each, since two processes must never share one.
 */
export function openServiceDatabase(
  config: KaboodleConfig,
  running: ReadonlySet<string>,
  service: string,
  logger: Logger,
): Database {
  const folder = DB_SERVICES.every((s) => running.has(s)) ? '.' : `services/${service}`;
  return openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.KABOODLE_DATA_DIR, folder),
    schema: service,
    logger: childLogger(logger, `${service}.database`),
  });
}
