// Sign-out must bite everywhere at once. Services verify access tokens locally, so each process keeps a
// list of revoked sessions fed by `kaboodle.session.revoked.v1` and asks it on every verification.
// Entries are forgotten once the session's last token has expired (tokens are short-lived), so the
// list stays small. Every process reads every revocation: each subscribes with its own group.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { decodeEvent, timestampMs, Topics } from '@kaboodle/proto';
import type { EventBus, Subscription } from '../ports/event-bus.ts';
import type { AuthenticatedUser } from './token-verifier.ts';

export interface SessionRevocationList {
  /** For TokenVerifierOptions.isRevoked. */
  isRevoked(user: Pick<AuthenticatedUser, 'sessionId'>): Promise<boolean>;
  revoke(sessionId: string, tokensExpireAt: Date): void;
  readonly size: number;
}

export function createSessionRevocationList(now: () => number = Date.now): SessionRevocationList {
  const revoked = new Map<string, number>();
  let lastSweep = now();
  const sweep = () => {
    const t = now();
    if (t - lastSweep < 60_000) return;
    lastSweep = t;
    for (const [sid, until] of revoked) if (until <= t) revoked.delete(sid);
  };
  return {
    async isRevoked({ sessionId }) {
      sweep();
      const until = revoked.get(sessionId);
      return until !== undefined && until > now();
    },
    revoke(sessionId, tokensExpireAt) {
      // Keep it a little past expiry: verifiers tolerate some clock skew on `exp`.
      revoked.set(sessionId, tokensExpireAt.getTime() + 5 * 60_000);
      sweep();
    },
    get size() {
      return revoked.size;
    },
  };
}

/** Feed a revocation list from the bus; the group is unique to this process so every process sees every event. */
export function subscribeSessionRevocations(
  bus: EventBus,
  list: SessionRevocationList,
): Promise<Subscription> {
  return bus.subscribe({
    group: `session-revocations.${hostname()}.${process.pid}.${randomUUID().slice(0, 8)}`,
    topics: [Topics.sessionRevoked],
    async handler(event) {
      const revoked = decodeEvent(Topics.sessionRevoked, event.value);
      if (!revoked.sessionId) return 'skipped';
      const expires = revoked.tokensExpireAt
        ? new Date(timestampMs(revoked.tokensExpireAt))
        : new Date(Date.now() + 3_600_000);
      list.revoke(revoked.sessionId, expires);
      return 'done';
    },
  });
}
