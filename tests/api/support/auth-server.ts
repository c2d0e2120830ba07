// Composes the real pieces for the auth API tests: the platform HTTP kit (answers checked against
// their declared schemas), the auth module, embedded Postgres (PGlite) and the local mail folder in
// a temporary directory, listening on a random loopback port.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpServer, createLogger, listen } from '@kaboodle/platform';
import type { Database, EventBus } from '@kaboodle/platform';
import { createAuthModule, createMemoryRateLimiter, openMailer, parseAuthConfig } from '@kaboodle/auth';
import type { AuthModule, AuthModuleLimiters } from '@kaboodle/auth';
import { createPgliteDatabase } from '@kaboodle/platform';
import { readMailFolder, tokenOf, waitForMail } from '../../../services/auth/src/testing/mail-folder.ts';
import type { ReceivedMail } from '../../../services/auth/src/testing/mail-folder.ts';
import { createAuthClient } from './auth-client.ts';
import type { AuthClient } from './auth-client.ts';

export interface AuthTestServer {
  url: string;
  module: AuthModule;
  db: Database;
  /** The data folder (mail/ holds the messages the local mail adapter wrote). */
  dataDir: string;
  /** A fresh browser-like client with an empty cookie jar. */
  client(): AuthClient;
  /** Every message mailed so far, oldest first. */
  mails(): Promise<ReceivedMail[]>;
  /** The newest message to `to` whose subject matches, waiting for it. */
  mailTo(to: string, subject: RegExp): Promise<ReceivedMail>;
  /** Opens the newest verification link mailed to `to` (as the verify-email page does). */
  verify(to: string): Promise<void>;
  /** Stops the server; keepData leaves the data folder for a restart on it. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface AuthTestServerOptions {
  /** Env keys for the auth config (COOKIE_SECURE, ADMIN_EMAILS, GOOGLE_CLIENT_ID, ...). */
  env?: Record<string, string>;
  /** Keep the production rate limits (default: relaxed, so suites can sign in many times from 127.0.0.1). */
  productionLimits?: boolean;
  /** Start on the data folder of an earlier server (a restart). */
  dataDir?: string;
  bus?: EventBus;
}

export async function startAuthTestServer(options: AuthTestServerOptions = {}): Promise<AuthTestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'kaboodle-auth-api-')));
  const logger = createLogger({
    component: 'auth-api-test',
    level: process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent',
  });
  const db = createPgliteDatabase({ dataDir: join(dataDir, 'pglite'), schema: 'auth' });
  const relaxed = (): AuthModuleLimiters => {
    const lots = () => createMemoryRateLimiter({ capacity: 10_000, windowMs: 60_000 });
    return {
      perIp: lots(),
      refreshPerIp: lots(),
      accountFailures: lots(),
      registrations: lots(),
      mailPerAccount: lots(),
    };
  };
  const config = parseAuthConfig({ ...options.env });
  const mailer = openMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir, logger });
  // known once the server listens; the module asks for it only when it mails a link
  const address: { url?: string } = {};
  const module = createAuthModule({
    db,
    logger,
    config,
    mailer,
    listenUrl: () => address.url,
    ...(options.bus ? { bus: options.bus } : {}),
    options: { limiters: options.productionLimits ? {} : relaxed() },
  });
  await module.start();
  const http = createHttpServer({
    logger,
    routers: [module.router],
    checks: module.checks,
    responseCheck: 'strict',
  });
  const running = await listen(http.app, 0, '127.0.0.1');
  address.url = running.url;
  const mailDir = join(dataDir, 'mail');
  const mailTo = (to: string, subject: RegExp) => waitForMail(mailDir, to, subject);
  return {
    url: running.url,
    module,
    db,
    dataDir,
    client: () => createAuthClient(running.url),
    mails: () => readMailFolder(mailDir),
    mailTo,
    async verify(to) {
      const mail = await mailTo(to, /Verify your Kaboodle email|Confirm your new Kaboodle email/);
      const res = await createAuthClient(running.url).request('POST', '/api/auth/verify-email', {
        body: { token: tokenOf(mail.link) },
      });
      if (res.status !== 200)
        throw new Error(`verifying ${to} answered ${res.status}: ${JSON.stringify(res.body)}`);
    },
    async close(closeOptions) {
      await running.close(1000);
      await module.stop();
      await mailer.close();
      await db.close();
      if (!closeOptions?.keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
