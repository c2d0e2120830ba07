// The auth domain on embedded Postgres, through the module's composition (no HTTP): sessions,
// refresh rotation, failure limits, and roles that follow verified addresses only.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, createLogger, NotAllowedError, RateLimitError } from '@kaboodle/platform';
import type { AuthenticatedUser, Database } from '@kaboodle/platform';
import { parseAuthConfig } from './auth-config.ts';
import { createLocalMailer } from './mail/local-mailer.ts';
import { createAuthModule } from './module.ts';
import type { AuthModule } from './module.ts';
import { createMemoryRateLimiter } from './rate-limiter.ts';
import { createTestDatabase } from './testing/test-database.ts';
import { tokenOf, waitForMail } from './testing/mail-folder.ts';

const ctx = { ip: '127.0.0.1', userAgent: 'vitest' };
const PW = 'Analytical-Engine-1843';

describe('auth service (domain, on embedded Postgres)', { timeout: 60_000 }, () => {
  let db: Database;
  let auth: AuthModule;
  let mailDir: string;

  const verify = async (email: string) => {
    const mail = await waitForMail(mailDir, email, /Verify your Kaboodle email/);
    await auth.account.verifyEmail(tokenOf(mail.link));
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    mailDir = await mkdtemp(path.join(tmpdir(), 'auth-unit-mail-'));
    const logger = createLogger({ component: 'auth-test', level: 'silent' });
    auth = createAuthModule({
      db,
      logger,
      config: parseAuthConfig({ ADMIN_EMAILS: 'boss@example.com' }),
      mailer: createLocalMailer({ dir: mailDir, from: 'Kaboodle <kaboodle@localhost>', logger }),
      listenUrl: () => 'http://kaboodle.test',
      options: {
        argon2: { memoryCost: 1024, timeCost: 1 },
        limiters: { registrations: createMemoryRateLimiter({ capacity: 100, windowMs: 60_000 }) },
      },
    });
    await auth.start();
  }, 60_000);
  afterAll(async () => {
    await auth?.stop();
    await db?.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  it('logout revokes the session: its access token and refresh cookie stop working', async () => {
    const s = await auth.service.register({ email: 'rev@example.com', password: PW, name: 'Rev' }, ctx);
    await expect(auth.service.currentSession({ accessToken: s.accessToken })).resolves.toMatchObject({
      user: { email: 'rev@example.com' },
    });
    await auth.service.logout({ sessionToken: s.sessionToken });
    await expect(auth.service.currentSession({ accessToken: s.accessToken })).rejects.toThrow(
      'Not signed in',
    );
    await expect(auth.service.refresh(s.sessionToken)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('refresh rotates the secret; replaying the old one after the grace period revokes the session', async () => {
    const s = await auth.service.login({ email: 'rev@example.com', password: PW }, ctx);
    const r1 = await auth.service.refresh(s.sessionToken);
    expect(r1.sessionToken).toBeDefined();
    expect(r1.sessionToken).not.toBe(s.sessionToken);
    // Within the grace period (another tab): a new access token, no new cookie.
    const dup = await auth.service.refresh(s.sessionToken);
    expect(dup.sessionToken).toBeUndefined();
    // Long after: a stolen secret is being replayed.
    await db.query(`UPDATE sessions SET rotated_at = now() - interval '5 minutes'`);
    await expect(auth.service.refresh(s.sessionToken)).rejects.toThrow('Session expired');
    await expect(auth.service.refresh(r1.sessionToken)).rejects.toThrow('Session expired'); // whole session ended
  });

  it('refuses malformed and unknown session cookies', async () => {
    for (const bad of [undefined, '', 'x', 'a.b', `00000000-0000-4000-8000-000000000000.${'A'.repeat(43)}`]) {
      await expect(auth.service.refresh(bad)).rejects.toBeInstanceOf(AuthenticationError);
    }
  });

  it('same "Login failed" for an unknown email and a wrong password', async () => {
    await expect(auth.service.login({ email: 'nobody@example.com', password: PW }, ctx)).rejects.toThrow(
      new AuthenticationError('Login failed'),
    );
    await expect(auth.service.login({ email: 'rev@example.com', password: 'nope' }, ctx)).rejects.toThrow(
      new AuthenticationError('Login failed'),
    );
  });

  it('locks an account after 5 failures (429), whatever the IP', async () => {
    await auth.service.register({ email: 'lock@example.com', password: PW, name: 'L' }, ctx);
    for (let i = 0; i < 5; i++) {
      await expect(
        auth.service.login({ email: 'lock@example.com', password: 'wrong' }, { ...ctx, ip: `10.0.0.${i}` }),
      ).rejects.toThrow('Login failed');
    }
    const err = await auth.service
      .login({ email: 'LOCK@example.com', password: PW }, ctx)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterSeconds).toBeGreaterThan(0);
  });

  it('emails are unique case-insensitively', async () => {
    await expect(
      auth.service.register({ email: 'REV@Example.COM', password: PW, name: 'Dup' }, ctx),
    ).rejects.toThrow('An account with this email already exists');
  });

  it('ADMIN_EMAILS makes an admin only once the address is verified; admin login refuses everyone else', async () => {
    const boss = await auth.service.register({ email: 'Boss@Example.com', password: PW, name: 'Boss' }, ctx);
    expect(boss.user).toMatchObject({ role: 'user', email_verified_at: null });
    await expect(auth.service.adminLogin({ email: 'boss@example.com', password: PW }, ctx)).rejects.toThrow(
      'Admin login failed',
    );
    await verify('Boss@Example.com');
    await expect(
      auth.service.adminLogin({ email: 'boss@example.com', password: PW }, ctx),
    ).resolves.toMatchObject({ user: { role: 'admin', email_verified_at: expect.any(String) } });
    await expect(auth.service.adminLogin({ email: 'rev@example.com', password: PW }, ctx)).rejects.toThrow(
      'Admin login failed',
    );
  });

  it('lists users for admins only (the stored role, not the token)', async () => {
    const boss = await auth.service.login({ email: 'boss@example.com', password: PW }, ctx);
    const rev = await auth.service.login({ email: 'rev@example.com', password: PW }, ctx);
    await expect(
      auth.account.listUsers(await actorOf(auth, rev.accessToken), { limit: 10, offset: 0 }),
    ).rejects.toBeInstanceOf(NotAllowedError);
    const users = await auth.account.listUsers(await actorOf(auth, boss.accessToken), {
      limit: 100,
      offset: 0,
    });
    expect(users.map((u) => u.email)).toContain('rev@example.com');
    expect(users[0]).not.toHaveProperty('passwordHash');
  });

  it('the operator revokes an admin: every session ends, and ADMIN_EMAILS no longer makes it one', async () => {
    const boss = await auth.service.login({ email: 'boss@example.com', password: PW }, ctx);
    expect(boss.user.role).toBe('admin');
    expect(await auth.roles.revoke('BOSS@example.com')).toEqual({
      email: 'Boss@Example.com',
      role: 'user',
      revokedSessions: expect.any(Number),
    });
    await expect(auth.verifier.verify(boss.accessToken)).rejects.toThrow();
    await expect(auth.service.refresh(boss.sessionToken)).rejects.toThrow('Session expired');
    expect((await auth.service.login({ email: 'boss@example.com', password: PW }, ctx)).user.role).toBe(
      'user',
    );
    expect((await auth.roles.grant('boss@example.com')).role).toBe('admin');
    expect((await auth.service.login({ email: 'boss@example.com', password: PW }, ctx)).user.role).toBe(
      'admin',
    );
  });

  it('a grant needs a verified address; an unknown address is named', async () => {
    await auth.service.register({ email: 'fresh@example.com', password: PW, name: 'F' }, ctx);
    await expect(auth.roles.grant('fresh@example.com')).rejects.toThrow(/has not verified its address/);
    await expect(auth.roles.grant('ghost@example.com')).rejects.toThrow(
      'No account uses the address ghost@example.com',
    );
  });

  it('refresh re-reads the role: an admin who lost it outside this process is signed out, not refreshed', async () => {
    const boss = await auth.service.login({ email: 'boss@example.com', password: PW }, ctx);
    expect(boss.user.role).toBe('admin');
    // e.g. `kaboodle admin revoke` run against the database while this process runs
    await db.query(`UPDATE users SET admin_grant = 'revoked' WHERE email_normalized = 'boss@example.com'`);
    await expect(auth.service.refresh(boss.sessionToken)).rejects.toThrow('Session expired');
    await expect(auth.verifier.verify(boss.accessToken)).rejects.toThrow();
    expect((await auth.service.login({ email: 'boss@example.com', password: PW }, ctx)).user.role).toBe(
      'user',
    );
    await auth.roles.grant('boss@example.com');
  });

  it('changing the password revokes every other session and keeps this one', async () => {
    await auth.service.register({ email: 'pw@example.com', password: PW, name: 'P' }, ctx);
    const here = await auth.service.login({ email: 'pw@example.com', password: PW }, ctx);
    const there = await auth.service.login({ email: 'pw@example.com', password: PW }, ctx);
    const actor = await actorOf(auth, here.accessToken);
    const next = `${PW}-renewed`;
    await expect(
      auth.account.changePassword(actor, { currentPassword: 'wrong', newPassword: next }),
    ).rejects.toThrow('Current password is incorrect');
    await auth.account.changePassword(actor, { currentPassword: PW, newPassword: next });
    await expect(auth.service.refresh(there.sessionToken)).rejects.toThrow('Session expired');
    await expect(auth.service.refresh(here.sessionToken)).resolves.toBeTruthy();
    await expect(auth.service.login({ email: 'pw@example.com', password: PW }, ctx)).rejects.toThrow(
      'Login failed',
    );
    await expect(auth.service.login({ email: 'pw@example.com', password: next }, ctx)).resolves.toBeTruthy();
  });

  it('links in mail point at the configured address and carry a fresh 256-bit secret each time', async () => {
    const first = await waitForMail(mailDir, 'pw@example.com', /Verify/);
    expect(first.link).toMatch(/^http:\/\/kaboodle\.test\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
    const { rows } = await db.query<{ token_hash: string }>(`SELECT token_hash FROM email_tokens`);
    // only hashes are stored
    expect(rows.map((r) => r.token_hash)).not.toContain(tokenOf(first.link));
  });
});

/** The AuthenticatedUser for a token, as requireUser would produce it. */
async function actorOf(auth: AuthModule, accessToken: string): Promise<AuthenticatedUser> {
  return auth.verifier.verify(accessToken);
}
