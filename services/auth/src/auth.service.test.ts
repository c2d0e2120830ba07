import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  createTokenVerifier,
  NotAllowedError,
  RateLimitError,
} from '@kaboodle/platform';
import type { Database } from '@kaboodle/platform';
import type { AuthConfig } from './auth-config.ts';
import { createAuthService } from './auth.service.ts';
import type { AuthService } from './auth.service.ts';
import { createKeyStore } from './key-store.service.ts';
import { createArgon2PasswordHasher } from './password-hasher.ts';
import { createMemoryRateLimiter } from './rate-limiter.ts';
import { createSessionRepository } from './session.repository.ts';
import { createTestDatabase } from './testing/test-database.ts';
import { createUserRepository } from './user.repository.ts';

const quiet = { info: () => {}, warn: () => {} };
const ctx = { ip: '127.0.0.1', userAgent: 'vitest' };

const config: AuthConfig = {
  googleClientId: null,
  googleJwksUrl: 'http://127.0.0.1:9/unused',
  adminEmails: ['boss@example.com'],
  keySecret: null,
  accessTokenTtlMs: 600_000,
  sessionTtlMs: 86_400_000,
  signingKeyRotationMs: 30 * 86_400_000,
  cookieSecure: true,
  allowedOrigins: [],
};

describe('auth service (domain, on embedded Postgres)', { timeout: 60_000 }, () => {
  let db: Database;
  let service: AuthService;
  let sessionsRepo: ReturnType<typeof createSessionRepository>;

  beforeAll(async () => {
    db = await createTestDatabase();
    sessionsRepo = createSessionRepository(db);
    const keys = createKeyStore({
      db,
      logger: quiet,
      secret: null,
      accessTokenTtlMs: 600_000,
      rotationMs: 1e12,
    });
    await keys.init();
    const verifier = createTokenVerifier({
      getJwks: () => keys.jwks(),
      isRevoked: async (u) => !(await sessionsRepo.isActive(u.sessionId)),
    });
    service = createAuthService({
      users: createUserRepository(db),
      sessions: sessionsRepo,
      keys,
      hasher: createArgon2PasswordHasher({ memoryCost: 1024, timeCost: 1 }),
      google: null,
      verifier,
      limiters: {
        accountFailures: createMemoryRateLimiter({ capacity: 5, windowMs: 15 * 60_000 }),
        registrations: createMemoryRateLimiter({ capacity: 100, windowMs: 60_000 }),
      },
      config,
      logger: quiet,
    });
  }, 60_000);
  afterAll(() => db.close());

  it('logout revokes the session: its access token and refresh cookie stop working', async () => {
    const s = await service.register({ email: 'rev@example.com', password: 'pw', name: 'Rev' }, ctx);
    await expect(service.currentSession({ accessToken: s.accessToken })).resolves.toMatchObject({
      user: { email: 'rev@example.com' },
    });
    await service.logout({ sessionToken: s.sessionToken });
    await expect(service.currentSession({ accessToken: s.accessToken })).rejects.toThrow('Not signed in');
    await expect(service.refresh(s.sessionToken)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('refresh rotates the secret; replaying the old one after the grace period revokes the session', async () => {
    const s = await service.login({ email: 'rev@example.com', password: 'pw' }, ctx);
    const r1 = await service.refresh(s.sessionToken);
    expect(r1.sessionToken).toBeDefined();
    expect(r1.sessionToken).not.toBe(s.sessionToken);
    // Within the grace period (another tab): a new access token, no new cookie.
    const dup = await service.refresh(s.sessionToken);
    expect(dup.sessionToken).toBeUndefined();
    // Long after: a stolen secret is being replayed.
    await db.query(`UPDATE sessions SET rotated_at = now() - interval '5 minutes'`);
    await expect(service.refresh(s.sessionToken)).rejects.toThrow('Session expired');
    await expect(service.refresh(r1.sessionToken)).rejects.toThrow('Session expired'); // whole session ended
  });

  it('refuses malformed and unknown session cookies', async () => {
    for (const bad of [undefined, '', 'x', 'a.b', `00000000-0000-4000-8000-000000000000.${'A'.repeat(43)}`]) {
      await expect(service.refresh(bad)).rejects.toBeInstanceOf(AuthenticationError);
    }
  });

  it('same "Login failed" for an unknown email and a wrong password', async () => {
    await expect(service.login({ email: 'nobody@example.com', password: 'pw' }, ctx)).rejects.toThrow(
      new AuthenticationError('Login failed'),
    );
    await expect(service.login({ email: 'rev@example.com', password: 'nope' }, ctx)).rejects.toThrow(
      new AuthenticationError('Login failed'),
    );
  });

  it('locks an account after 5 failures (429), whatever the IP', async () => {
    await service.register({ email: 'lock@example.com', password: 'right', name: 'L' }, ctx);
    for (let i = 0; i < 5; i++) {
      await expect(
        service.login({ email: 'lock@example.com', password: 'wrong' }, { ...ctx, ip: `10.0.0.${i}` }),
      ).rejects.toThrow('Login failed');
    }
    const err = await service
      .login({ email: 'LOCK@example.com', password: 'right' }, ctx)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterSeconds).toBeGreaterThan(0);
  });

  it('emails are unique case-insensitively', async () => {
    await expect(
      service.register({ email: 'REV@Example.COM', password: 'pw', name: 'Dup' }, ctx),
    ).rejects.toThrow('An account with this email already exists');
  });

  it('ADMIN_EMAILS makes admins on register; admin login refuses everyone else', async () => {
    const boss = await service.register({ email: 'Boss@Example.com', password: 'pw', name: 'Boss' }, ctx);
    expect(boss.user.role).toBe('admin');
    await expect(
      service.adminLogin({ email: 'boss@example.com', password: 'pw' }, ctx),
    ).resolves.toMatchObject({ user: { role: 'admin' } });
    await expect(service.adminLogin({ email: 'rev@example.com', password: 'pw' }, ctx)).rejects.toThrow(
      'Admin login failed',
    );
  });

  it('ADMIN_EMAILS applies on login too (promotes an existing account)', async () => {
    const s = await service.register({ email: 'later@example.com', password: 'pw', name: 'Later' }, ctx);
    expect(s.user.role).toBe('user');
    config.adminEmails.push('later@example.com');
    try {
      expect((await service.login({ email: 'later@example.com', password: 'pw' }, ctx)).user.role).toBe(
        'admin',
      );
    } finally {
      config.adminEmails.pop();
    }
  });

  it('lists users for admins only', async () => {
    const boss = await service.login({ email: 'boss@example.com', password: 'pw' }, ctx);
    const rev = await service.login({ email: 'rev@example.com', password: 'pw' }, ctx);
    const asUser = await createTokenVerifierFor(service, rev.accessToken);
    await expect(service.listUsers(asUser, { limit: 10, offset: 0 })).rejects.toBeInstanceOf(NotAllowedError);
    const asBoss = await createTokenVerifierFor(service, boss.accessToken);
    const users = await service.listUsers(asBoss, { limit: 100, offset: 0 });
    expect(users.map((u) => u.email)).toContain('rev@example.com');
    expect(users[0]).not.toHaveProperty('passwordHash');
  });

  it('changing the password revokes every other session and keeps this one', async () => {
    await service.register({ email: 'pw@example.com', password: 'old', name: 'P' }, ctx);
    const here = await service.login({ email: 'pw@example.com', password: 'old' }, ctx);
    const there = await service.login({ email: 'pw@example.com', password: 'old' }, ctx);
    const actor = await createTokenVerifierFor(service, here.accessToken);
    await expect(
      service.changePassword(actor, { currentPassword: 'wrong', newPassword: 'new' }),
    ).rejects.toThrow('Current password is incorrect');
    await service.changePassword(actor, { currentPassword: 'old', newPassword: 'new' });
    await expect(service.refresh(there.sessionToken)).rejects.toThrow('Session expired');
    await expect(service.refresh(here.sessionToken)).resolves.toBeTruthy();
    await expect(service.login({ email: 'pw@example.com', password: 'old' }, ctx)).rejects.toThrow(
      'Login failed',
    );
    await expect(service.login({ email: 'pw@example.com', password: 'new' }, ctx)).resolves.toBeTruthy();
  });
});

/** The AuthenticatedUser for a token, as requireUser would produce it (via the session endpoint). */
async function createTokenVerifierFor(service: AuthService, accessToken: string) {
  const { user } = await service.currentSession({ accessToken });
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as {
    sid: string;
    exp: number;
  };
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    sessionId: payload.sid,
    expiresAt: new Date(payload.exp * 1000),
  };
}
