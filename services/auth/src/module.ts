// The auth service as a module of the `kaboodle` entrypoint: composes repositories, keys, limiters,
// the domain service and the router from its declared dependencies (database, logger, config).
import { createTokenVerifier } from '@kaboodle/platform';
import type { Database, HealthCheck, ServiceModule, TokenVerifier } from '@kaboodle/platform';
import type { Router } from 'express';
import type { JSONWebKeySet } from 'jose';
import type { Logger } from '@kaboodle/platform';
import type { AuthConfig } from './auth-config.ts';
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

export interface AuthModuleDeps {
  db: Database;
  logger: Logger;
  config: AuthConfig;
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
  const logger = deps.logger.child({ component: 'auth' });
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
  const sessionsWithCache: typeof sessions = {
    ...sessions,
    async revoke(id, reason) {
      await sessions.revoke(id, reason);
      liveCache.delete(id);
    },
    async revokeAllForUser(userId, reason, exceptId) {
      const n = await sessions.revokeAllForUser(userId, reason, exceptId);
      liveCache.clear();
      return n;
    },
  };

  // keys.jwks() is cached by the key store, so an unknown kid may re-read it at once (no cooldown).
  const verifier = createTokenVerifier({ getJwks: () => keys.jwks(), isRevoked, refetchCooldownMs: 0 });
  const google = config.googleClientId
    ? createGoogleTokenVerifier({ clientId: config.googleClientId, jwksUrl: config.googleJwksUrl })
    : null;
  const service = createAuthService({
    users,
    sessions: sessionsWithCache,
    keys,
    hasher: createArgon2PasswordHasher(deps.options?.argon2),
    google,
    verifier,
    limiters,
    config,
    logger,
  });
  const router = createAuthRouter({ service, verifier, keys, config, limiters });

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
    checks: [{ name: 'database', check: () => db.ping() }],
    verifier,
    service,
    jwks: () => keys.jwks(),
    rotateSigningKey: (options) => keys.rotate(options),
    async start() {
      await db.migrate(authMigrations);
      await keys.init();
      await housekeeping();
      timer = setInterval(() => void housekeeping(), HOUR);
      timer.unref();
      logger.info({ google: google !== null, admins: config.adminEmails.length }, 'auth started');
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
