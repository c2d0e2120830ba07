// Server-side sessions: what makes a cookie or token revocable. Only hashes of refresh secrets are stored.
import type { Queryable } from '@kaboodle/platform';
import type { RevokedSession } from './auth-events.ts';

export interface SessionRecord {
  id: string;
  userId: string;
  refreshHash: string;
  previousRefreshHash: string | null;
  rotatedAt: Date | null;
  expiresAt: Date;
  revokedAt: Date | null;
}

interface SessionRow {
  id: string;
  user_id: string;
  refresh_hash: string;
  previous_refresh_hash: string | null;
  rotated_at: Date | string | null;
  expires_at: Date | string;
  revoked_at: Date | string | null;
}

const toDate = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const toDateOrNull = (v: Date | string | null): Date | null => (v === null ? null : toDate(v));

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

export function createSessionRepository(db: Queryable): SessionRepository {
  return {
    async create(s) {
      await db.query(
        `INSERT INTO sessions (id, user_id, refresh_hash, expires_at, user_agent, ip) VALUES ($1, $2, $3, $4, $5, $6)`,
        [s.id, s.userId, s.refreshHash, s.expiresAt.toISOString(), s.userAgent, s.ip],
      );
    },
    async findById(id) {
      const { rows } = await db.query<SessionRow>(
        `SELECT id, user_id, refresh_hash, previous_refresh_hash, rotated_at, expires_at, revoked_at
         FROM sessions WHERE id = $1`,
        [id],
      );
      const r = rows[0];
      if (!r) return null;
      return {
        id: r.id,
        userId: r.user_id,
        refreshHash: r.refresh_hash,
        previousRefreshHash: r.previous_refresh_hash,
        rotatedAt: toDateOrNull(r.rotated_at),
        expiresAt: toDate(r.expires_at),
        revokedAt: toDateOrNull(r.revoked_at),
      };
    },
    async isActive(id) {
      const { rows } = await db.query(
        `SELECT 1 FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()`,
        [id],
      );
      return rows.length > 0;
    },
    async rotate(id, fromHash, toHash, expiresAt) {
      const { rowCount } = await db.query(
        `UPDATE sessions SET previous_refresh_hash = refresh_hash, refresh_hash = $3, rotated_at = now(),
           last_used_at = now(), expires_at = $4
         WHERE id = $1 AND refresh_hash = $2 AND revoked_at IS NULL AND expires_at > now()`,
        [id, fromHash, toHash, expiresAt.toISOString()],
      );
      return rowCount === 1;
    },
    async revoke(id, reason) {
      const { rows } = await db.query<{ id: string; user_id: string }>(
        `UPDATE sessions SET revoked_at = now(), revoked_reason = $2 WHERE id = $1 AND revoked_at IS NULL
         RETURNING id, user_id`,
        [id, reason],
      );
      return rows.map((r) => ({ id: r.id, userId: r.user_id }));
    },
    async revokeAllForUser(userId, reason, exceptId) {
      const { rows } = await db.query<{ id: string; user_id: string }>(
        `UPDATE sessions SET revoked_at = now(), revoked_reason = $2
         WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() AND ($3::uuid IS NULL OR id <> $3::uuid)
         RETURNING id, user_id`,
        [userId, reason, exceptId ?? null],
      );
      return rows.map((r) => ({ id: r.id, userId: r.user_id }));
    },
    async purge(before) {
      const { rowCount } = await db.query(`DELETE FROM sessions WHERE expires_at < $1 OR revoked_at < $1`, [
        before.toISOString(),
      ]);
      return rowCount;
    },
  };
}
