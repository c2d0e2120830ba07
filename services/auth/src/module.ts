// The auth service as a module of the `kaboodle` entrypoint: composes repositories, keys, limiters,
// the mail links, the domain services and the router from its declared dependencies (database,
// logger, config, mailer).
import { childLogger, createTokenVerifier } from '@kaboodle/platform';
import type {
  Database,
  EventBus,
  HealthCheck,
  Logger,
  OperationSpec,
  ServiceModule,
  TokenVerifier,
} from '@kaboodle/platform';
import { createOutbox, OUTBOX_MIGRATIONS } from '@kaboodle/platform';
import type { Router } from 'express';
import type { JSONWebKeySet } from 'jose';
import { createAccountMail } from './account-mail.ts';
import { createAccountService } from './account.service.ts';
import type { AccountService } from './account.service.ts';
import type { AuthConfig } from './auth-config.ts';
import { createAuthCore } from './auth-core.ts';
import { createAuthStores } from './auth-stores.ts';
import { createBackgroundTasks } from './background-tasks.ts';
import { createAuthGrpc } from './auth.grpc.ts';
import { createAuthRouter } from './auth.routes.ts';
import { createAuthService } from './auth.service.ts';
import type { AuthService } from './auth.service.ts';
import { createGoogleTokenVerifier } from './google-verifier.ts';
import { createKeyStore } from './key-store.service.ts';
import type { Mailer } from './mail/mailer.ts';
import { authMigrations } from './migrations.ts';
import { createArgon2PasswordHasher } from './password-hasher.ts';
import type { Argon2Options } from './password-hasher.ts';
import { createMemoryRateLimiter, createPostgresRateLimiter } from './rate-limiter.ts';
import type { RateLimiter, RateLimitRule } from './rate-limiter.ts';
import { createRoles } from './roles.ts';
import type { Roles } from './roles.ts';

export interface AuthModuleDeps {
  db: Database;
  logger: Logger;
  config: AuthConfig;
  /** Sends the verification and password reset links (see mail/open-mailer.ts); its creator closes it. */
  mailer: Mailer;
  /**
   * The address this server answers at, for links when PUBLIC_BASE_URL is not set (known once the
   * server listens; one machine only: config requires PUBLIC_BASE_URL with SMTP).
   */
  listenUrl?: () => string | undefined;
  /** Publishes kaboodle.session.revoked.v1 and kaboodle.user.changed.v1 (via the outbox) when given. */
  bus?: EventBus;
  /** Overrides for tests and tuning; production uses the defaults. */
  options?: {
    argon2?: Argon2Options;
    limiters?: Partial<AuthModuleLimiters>;
    /** How long a session's "still live" answer is reused by the in-process verifier (default 5 s). */
    revocationCacheMs?: number;
  };
}

export interface AuthModuleLimiters {
  perIp: RateLimiter;
  refreshPerIp: RateLimiter;
  accountFailures: RateLimiter;
  registrations: RateLimiter;
  /** Links mailed per account (verification, email change) and per address (password reset). */
  mailPerAccount: RateLimiter;
}

export interface AuthModule extends ServiceModule {
  readonly router: Router;
  readonly operations: readonly OperationSpec[];
  readonly checks: HealthCheck[];
  start(): Promise<void>;
  stop(): Promise<void>;
  /** In-process verifier for `--target=all`: the module's own keys, plus the session revocation check. */
  readonly verifier: TokenVerifier;
  /** The published key set (what GET /api/auth/jwks serves). */
  jwks(): Promise<JSONWebKeySet>;
  /** Rotate the signing key (published now, signing after the activation delay unless immediate). */
  rotateSigningKey(options?: { immediate?: boolean }): Promise<string>;
  readonly service: AuthService;
  readonly account: AccountService;
  /** The admin role by the operator's word (what `kaboodle admin grant|revoke` calls). */
  readonly roles: Pick<Roles, 'grant' | 'revoke'>;
}

const HOUR = 3_600_000;

export function createAuthModule(deps: AuthModuleDeps): AuthModule {
  const { db, config } = deps;
  const logger = childLogger(deps.logger, 'auth');
  const keys = createKeyStore({
    db,
    logger,
    secret: config.keySecret,
    accessTokenTtlMs: config.accessTokenTtlMs,
    rotationMs: config.signingKeyRotationMs,
  });

  // On Postgres every replica counts in the one table (a per-process count would multiply each
  // limit by the replica count); embedded (PGlite) there is one process, so memory is exact.
  const limiter = (name: string, rule: RateLimitRule): RateLimiter =>
    db.kind === 'postgres' ? createPostgresRateLimiter({ db, name, ...rule }) : createMemoryRateLimiter(rule);
  const limiters: AuthModuleLimiters = {
    perIp: limiter('ip', { capacity: 10, windowMs: 60_000 }),
    refreshPerIp: limiter('refresh-ip', { capacity: 60, windowMs: 60_000 }),
    accountFailures: limiter('failures', { capacity: 5, windowMs: 15 * 60_000 }),
    registrations: limiter('registrations', { capacity: 5, windowMs: 15 * 60_000 }),
    mailPerAccount: limiter('mail', { capacity: 3, windowMs: 15 * 60_000 }),
    ...deps.options?.limiters,
  };

  // Logout must bite at once even though tokens are verified without a call: in-process, every
  // verification also asks whether the session is still live (cached briefly; a revocation made by
  // this process clears the entry).
  const revocationCacheMs = deps.options?.revocationCacheMs ?? 5_000;
  const liveCache = new Map<string, { live: boolean; at: number }>();
  // Revocations and account changes are announced through the outbox in the same transaction
  // (auth-stores.ts); without a bus the transactions simply carry no events.
  const outbox = deps.bus ? createOutbox({ db, bus: deps.bus, logger }) : null;
  const stores = createAuthStores({
    db,
    outbox,
    accessTokenTtlMs: config.accessTokenTtlMs,
    onRevoked: (rows) => rows.forEach((r) => liveCache.delete(r.id)),
  });
  const isRevoked = async ({ sessionId }: { sessionId: string }): Promise<boolean> => {
    const hit = liveCache.get(sessionId);
    if (hit && Date.now() - hit.at < revocationCacheMs) return !hit.live;
    const live = await stores.sessions.isActive(sessionId);
    if (liveCache.size > 50_000) liveCache.clear();
    liveCache.set(sessionId, { live, at: Date.now() });
    return !live;
  };

  // keys.jwks() is cached by the key store, so an unknown kid may re-read it at once (no cooldown).
  const verifier = createTokenVerifier({ getJwks: () => keys.jwks(), isRevoked, refetchCooldownMs: 0 });
  const google = config.googleClientId
    ? createGoogleTokenVerifier({ clientId: config.googleClientId, jwksUrl: config.googleJwksUrl })
    : null;
  const hasher = createArgon2PasswordHasher(deps.options?.argon2);
  const background = createBackgroundTasks(logger);
  const core = createAuthCore({ stores, keys, hasher, config, accountFailures: limiters.accountFailures });
  const roles = createRoles({ stores, adminEmails: config.adminEmails, logger });
  const mail = createAccountMail({
    tokens: stores.tokens,
    mailer: deps.mailer,
    logger,
    baseUrl: () => {
      const base = config.publicBaseUrl ?? deps.listenUrl?.();
      if (!base) throw new Error('no address for links: set PUBLIC_BASE_URL');
      return base.replace(/\/+$/, '');
    },
  });
  const service = createAuthService({
    stores,
    core,
    roles,
    mail,
    background,
    hasher,
    google,
    verifier,
    limiters,
    config,
    logger,
  });
  const account = createAccountService({
    stores,
    core,
    roles,
    mail,
    hasher,
    keys,
    mailPerAccount: limiters.mailPerAccount,
    background,
    logger,
  });
  const { router, operations } = createAuthRouter({ service, account, verifier, keys, config, limiters });
  const grpc = [createAuthGrpc({ keys, verifier, users: stores.users })];

  let timer: NodeJS.Timeout | undefined;
  async function housekeeping(): Promise<void> {
    try {
      await keys.rotateIfDue();
      const weekAgo = new Date(Date.now() - 7 * 24 * HOUR);
      const purged = await stores.sessions.purge(weekAgo);
      const links = await stores.tokens.purge(weekAgo);
      if (purged + links > 0) logger.info({ purged, links }, 'old sessions and mailed links purged');
    } catch (err) {
      logger.error({ err }, 'auth housekeeping failed');
    }
  }

  return {
    name: 'auth',
    router,
    operations,
    grpc,
    checks: [{ name: 'auth.database', check: () => db.ping() }],
    verifier,
    service,
    account,
    roles,
    jwks: () => keys.jwks(),
    rotateSigningKey: (options) => keys.rotate(options),
    async start() {
      // The outbox tables always exist, so wiring a bus later (or removing it) never changes the schema.
      await db.migrate([...authMigrations, ...OUTBOX_MIGRATIONS]);
      await keys.init();
      await outbox?.start();
      // ADMIN_EMAILS may have changed since the last start: roles follow it before anyone signs in.
      const changed = await roles.reconcile();
      if (changed > 0) logger.info({ changed }, 'roles brought in line with ADMIN_EMAILS and grants');
      await housekeeping();
      timer = setInterval(() => void housekeeping(), HOUR);
      timer.unref();
      logger.info(
        { google: google !== null, admins: config.adminEmails.length, mail: deps.mailer.kind },
        'auth started',
      );
    },
    // The outbox relay: the housekeeping timer catches and logs its own failures.
    background: () => outbox?.ended() ?? Promise.resolve(),
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      // links being mailed after their answer finish before the database goes
      await background.drain();
      await outbox?.stop();
    },
  };
}
