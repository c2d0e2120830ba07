// Starts what a `--target` needs: parse the configuration once, init and start the modules in the
// order their dependencies give (kaboodle-modules.ts), check the engines answer, then listen; stop in
// reverse. A module that fails after start fails readiness and resolves `failed` (module-failures.ts).
import type { Express } from 'express';
import { createLogger, grpcClientTls, listen, startTelemetry } from '@kaboodle/platform';
import type { GrpcTlsFiles, Logger, RunningServer } from '@kaboodle/platform';
import { checkEngines } from './engine-check.ts';
import { parseKaboodleConfig } from './kaboodle-config.ts';
import { openServiceDatabase, planTargets } from './kaboodle-modules.ts';
import type { Context } from './kaboodle-modules.ts';
import { createModuleFailures } from './module-failures.ts';
import { VERSION } from './version.ts';

export { EngineUnavailableError } from './engine-check.ts';
export { parseKaboodleConfig, SERVICES } from './kaboodle-config.ts';
export type { KaboodleConfig } from './kaboodle-config.ts';
export { openServiceDatabase, planTargets } from './kaboodle-modules.ts';
export { VERSION } from './version.ts';

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
  /** Resolves when a module fails after start (readiness already fails); the caller stops and exits non-zero. */
  readonly failed: Promise<Error>;
  stop(): Promise<void>;
}

const tlsFiles = (c: ReturnType<typeof parseKaboodleConfig>): GrpcTlsFiles | undefined =>
  c.GRPC_TLS_CERT_FILE && c.GRPC_TLS_KEY_FILE && c.GRPC_TLS_CA_FILE
    ? { certFile: c.GRPC_TLS_CERT_FILE, keyFile: c.GRPC_TLS_KEY_FILE, caFile: c.GRPC_TLS_CA_FILE }
    : undefined;

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

  const tls = tlsFiles(config);
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
  const failures = createModuleFailures({ logger, http: () => ctx.http });
  try {
    await manager.startAll(targets, ctx, {
      onEvent,
      afterInit: () => checkEngines(ctx),
      onFailure: (id, err) => failures.report(id, err),
    });
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
    failed: failures.failed,
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
