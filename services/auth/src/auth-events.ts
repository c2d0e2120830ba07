// The events the auth service publishes, written through the transactional outbox in the same
// transaction as the change they announce (so a rolled-back change emits nothing):
//   kaboodle.session.revoked.v1  every revocation (logout, password change, refresh reuse), so
//                                verifiers in other processes refuse the session's tokens at once
//   kaboodle.user.changed.v1     account created or changed (email, name, role)
import { ChangeOp, createEvent, encodeEvent, eventKey, timestampFromDate, Topics } from '@kaboodle/proto';
import type { TopicName } from '@kaboodle/proto';
import type { OutgoingEvent, Queryable } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import type { UserRecord } from './user.repository.ts';

export interface RevokedSession {
  id: string;
  userId: string;
}

export interface AuthEvents {
  sessionsRevoked(tx: Queryable, sessions: RevokedSession[]): Promise<void>;
  userChanged(tx: Queryable, user: UserRecord): Promise<void>;
}

function outgoing<T extends TopicName>(topic: T, event: Parameters<typeof encodeEvent<T>>[1]): OutgoingEvent {
  return { topic, key: eventKey(topic, event), value: encodeEvent(topic, event) };
}

/** With no outbox (no event bus wired) the calls do nothing. */
export function createAuthEvents(outbox: Outbox | null, accessTokenTtlMs: number): AuthEvents {
  return {
    async sessionsRevoked(tx, sessions) {
      if (!outbox || sessions.length === 0) return;
      // No token issued under the session can outlive this.
      const tokensExpireAt = timestampFromDate(new Date(Date.now() + accessTokenTtlMs));
      await outbox.enqueue(
        tx,
        sessions.map((s) =>
          outgoing(
            Topics.sessionRevoked,
            createEvent(Topics.sessionRevoked, { ownerId: s.userId, sessionId: s.id, tokensExpireAt }),
          ),
        ),
      );
    },
    async userChanged(tx, user) {
      if (!outbox) return;
      const event = createEvent(Topics.userChanged, {
        ownerId: user.id,
        op: ChangeOp.UPSERT,
        email: user.email,
        name: user.name,
        roles: [user.role],
      });
      await outbox.enqueue(tx, [outgoing(Topics.userChanged, event)]);
    },
  };
}
