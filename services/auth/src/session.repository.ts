// Server-side sessions: what makes a cookie or token revocable. Only hashes of refresh secrets are stored.
import { runAll, runCount, runFirst, sql } from '@kaboodle/platform';
import type { Queryable } from '@kaboodle/platform';
import type { RevokedSession } from './auth-events.ts';
import { authSql as q0 } from './db-schema.ts';

export interface SessionRecord {
  id: string;
  userId: string;
  refreshHash: string;
  previousRefreshHash: string | null;
  rotatedAt: Date | null;
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface SessionRepository {
  create(s: {
    id: string;
    userId: string;
    refreshHash: string;
    expiresAt: Date;
    userAgent: string | null;
    ip: string | null;
  }): Promise<void>;
  findById(id: string): Promise<SessionRecord | null>;
  /** True when the session exists, is not revoked and has not expired. */
  isActive(id: string): Promise<boolean>;
  /**
   * Compare-and-swap rotation: succeeds only if the current hash is still `fromHash` and the session
   * is live, so two concurrent refreshes cannot both rotate. Returns whether it rotated.
   */
  rotate(id: string, fromHash: string, toHash: string, expiresAt: Date): Promise<boolean>;
  /** Returns the session when this call revoked it (not when it was already revoked or is unknown). */
  revoke(id: string, reason: string): Promise<RevokedSession[]>;
  /** Revoke every live session of a user, optionally keeping one; returns those it revoked. */
  revokeAllForUser(userId: string, reason: string, exceptId?: string): Promise<RevokedSession[]>;
  /** Delete sessions that expired or were revoked before `before`; returns how many. */
  purge(before: Date): Promise<number>;
}

const now = sql<Date>`now()`;

export function createSessionRepository(db: Queryable): SessionRepository {
  return {
    async create(s) {
      await runCount(
        db,
        q0.insertInto('sessions').values({
          id: s.id,
          user_id: s.userId,
          refresh_hash: s.refreshHash,
          expires_at: s.expiresAt,
          user_agent: s.userAgent,
          ip: s.ip,
        }),
      );
    },
    async findById(id) {
      const r = await runFirst(
        db,
        q0
          .selectFrom('sessions')
          .select([
            'id',
            'user_id',
            'refresh_hash',
            'previous_refresh_hash',
            'rotated_at',
            'expires_at',
            'revoked_at',
          ])
          .where('id', '=', id),
      );
      if (!r) return null;
      return {
        id: r.id,
        userId: r.user_id,
        refreshHash: r.refresh_hash,
        previousRefreshHash: r.previous_refresh_hash,
        rotatedAt: r.rotated_at,
        expiresAt: r.expires_at,
        revokedAt: r.revoked_at,
      };
    },
    async isActive(id) {
      const r = await runFirst(
        db,
        q0
          .selectFrom('sessions')
          .select('id')
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', now),
      );
      return r !== null;
    },
    async rotate(id, fromHash, toHash, expiresAt) {
      const changed = await runCount(
        db,
        q0
          .updateTable('sessions')
          .set((eb) => ({
            previous_refresh_hash: eb.ref('refresh_hash'),
            refresh_hash: toHash,
            rotated_at: now,
            last_used_at: now,
            expires_at: expiresAt,
          }))
          .where('id', '=', id)
          .where('refresh_hash', '=', fromHash)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', now),
      );
      return changed === 1;
    },
    async revoke(id, reason) {
      const rows = await runAll(
        db,
        q0
          .updateTable('sessions')
          .set({ revoked_at: now, revoked_reason: reason })
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .returning(['id', 'user_id']),
      );
      return rows.map((r) => ({ id: r.id, userId: r.user_id }));
    },
    async revokeAllForUser(userId, reason, exceptId) {
      let query = q0
        .updateTable('sessions')
        .set({ revoked_at: now, revoked_reason: reason })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now);
      if (exceptId) query = query.where('id', '<>', exceptId);
      const rows = await runAll(db, query.returning(['id', 'user_id']));
      return rows.map((r) => ({ id: r.id, userId: r.user_id }));
    },
    async purge(before) {
      return runCount(
        db,
        q0
          .deleteFrom('sessions')
          .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)])),
      );
    },
  };
}
