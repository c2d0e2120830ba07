// The links Kaboodle mails to people: address verification (24 h) and password reset (30 min).
// Each link carries a random 256-bit secret; only its SHA-256 is stored, it works once, and a newer
// link of the same kind retires the older ones. Links point at PUBLIC_BASE_URL (or the server's own
// address on one machine), never at the Host header a request came with.
import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from '@kaboodle/platform';
import type { EmailTokenPurpose, EmailTokenRepository } from './email-token.repository.ts';
import type { Mailer } from './mail/mailer.ts';
import { emailChangedNotice, passwordResetMail, verificationMail } from './mail-templates.ts';

export const VERIFICATION_LINK_TTL_MS = 24 * 3_600_000;
export const RESET_LINK_TTL_MS = 30 * 60_000;

const SECRET = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

export interface AccountMailDeps {
  tokens: EmailTokenRepository;
  mailer: Mailer;
  /** Where people open Kaboodle (no trailing slash). */
  baseUrl: () => string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export type AccountMail = ReturnType<typeof createAccountMail>;

export function createAccountMail(deps: AccountMailDeps) {
  const { tokens, mailer, logger } = deps;

  async function issue(purpose: EmailTokenPurpose, userId: string, email: string, ttlMs: number) {
    const secret = randomBytes(32).toString('base64url');
    await tokens.retireAll(userId, purpose);
    await tokens.create({
      tokenHash: sha256(secret),
      userId,
      purpose,
      email,
      expiresAt: new Date(Date.now() + ttlMs),
    });
    return secret;
  }

  const link = (page: string, secret: string) => `${deps.baseUrl()}/${page}?token=${secret}`;

  return {
    /** Mails a verification link for `email` (the account's address, or the new one it waits for). */
    async sendVerification(user: { id: string; name: string }, email: string, change: boolean) {
      const url = link('verify-email', await issue('verify_email', user.id, email, VERIFICATION_LINK_TTL_MS));
      await mailer.send({ to: email, link: url, ...verificationMail({ name: user.name, url, change }) });
      logger.info({ userId: user.id, change }, 'verification link sent');
    },

    async sendPasswordReset(user: { id: string; name: string; email: string }) {
      const url = link(
        'reset-password',
        await issue('reset_password', user.id, user.email, RESET_LINK_TTL_MS),
      );
      await mailer.send({ to: user.email, link: url, ...passwordResetMail({ name: user.name, url }) });
      logger.info({ userId: user.id }, 'password reset link sent');
    },

    /** Tells the old address that the sign-in address changed (so a takeover does not go unnoticed). */
    async sendEmailChanged(user: { id: string; name: string }, oldEmail: string, newEmail: string) {
      await mailer.send({ to: oldEmail, ...emailChangedNotice({ name: user.name, newEmail }) });
    },

    /** Uses a link's secret once; null for anything that is not a live link of that kind. */
    async consume(purpose: EmailTokenPurpose, secret: string) {
      if (!SECRET.test(secret)) return null;
      return tokens.consume(purpose, sha256(secret));
    },

    retire: (userId: string, purpose: EmailTokenPurpose) => tokens.retireAll(userId, purpose),
  };
}
