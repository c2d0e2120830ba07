// Composes the modules a `--target` needs (Loki's modules.go): infrastructure modules (telemetry,
// HTTP and gRPC servers, engines, clients) are pulled in as dependencies; `all` has no code of its own.
// When a producer and its consumer share the process, the in-process adapter is wired instead of a
// remote one (the token verifier uses the auth module's keys, search calls processing directly).
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import { fileURLToPath } from 'node:url';
import {
  ConfigError,
  childLogger,
  createApiDocsRouter,
  combineConfigs,
  createGrpcServer,
  createHttpServer,
  grpcClientTls,
  createLogger,
  createSessionRevocationList,
  createTokenVerifier,
  healthOperations,
  listen,
  platformConfig,
  startTelemetry,
  subscribeSessionRevocations,
} from '@kaboodle/platform';
import { createKafkaEventBus } from '@kaboodle/platform';
import { kafkaSecurity } from '@kaboodle/platform';
import { createMemoryEventBus } from '@kaboodle/platform';
import { openBlobStore } from '@kaboodle/platform';
import { openDatabase } from '@kaboodle/platform';
import type {
  ChannelCredentials,
  GrpcTlsFiles,
  BlobStore,
  Database,
  EventBus,
  GrpcServer,
  HttpServer,
  Logger,
  OperationSpec,
  RunningServer,
  ServiceModule,
  Subscription,
  TokenVerifier,
} from '@kaboodle/platform';
// Config schemas only: each service's code is imported when its module is built (below), so a
// target loads only what it runs (the web target never loads the AI models' native libraries).
import { authConfigSchema, toAuthConfig } from '@kaboodle/auth/config';
import type { AuthModule } from '@kaboodle/auth';
import { ingestionConfig } from '@kaboodle/ingestion/config';
import { processingModuleConfig } from '@kaboodle/processing/config';
import type { ProcessingModule } from '@kaboodle/processing';
import type { CatalogueModule } from '@kaboodle/catalogue';
import { catalogueConfig } from '@kaboodle/catalogue/config';
import type { SearchModule } from '@kaboodle/search';
import { librarySearchOf } from './library-search.ts';
import { searchConfig } from '@kaboodle/search/config';
import { ModuleManager } from './module-manager.ts';
import type { RunningModule } from './module-manager.ts';
import { serverConfig } from './server-config.ts';
import { createScreenEntryRouter, createWebModule } from './web.module.ts';
import { ALL_OPERATIONS, API_DESCRIPTION } from './api-operations.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const VERSION: string = JSON.parse(
  readFileSync(path.join(here, '../../../package.json'), 'utf8'),
).version;

export const SERVICES = ['auth', 'ingestion', 'processing', 'catalogue', 'search'] as const;
/** Services that own a database. */
const DB_SERVICES = ['auth', 'ingestion', 'catalogue'] as const;
/** Services that publish or consume events: split across processes, they need a shared broker. */
const EVENT_SERVICES = new Set(['auth', 'ingestion', 'processing', 'catalogue', 'search']);

const configSchema = combineConfigs(
  combineConfigs(platformConfig, serverConfig),
  combineConfigs(authConfigSchema, processingModuleConfig),
  combineConfigs(ingestionConfig, catalogueConfig, searchConfig),
);
export type KaboodleConfig = ReturnType<typeof configSchema.parse>;

interface Context {
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

function registerModules(manager: ModuleManager<Context>): void {
  manager
    .register('http-server', {
      deps: [],
      userVisible: false,
      init: (ctx) => {
        ctx.http = createHttpServer({
          logger: ctx.logger,
          trustProxy: ctx.config.NODE_ENV === 'production' ? 1 : false,
          responseCheck: ctx.config.API_RESPONSE_CHECK,
        });
        // /api/openapi.json and /api/docs: this process's operations; the web target (which the
        // ingress sends these paths to) publishes every service's, merged.
        const docs = createApiDocsRouter({
          info: {
            title: 'Kaboodle API',
            version: VERSION,
            description: API_DESCRIPTION,
          },
          operations: () =>
            ctx.running.has('web') ? ALL_OPERATIONS : [...healthOperations, ...ctx.operations],
        });
        ctx.http.mount(docs.router);
      },
    })
    .register('grpc-server', {
      deps: [],
      userVisible: false,
      init: (ctx) => {
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
    })
    .register('database', {
      deps: [],
      userVisible: false,
      init: (ctx) => ({
        stop: async () => {
          await Promise.all(ctx.databases.map((db) => db.close()));
        },
      }),
    })
    .register('event-bus', {
      deps: [],
      userVisible: false,
      init: (ctx) => {
        const { KAFKA_BROKERS } = ctx.config;
        const bus = KAFKA_BROKERS
          ? createKafkaEventBus({
              brokers: KAFKA_BROKERS,
              clientId: `kaboodle-${ctx.targets.join('-')}`,
              logger: ctx.logger,
              ...kafkaSecurity(ctx.config),
              idempotent:
                ctx.config.KAFKA_IDEMPOTENT === 'auto' ? 'auto' : ctx.config.KAFKA_IDEMPOTENT === 'true',
            })
          : createMemoryEventBus({ logger: ctx.logger });
        ctx.bus = bus;
        // Not critical: the outbox keeps events while the broker is away, and consumers resume.
        ctx.http?.addChecks({ name: `event-bus.${bus.kind}`, check: () => bus.ping(), critical: false });
        return { stop: () => bus.close() };
      },
    })
    .register('blob-store', {
      deps: [],
      userVisible: false,
      init: (ctx) => {
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
    })
    .register('token-verifier', {
      deps: ['event-bus'],
      userVisible: false,
      init: (ctx) => {
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
        };
      },
    })
    .register('auth', {
      deps: ['http-server', 'database', 'event-bus'],
      userVisible: true,
      init: async (ctx) => {
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
        };
      },
    })
    .register('ingestion', {
      deps: ['http-server', 'database', 'event-bus', 'blob-store', 'token-verifier'],
      userVisible: true,
      init: async (ctx) => {
        const running = mountModule(
          ctx,
          (await import('@kaboodle/ingestion')).createIngestionModule({
            db: ctx.openDatabase('ingestion'),
            bus: ctx.bus!,
            blobs: ctx.blobs!,
            verifier: ctx.verifier!,
            logger: ctx.logger,
            config: ctx.config,
          }),
        );
        // Without the web target here, a deep link to the Processing Hub (GET /process, /upload)
        // that an Ingress sent to ingestion still opens the shell (web.module.ts).
        if (!ctx.running.has('web')) ctx.http?.mount(createScreenEntryRouter(ctx.config.FRONTENDS_DIR));
        return running;
      },
    })
    .register('processing', {
      deps: ['http-server', 'grpc-server', 'event-bus', 'blob-store'],
      userVisible: true,
      init: async (ctx) => {
        const { createProcessingModule } = await import('@kaboodle/processing');
        const processing = createProcessingModule({
          bus: ctx.bus!,
          blobs: ctx.blobs!,
          logger: ctx.logger,
          config: ctx.config,
        });
        ctx.processing = processing;
        return mountModule(ctx, processing);
      },
    })
    .register('catalogue', {
      deps: ['http-server', 'grpc-server', 'database', 'event-bus', 'blob-store', 'token-verifier'],
      userVisible: true,
      init: async (ctx) => {
        const { createCatalogueModule } = await import('@kaboodle/catalogue');
        const catalogue = createCatalogueModule({
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
        ctx.catalogue = catalogue;
        return mountModule(ctx, catalogue);
      },
    })
    .register('search', {
      deps: ['http-server', 'grpc-server', 'event-bus', 'token-verifier'],
      userVisible: true,
      init: async (ctx) => {
        const { createSearchModule } = await import('@kaboodle/search');
        const search = createSearchModule({
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
        ctx.search = search;
        return mountModule(ctx, search);
      },
    })
    .register('web', {
      deps: ['http-server'],
      userVisible: true,
      init: (ctx) => {
        const c = ctx.config;
        const remoteUrls = {
          ...(c.REMOTE_DASHBOARD_URL && { dashboard: c.REMOTE_DASHBOARD_URL }),
          ...(c.REMOTE_VAULT_URL && { vault: c.REMOTE_VAULT_URL }),
          ...(c.REMOTE_INVENTORY_URL && { inventory: c.REMOTE_INVENTORY_URL }),
          ...(c.REMOTE_OBSERVATORY_URL && { observatory: c.REMOTE_OBSERVATORY_URL }),
        };
        return mountModule(ctx, createWebModule({ frontendsDir: c.FRONTENDS_DIR, remoteUrls }));
      },
    })
    .register('all', { deps: [...SERVICES, 'web'], userVisible: true });
}

/**
 * Cross-key rules that depend on which targets share this process. They read the raw environment so
 * they are reported together with every other problem, even when some keys failed to parse.
 */
function targetProblems(
  env: Readonly<Record<string, string | undefined>>,
  running: ReadonlySet<string>,
): string[] {
  const has = (key: string) => (env[key]?.trim() ?? '') !== '';
  const problems: string[] = [];
  const services = SERVICES.filter((s) => running.has(s));
  const eventServices = services.filter((s) => EVENT_SERVICES.has(s));
  const allInProcess = SERVICES.every((s) => running.has(s));
  if (!has('KAFKA_BROKERS') && eventServices.length > 0 && !allInProcess) {
    problems.push(
      `KAFKA_BROKERS: is required when --target runs ${eventServices.join(', ')} without every other service in the same process (events must reach the other processes)`,
    );
  }
  if (!running.has('auth') && services.some((s) => s !== 'processing') && !has('AUTH_URL')) {
    problems.push(
      'AUTH_URL: is required when --target does not include auth (tokens are verified with its published keys)',
    );
  }
  if (running.has('auth') && env.NODE_ENV?.trim().toLowerCase() === 'production' && !has('AUTH_KEY_SECRET')) {
    problems.push(
      'AUTH_KEY_SECRET: is required when NODE_ENV=production (it seals the token-signing keys at rest; at least 16 random characters)',
    );
  }
  // Split services talk gRPC: in production that must be mutual TLS (or a mesh's, said explicitly).
  const split = !allInProcess && services.length > 0;
  if (
    split &&
    env.NODE_ENV === 'production' &&
    !has('GRPC_TLS_CERT_FILE') &&
    !['true', '1', 'yes'].includes((env.GRPC_INSECURE ?? '').trim().toLowerCase())
  ) {
    problems.push(
      'GRPC_TLS_CERT_FILE: is required with NODE_ENV=production when services run in separate processes (mutual TLS between them; GRPC_INSECURE=true only inside a mesh that does mTLS)',
    );
  }
  if (running.has('search') && !running.has('processing') && !has('PROCESSING_GRPC_ADDRESS')) {
    problems.push(
      'PROCESSING_GRPC_ADDRESS: is required when --target includes search but not processing (query embeddings)',
    );
  }
  return problems;
}

/** Engines that do not answer at start are configuration problems: one line each, then exit. */
export class EngineUnavailableError extends ConfigError {}

const ENGINE_TIMEOUT_MS = 15_000;

async function checkEngines(ctx: Context): Promise<void> {
  const c = ctx.config;
  const probes: { key: string; where: string; ping: () => Promise<void> }[] = [];
  const redactUrl = (u: string) => u.replace(/\/\/[^@/]*@/, '//***@');
  if (ctx.databases.length > 0) {
    probes.push({
      key: c.DATABASE_URL ? 'DATABASE_URL' : 'KABOODLE_DATA_DIR',
      where: c.DATABASE_URL ? redactUrl(c.DATABASE_URL) : `embedded Postgres under ${c.KABOODLE_DATA_DIR}`,
      ping: () => ctx.databases[0]!.ping(),
    });
  }
  if (ctx.bus?.kind === 'kafka') {
    probes.push({ key: 'KAFKA_BROKERS', where: c.KAFKA_BROKERS!.join(','), ping: () => ctx.bus!.ping() });
  }
  if (ctx.blobs) {
    probes.push({
      key: c.S3_ENDPOINT ? 'S3_ENDPOINT' : 'KABOODLE_DATA_DIR',
      where: c.S3_ENDPOINT ?? `blob folder under ${c.KABOODLE_DATA_DIR}`,
      ping: () => ctx.blobs!.ping(),
    });
  }
  const results = await Promise.all(
    probes.map(async (p) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          p.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer in ${ENGINE_TIMEOUT_MS / 1000} s`)),
              ENGINE_TIMEOUT_MS,
            );
          }),
        ]);
        return undefined;
      } catch (err) {
        return `${p.key}: ${p.where} does not answer: ${err instanceof Error ? err.message : String(err)}`;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const problems = results.filter((r): r is string => r !== undefined);
  if (problems.length > 0) throw new EngineUnavailableError(problems);
}

export interface KaboodleOptions {
  /** Value of --target (comma list). */
  target: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Log destination override (tests). */
  logger?: Logger;
}

export interface Kaboodle {
  readonly url: string;
  /** The HTTP app every module is mounted on (tests walk its routes). */
  readonly app: Express;
  readonly grpcAddress: string | undefined;
  readonly targets: readonly string[];
  stop(): Promise<void>;
}

/** The modules a `--target` value runs (UnknownTargetError for names that are not targets). */
export function planTargets(target: string): {
  manager: ModuleManager<Context>;
  targets: string[];
  running: Set<string>;
} {
  const manager = new ModuleManager<Context>();
  registerModules(manager);
  const targets = manager.parseTargets(target);
  return { manager, targets, running: new Set(manager.resolve(targets)) };
}

/** The whole configuration for these modules; ConfigError listing every problem. */
export function parseKaboodleConfig(
  source: Readonly<Record<string, string | undefined>>,
  running: ReadonlySet<string>,
): KaboodleConfig {
  const parsed = configSchema.safeParse(source);
  const problems = [...(parsed.ok ? [] : parsed.problems), ...targetProblems(source, running)];
  if (!parsed.ok || problems.length > 0) throw new ConfigError(problems);
  return parsed.config;
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

/** Parse config, start every module the targets need, then listen. Throws ConfigError for config problems. */
export async function startKaboodle(options: KaboodleOptions): Promise<Kaboodle> {
  const { manager, targets, running } = planTargets(options.target);
  const config = parseKaboodleConfig(options.env ?? process.env, running);

  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, component: 'kaboodle' });
  const telemetry = startTelemetry({
    serviceName: config.OTEL_SERVICE_NAME,
    serviceVersion: VERSION,
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });

  const tls: GrpcTlsFiles | undefined =
    config.GRPC_TLS_CERT_FILE && config.GRPC_TLS_KEY_FILE && config.GRPC_TLS_CA_FILE
      ? {
          certFile: config.GRPC_TLS_CERT_FILE,
          keyFile: config.GRPC_TLS_KEY_FILE,
          caFile: config.GRPC_TLS_CA_FILE,
        }
      : undefined;
  const ctx: Context = {
    config,
    targets,
    running,
    logger,
    ...(tls && { tls, grpcCredentials: grpcClientTls(tls) }),
    databases: [],
    operations: [],
    openDatabase(service) {
      // One database per service (architecture.md).
      const db = openServiceDatabase(config, running, service, logger);
      ctx.databases.push(db);
      return db;
    },
  };

  const onEvent = (msg: string, module: string) => logger.debug({ module }, msg);
  try {
    await manager.startAll(targets, ctx, { onEvent, afterInit: () => checkEngines(ctx) });
  } catch (err) {
    await telemetry.shutdown();
    throw err;
  }

  let httpServer: RunningServer | undefined;
  try {
    if (ctx.grpc) await ctx.grpc.start();
    httpServer = await listen(ctx.http!.app, config.PORT, config.HOST, {
      shutdownDeadlineMs: config.SHUTDOWN_TIMEOUT,
    });
    ctx.listenUrl = httpServer.url;
  } catch (err) {
    await ctx.grpc?.stop().catch(() => undefined);
    await manager.stopAll(onEvent);
    await telemetry.shutdown();
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return {
    url: httpServer.url,
    app: ctx.http!.app,
    grpcAddress: ctx.grpc?.address,
    targets,
    stop() {
      stopping ??= (async () => {
        // Stop taking work first, then stop modules in reverse dependency order.
        await httpServer.close();
        await ctx.grpc?.stop();
        const errors = await manager.stopAll(onEvent);
        for (const err of errors) logger.error({ err }, 'stopping a module failed');
        await telemetry.shutdown();
      })();
      return stopping;
    },
  };
}
