// Composes the real pieces for the auth API tests: the platform HTTP kit, the auth module and
// embedded Postgres (PGlite) in a temporary directory, listening on a random loopback port.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpServer, createLogger, listen } from '@kaboodle/platform';
import type { Database } from '@kaboodle/platform';
import { createAuthModule, createMemoryRateLimiter, parseAuthConfig } from '@kaboodle/auth';
import type { AuthModule, AuthModuleLimiters } from '@kaboodle/auth';
import { createPgliteDatabase } from '@kaboodle/platform/adapters/pglite-database.ts';
import { createAuthClient } from './auth-client.ts';
import type { AuthClient } from './auth-client.ts';

export interface AuthTestServer {
  url: string;
  module: AuthModule;
  db: Database;
  /** A fresh browser-like client with an empty cookie jar. */
  client(): AuthClient;
  close(): Promise<void>;
}

export interface AuthTestServerOptions {
  /** Env keys for the auth config (COOKIE_SECURE, ADMIN_EMAILS, GOOGLE_CLIENT_ID, ...). */
  env?: Record<string, string>;
  /** Keep the production rate limits (default: relaxed, so suites can sign in many times from 127.0.0.1). */
  productionLimits?: boolean;
}

export async function startAuthTestServer(options: AuthTestServerOptions = {}): Promise<AuthTestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kaboodle-auth-api-'));
  const logger = createLogger({
    component: 'auth-api-test',
    level: process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent',
  });
  const db = createPgliteDatabase({ dataDir: join(dataDir, 'pglite'), schema: 'auth' });
  const relaxed = (): AuthModuleLimiters => {
    const lots = () => createMemoryRateLimiter({ capacity: 10_000, windowMs: 60_000 });
    return { perIp: lots(), refreshPerIp: lots(), accountFailures: lots(), registrations: lots() };
  };
  const module = createAuthModule({
    db,
    logger,
    config: parseAuthConfig({ ...options.env }),
    options: { limiters: options.productionLimits ? {} : relaxed() },
  });
  await module.start();
  const http = createHttpServer({ logger, routers: [module.router], checks: module.checks });
  const running = await listen(http.app, 0, '127.0.0.1');
  return {
    url: running.url,
    module,
    db,
    client: () => createAuthClient(running.url),
    async close() {
      await running.close(1000);
      await module.stop();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
