// Single-use links sent by e-mail (address verification, password reset). Only the SHA-256 of each
// secret is stored; using a link is one conditional UPDATE, so two clicks cannot both succeed.
import { runAll, runCount, sql } from '@kaboodle/platform';
import type { Queryable } from '@kaboodle/platform';
import { authSql as q0 } from './db-schema.ts';

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

const now = sql<Date>`now()`;

export function createEmailTokenRepository(db: Queryable): EmailTokenRepository {
  return {
    async create(t) {
      await runCount(
        db,
        q0.insertInto('email_tokens').values({
          token_hash: t.tokenHash,
          user_id: t.userId,
          purpose: t.purpose,
          email: t.email,
          expires_at: t.expiresAt,
        }),
      );
    },
    async consume(purpose, tokenHash) {
      const rows = await runAll(
        db,
        q0
          .updateTable('email_tokens')
          .set({ used_at: now })
          .where('token_hash', '=', tokenHash)
          .where('purpose', '=', purpose)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning(['user_id', 'email']),
      );
      const r = rows[0];
      return r ? { userId: r.user_id, email: r.email } : null;
    },
    async retireAll(userId, purpose) {
      await runCount(
        db,
        q0
          .updateTable('email_tokens')
          .set({ used_at: now })
          .where('user_id', '=', userId)
          .where('purpose', '=', purpose)
          .where('used_at', 'is', null),
      );
    },
    async purge(before) {
      return runCount(
        db,
        q0
          .deleteFrom('email_tokens')
          .where((eb) => eb.or([eb('expires_at', '<', before), eb('used_at', '<', before)])),
      );
    },
  };
}
