// The auth service as a module of the `kaboodle` entrypoint: composes repositories, keys, limiters,
// the domain service and the router from its declared dependencies (database, logger, config).
import { childLogger, createTokenVerifier } from '@kaboodle/platform';
import type { Database, EventBus, HealthCheck, ServiceModule, TokenVerifier } from '@kaboodle/platform';
import { createOutbox, OUTBOX_MIGRATIONS } from '@kaboodle/platform/outbox/index.ts';
import type { Router } from 'express';
import type { JSONWebKeySet } from 'jose';
import type { Logger } from '@kaboodle/platform';
import type { AuthConfig } from './auth-config.ts';
import { createAuthGrpc } from './auth.grpc.ts';
import { createAuthRouter } from './auth.routes.ts';
import { createAuthService } from './auth.service.ts';
import type { AuthService } from './auth.service.ts';
import { createGoogleTokenVerifier } from './google-verifier.ts';
import { createKeyStore } from './key-store.service.ts';
import { authMigrations } from './migrations.ts';
import { createArgon2PasswordHasher } from './password-hasher.ts';
import type { Argon2Options } from './password-hasher.ts';
import { createMemoryRateLimiter } from './rate-limiter.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { createSessionRepository } from './session.repository.ts';
import { createUserRepository } from './user.repository.ts';
import type { UserRecord, UserRepository } from './user.repository.ts';
import { createAuthEvents } from './auth-events.ts';

export interface AuthModuleDeps {
  db: Database;
  logger: Logger;
  config: AuthConfig;
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
}

export interface AuthModule extends ServiceModule {
  readonly router: Router;
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
}

const HOUR = 3_600_000;

export function createAuthModule(deps: AuthModuleDeps): AuthModule {
  const { db, config } = deps;
  const logger = childLogger(deps.logger, 'auth');
  const users = createUserRepository(db);
  const sessions = createSessionRepository(db);
  const keys = createKeyStore({
    db,
    logger,
    secret: config.keySecret,
    accessTokenTtlMs: config.accessTokenTtlMs,
    rotationMs: config.signingKeyRotationMs,
  });

  const limiters: AuthModuleLimiters = {
    perIp: createMemoryRateLimiter({ capacity: 10, windowMs: 60_000 }),
    refreshPerIp: createMemoryRateLimiter({ capacity: 60, windowMs: 60_000 }),
    accountFailures: createMemoryRateLimiter({ capacity: 5, windowMs: 15 * 60_000 }),
    registrations: createMemoryRateLimiter({ capacity: 5, windowMs: 15 * 60_000 }),
    ...deps.options?.limiters,
  };

  // Logout must bite at once even though tokens are verified without a call: in-process, every
  // verification also asks whether the session is still live (cached briefly; logout clears the entry).
  const revocationCacheMs = deps.options?.revocationCacheMs ?? 5_000;
  const liveCache = new Map<string, { live: boolean; at: number }>();
  const isRevoked = async ({ sessionId }: { sessionId: string }): Promise<boolean> => {
    const hit = liveCache.get(sessionId);
    if (hit && Date.now() - hit.at < revocationCacheMs) return !hit.live;
    const live = await sessions.isActive(sessionId);
    if (liveCache.size > 50_000) liveCache.clear();
    liveCache.set(sessionId, { live, at: Date.now() });
    return !live;
  };
  // Revocations and account changes are announced through the outbox in the same transaction
  // (auth-events.ts); without a bus the transactions simply carry no events.
  const outbox = deps.bus ? createOutbox({ db, bus: deps.bus, logger }) : null;
  const events = createAuthEvents(outbox, config.accessTokenTtlMs);
  const sessionsWithEvents: typeof sessions = {
    ...sessions,
    async revoke(id, reason) {
      const revoked = await db.transaction(async (tx) => {
        const rows = await createSessionRepository(tx).revoke(id, reason);
        await events.sessionsRevoked(tx, rows);
        return rows;
      });
      liveCache.delete(id);
      return revoked;
    },
    async revokeAllForUser(userId, reason, exceptId) {
      const revoked = await db.transaction(async (tx) => {
        const rows = await createSessionRepository(tx).revokeAllForUser(userId, reason, exceptId);
        await events.sessionsRevoked(tx, rows);
        return rows;
      });
      for (const r of revoked) liveCache.delete(r.id);
      return revoked;
    },
  };
  const withUserEvent = async (write: (txUsers: UserRepository) => Promise<UserRecord | null>) =>
    db.transaction(async (tx) => {
      const user = await write(createUserRepository(tx));
      if (user) await events.userChanged(tx, user);
      return user;
    });
  const usersWithEvents: UserRepository = {
    ...users,
    create: async (u) => (await withUserEvent((r) => r.create(u)))!,
    updateProfile: (id, change) => withUserEvent((r) => r.updateProfile(id, change)),
    async setRole(id, role) {
      await withUserEvent(async (r) => {
        await r.setRole(id, role);
        return r.findById(id);
      });
    },
  };

  // keys.jwks() is cached by the key store, so an unknown kid may re-read it at once (no cooldown).
  const verifier = createTokenVerifier({ getJwks: () => keys.jwks(), isRevoked, refetchCooldownMs: 0 });
  const google = config.googleClientId
    ? createGoogleTokenVerifier({ clientId: config.googleClientId, jwksUrl: config.googleJwksUrl })
    : null;
  const service = createAuthService({
    users: usersWithEvents,
    sessions: sessionsWithEvents,
    keys,
    hasher: createArgon2PasswordHasher(deps.options?.argon2),
    google,
    verifier,
    limiters,
    config,
    logger,
  });
  const router = createAuthRouter({ service, verifier, keys, config, limiters });
  const grpc = [createAuthGrpc({ keys, verifier, users })];

  let timer: NodeJS.Timeout | undefined;
  async function housekeeping(): Promise<void> {
    try {
      await keys.rotateIfDue();
      const purged = await sessions.purge(new Date(Date.now() - 7 * 24 * HOUR));
      if (purged > 0) logger.info({ purged }, 'old sessions purged');
    } catch (err) {
      logger.error({ err }, 'auth housekeeping failed');
    }
  }

  return {
    name: 'auth',
    router,
    grpc,
    checks: [{ name: 'auth.database', check: () => db.ping() }],
    verifier,
    service,
    jwks: () => keys.jwks(),
    rotateSigningKey: (options) => keys.rotate(options),
    async start() {
      // The outbox tables always exist, so wiring a bus later (or removing it) never changes the schema.
      await db.migrate([...authMigrations, ...OUTBOX_MIGRATIONS]);
      await keys.init();
      await outbox?.start();
      await housekeeping();
      timer = setInterval(() => void housekeeping(), HOUR);
      timer.unref();
      logger.info({ google: google !== null, admins: config.adminEmails.length }, 'auth started');
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await outbox?.stop();
    },
  };
}
