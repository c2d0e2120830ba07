// Single-use links sent by e-mail (address verification, password reset). Only the SHA-256 of each
// secret is stored; using a link is one conditional UPDATE, so two clicks cannot both succeed.
import type { Queryable } from '@kaboodle/platform';

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

export interface EmailTokenRepository {
  create(token: {
    tokenHash: string;
    userId: string;
    purpose: EmailTokenPurpose;
    email: string;
    expiresAt: Date;
  }): Promise<void>;
  /** Uses a live token of that purpose (marks it used) and returns whose it was; null when none is. */
  consume(purpose: EmailTokenPurpose, tokenHash: string): Promise<{ userId: string; email: string } | null>;
  /** Retires every unused token of the user for that purpose (a newer link, or the job is done). */
  retireAll(userId: string, purpose: EmailTokenPurpose): Promise<void>;
  /** Delete tokens that expired or were used before `before`; returns how many. */
  purge(before: Date): Promise<number>;
}

export function createEmailTokenRepository(db: Queryable): EmailTokenRepository {
  return {
    async create(t) {
      await db.query(
        `INSERT INTO email_tokens (token_hash, user_id, purpose, email, expires_at) VALUES ($1, $2, $3, $4, $5)`,
        [t.tokenHash, t.userId, t.purpose, t.email, t.expiresAt.toISOString()],
      );
    },
    async consume(purpose, tokenHash) {
      const { rows } = await db.query<{ user_id: string; email: string }>(
        `UPDATE email_tokens SET used_at = now()
         WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
         RETURNING user_id, email`,
        [tokenHash, purpose],
      );
      const r = rows[0];
      return r ? { userId: r.user_id, email: r.email } : null;
    },
    async retireAll(userId, purpose) {
      await db.query(
        `UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`,
        [userId, purpose],
      );
    },
    async purge(before) {
      const { rowCount } = await db.query(`DELETE FROM email_tokens WHERE expires_at < $1 OR used_at < $1`, [
        before.toISOString(),
      ]);
      return rowCount;
    },
  };
}
