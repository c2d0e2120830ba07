import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSessionRevocationList,
  createTokenVerifier,
  subscribeSessionRevocations,
} from '@kaboodle/platform';
import type { Database, EventBus, IncomingEvent, Subscription } from '@kaboodle/platform';
import { createLogger } from '@kaboodle/platform';
import { createMemoryEventBus } from '@kaboodle/platform';
import { createPgliteDatabase } from '@kaboodle/platform';
import { ChangeOp, decodeEvent, Topics } from '@kaboodle/proto';
import { parseAuthConfig } from './auth-config.ts';
import { createLocalMailer } from './mail/local-mailer.ts';
import { createAuthModule } from './module.ts';
import type { AuthModule } from './module.ts';
import { tokenOf, waitForMail } from './testing/mail-folder.ts';

const ctx = { ip: '127.0.0.1', userAgent: 'vitest' };
const PW = 'Event-Horizon-Passphrase';

describe('auth module events (outbox → bus)', { timeout: 60_000 }, () => {
  let db: Database;
  let bus: EventBus;
  let auth: AuthModule;
  let sub: Subscription;
  let mailDir: string;
  const seen: IncomingEvent[] = [];

  beforeAll(async () => {
    db = createPgliteDatabase({
      dataDir: `memory://auth-module-${randomBytes(6).toString('hex')}`,
      schema: 'auth',
    });
    bus = createMemoryEventBus();
    mailDir = await mkdtemp(path.join(tmpdir(), 'auth-module-mail-'));
    const logger = createLogger({ component: 'auth-test', level: 'silent' });
    auth = createAuthModule({
      db,
      bus,
      logger,
      config: parseAuthConfig({ ADMIN_EMAILS: 'boss@example.com' }),
      mailer: createLocalMailer({ dir: mailDir, from: 'kaboodle@localhost', logger }),
      listenUrl: () => 'http://kaboodle.test',
      options: { argon2: { memoryCost: 1024, timeCost: 1 } },
    });
    await auth.start();
    sub = await bus.subscribe({
      group: 'auth-module-test',
      topics: [Topics.userChanged, Topics.sessionRevoked],
      handler: async (e) => {
        seen.push(e);
        return 'done';
      },
    });
  }, 60_000);
  afterAll(async () => {
    await sub?.close();
    await auth?.stop();
    await bus?.close();
    await db?.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  it('announces a new account as kaboodle.user.changed.v1 (upsert, keyed by user id)', async () => {
    const s = await auth.service.register({ email: 'Ev@Example.com', password: PW, name: 'Ev' }, ctx);
    await expect.poll(() => seen.filter((e) => e.topic === Topics.userChanged).length).toBe(1);
    const e = seen.find((x) => x.topic === Topics.userChanged)!;
    expect(e.key).toBe(s.user.id);
    const changed = decodeEvent(Topics.userChanged, e.value);
    expect(changed).toMatchObject({
      ownerId: s.user.id,
      op: ChangeOp.UPSERT,
      email: 'Ev@Example.com',
      name: 'Ev',
      roles: ['user'],
    });
  });

  it('announces every revocation, so a verifier in another process refuses the token at once', async () => {
    // A verifier as another service in split mode has it: the published keys plus the bus-fed list.
    const list = createSessionRevocationList();
    const listSub = await subscribeSessionRevocations(bus, list);
    const elsewhere = createTokenVerifier({ getJwks: () => auth.jwks(), isRevoked: list.isRevoked });
    try {
      const s = await auth.service.login({ email: 'ev@example.com', password: PW }, ctx);
      await expect(elsewhere.verify(s.accessToken)).resolves.toMatchObject({ email: 'Ev@Example.com' });
      await auth.service.logout({ sessionToken: s.sessionToken });
      await expect.poll(() => seen.filter((e) => e.topic === Topics.sessionRevoked).length).toBe(1);
      const event = decodeEvent(
        Topics.sessionRevoked,
        seen.find((e) => e.topic === Topics.sessionRevoked)!.value,
      );
      expect(event.sessionId).toBe(
        JSON.parse(Buffer.from(s.accessToken.split('.')[1]!, 'base64url').toString()).sid,
      );
      await expect
        .poll(() =>
          elsewhere.verify(s.accessToken).then(
            () => 'accepted',
            (e: Error) => e.message,
          ),
        )
        .toBe('Session expired');
    } finally {
      await listSub.close();
    }
  });

  it('a second logout of the same session announces nothing more', async () => {
    const s = await auth.service.login({ email: 'ev@example.com', password: PW }, ctx);
    await auth.service.logout({ sessionToken: s.sessionToken });
    await expect.poll(() => seen.filter((e) => e.topic === Topics.sessionRevoked).length).toBe(2);
    await auth.service.logout({ accessToken: s.accessToken });
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter((e) => e.topic === Topics.sessionRevoked)).toHaveLength(2);
  });

  it('announces role changes from ADMIN_EMAILS, once the address is verified', async () => {
    await auth.service.register({ email: 'boss@example.com', password: PW, name: 'Boss' }, ctx);
    const mail = await waitForMail(mailDir, 'boss@example.com', /Verify/);
    await auth.account.verifyEmail(tokenOf(mail.link));
    await expect
      .poll(() =>
        seen
          .filter((e) => e.topic === Topics.userChanged)
          .map((e) => decodeEvent(Topics.userChanged, e.value))
          .some((u) => u.email === 'boss@example.com' && u.roles[0] === 'admin'),
      )
      .toBe(true);
  });

  it('a revoked admin loses admin at once in other processes: every session of the account is announced revoked', async () => {
    // What another service's admin check relies on (e.g. search's rebuild reads the token's role):
    // a token minted while its holder was an admin must stop working when the role goes.
    const list = createSessionRevocationList();
    const listSub = await subscribeSessionRevocations(bus, list);
    const elsewhere = createTokenVerifier({ getJwks: () => auth.jwks(), isRevoked: list.isRevoked });
    try {
      const a = await auth.service.login({ email: 'boss@example.com', password: PW }, ctx);
      const b = await auth.service.login({ email: 'boss@example.com', password: PW }, ctx);
      await expect(elsewhere.verify(a.accessToken)).resolves.toMatchObject({ role: 'admin' });
      const change = await auth.roles.revoke('boss@example.com');
      expect(change.revokedSessions).toBeGreaterThanOrEqual(2);
      for (const token of [a.accessToken, b.accessToken]) {
        await expect
          .poll(() =>
            elsewhere.verify(token).then(
              (u) => u.role,
              (e: Error) => e.message,
            ),
          )
          .toBe('Session expired');
      }
      await expect
        .poll(() =>
          seen
            .filter((e) => e.topic === Topics.userChanged)
            .map((e) => decodeEvent(Topics.userChanged, e.value))
            .some((u) => u.email === 'boss@example.com' && u.roles[0] === 'user'),
        )
        .toBe(true);
    } finally {
      await listSub.close();
    }
  });
});
