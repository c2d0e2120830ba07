// The auth service's repositories as its domain code uses them: every change that other services
// must hear about (a revoked session, a changed account or role) is written in one transaction with
// its event in the outbox (auth-events.ts). Shared by the module and the `kaboodle admin` command.
import type { Database } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import { createAuthEvents } from './auth-events.ts';
import type { RevokedSession } from './auth-events.ts';
import { createEmailTokenRepository } from './email-token.repository.ts';
import type { EmailTokenRepository } from './email-token.repository.ts';
import { createSessionRepository } from './session.repository.ts';
import type { SessionRepository } from './session.repository.ts';
import { createUserRepository } from './user.repository.ts';
import type { Role, UserRecord, UserRepository } from './user.repository.ts';

export interface AuthStores {
  users: UserRepository;
  sessions: SessionRepository;
  tokens: EmailTokenRepository;
  /**
   * Sets the stored role, and with revokeSessions ends every session of the user in the same
   * transaction (a lost privilege must not live on in tokens minted before: verifiers everywhere
   * refuse them once kaboodle.session.revoked.v1 arrives). Returns the sessions it revoked.
   */
  changeRole(userId: string, role: Role, options: { revokeSessions: boolean }): Promise<RevokedSession[]>;
}

export interface AuthStoresOptions {
  db: Database;
  /** Null: no event bus wired, the transactions carry no events. */
  outbox: Outbox | null;
  accessTokenTtlMs: number;
  /** Told about every revoked session after commit (the in-process verifier drops its cached answer). */
  onRevoked?: (sessions: RevokedSession[]) => void;
}

export function createAuthStores(options: AuthStoresOptions): AuthStores {
  const { db } = options;
  const events = createAuthEvents(options.outbox, options.accessTokenTtlMs);
  const sessions = createSessionRepository(db);
  const users = createUserRepository(db);
  const revoked = (rows: RevokedSession[]) => {
    if (rows.length > 0) options.onRevoked?.(rows);
    return rows;
  };

  const sessionsWithEvents: SessionRepository = {
    ...sessions,
    async revoke(id, reason) {
      const rows = await db.transaction(async (tx) => {
        const r = await createSessionRepository(tx).revoke(id, reason);
        await events.sessionsRevoked(tx, r);
        return r;
      });
      return revoked(rows);
    },
    async revokeAllForUser(userId, reason, exceptId) {
      const rows = await db.transaction(async (tx) => {
        const r = await createSessionRepository(tx).revokeAllForUser(userId, reason, exceptId);
        await events.sessionsRevoked(tx, r);
        return r;
      });
      return revoked(rows);
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
    rename: (id, name) => withUserEvent((r) => r.rename(id, name)),
    markVerified: (id, email) => withUserEvent((r) => r.markVerified(id, email)),
    confirmEmailChange: (id, email) => withUserEvent((r) => r.confirmEmailChange(id, email)),
  };

  return {
    users: usersWithEvents,
    sessions: sessionsWithEvents,
    tokens: createEmailTokenRepository(db),
    async changeRole(userId, role, { revokeSessions }) {
      const rows = await db.transaction(async (tx) => {
        const txUsers = createUserRepository(tx);
        await txUsers.setRole(userId, role);
        const user = await txUsers.findById(userId);
        if (user) await events.userChanged(tx, user);
        if (!revokeSessions) return [];
        const r = await createSessionRepository(tx).revokeAllForUser(userId, 'role changed');
        await events.sessionsRevoked(tx, r);
        return r;
      });
      return revoked(rows);
    },
  };
}
