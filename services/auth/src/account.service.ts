// The auth domain's account side: profile (with e-mail changes confirmed by a link), password
// change and reset by e-mail, address verification, settings, and the admin calls. No HTTP here.
import { AuthenticationError, ConflictError, InputError, UnavailableError } from '@kaboodle/platform';
import type { AuthenticatedUser, Logger } from '@kaboodle/platform';
import { normalizeEmail } from './account-fields.ts';
import type { Destination } from './account-fields.ts';
import type { AccountMail } from './account-mail.ts';
import { SESSION_GONE, toPublicUser, tooMany, wrongCurrentPassword } from './auth-core.ts';
import type { AuthCore, IssuedSession, PublicUser, RequestContext } from './auth-core.ts';
import type { AuthStores } from './auth-stores.ts';
import type { BackgroundTasks } from './background-tasks.ts';
import type { KeyStore } from './key-store.service.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { Roles } from './roles.ts';
import { EMAIL_TAKEN_MESSAGE } from './user.repository.ts';
import type { Role, UserRecord, UserSettings } from './user.repository.ts';

export const INVALID_VERIFICATION_LINK =
  'This verification link is not valid: it may have expired or been used already. Sign in and choose "Resend" to get a new one.';
export const INVALID_RESET_LINK =
  'This password reset link is not valid: it may have expired or been used already. Ask for a new one with "Forgot password?".';
export const RESET_REQUESTED =
  'If an account uses that address, we have emailed it a link to reset the password. The link works once, within 30 minutes.';
export const MAIL_UNAVAILABLE = 'We could not send the email just now. Please try again in a few minutes.';

export interface AdminUserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
  last_login_at: string | null;
}

export interface ProfileChange {
  name?: string;
  email?: string;
  currentPassword?: string;
}

export interface SettingsChange {
  defaultInstructions?: string;
  defaultDestination?: Destination;
}

export interface AccountServiceDeps {
  stores: AuthStores;
  core: AuthCore;
  roles: Roles;
  mail: AccountMail;
  hasher: PasswordHasher;
  keys: KeyStore;
  /** Links mailed per account and purpose (e.g. 3 per 15 min): nobody floods a mailbox through Kaboodle. */
  mailPerAccount: RateLimiter;
  /** Mail sent after the answer. */
  background: BackgroundTasks;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: AccountServiceDeps) {
  const { stores, core, roles, mail, hasher, keys, logger } = deps;
  const { users, sessions } = stores;

  const gateMail = async (key: string) => {
    const gate = await deps.mailPerAccount.take(key);
    if (!gate.allowed) throw tooMany(gate.retryAfterSeconds);
  };
  const mailed = async (send: Promise<void>, what: string, userId: string) => {
    try {
      await send;
    } catch (err) {
      logger.error({ err, userId }, `sending ${what} failed`);
      throw new UnavailableError(MAIL_UNAVAILABLE, { cause: err });
    }
  };

  /** The address a verification link is waiting for: a pending new one, else an unverified current one. */
  const awaitingVerification = (u: UserRecord): string | null =>
    u.pendingEmail ?? (u.emailVerifiedAt ? null : u.email);

  return {
    /** For the api router's admin operations: the stored role, not the token's claim. */
    requireAdmin: async (actor: AuthenticatedUser): Promise<void> => {
      await core.requireAdmin(actor);
    },

    async profile(actor: AuthenticatedUser): Promise<PublicUser> {
      return toPublicUser(await core.requireAccount(actor.id));
    },

    /** Renames at once; a new address becomes the sign-in address only once its link is opened. */
    async updateProfile(
      actor: AuthenticatedUser,
      change: ProfileChange,
    ): Promise<{ user: PublicUser; message?: string }> {
      const user = await core.requireAccount(actor.id);
      const newEmail =
        change.email !== undefined && normalizeEmail(change.email) !== normalizeEmail(user.email)
          ? change.email
          : undefined;
      if (newEmail !== undefined) {
        // Changing the sign-in address needs the password, so a stolen token cannot take over the account.
        if (!user.passwordHash)
          throw new InputError('This account signs in with Google; its email cannot be changed here');
        if (change.currentPassword === undefined)
          throw new InputError('Current password is required to change the email');
        await core.checkPassword(user.email, change.currentPassword, wrongCurrentPassword);
        if (await users.findByEmail(newEmail)) throw new ConflictError(EMAIL_TAKEN_MESSAGE);
        await gateMail(`verify:${user.id}`);
      }
      let current: UserRecord | null = user;
      if (change.name !== undefined) current = await users.rename(user.id, change.name);
      if (!current) throw new AuthenticationError(SESSION_GONE);
      if (newEmail !== undefined) {
        current = await users.setPendingEmail(user.id, newEmail);
        if (!current) throw new AuthenticationError(SESSION_GONE);
        await mailed(mail.sendVerification(current, newEmail, true), 'the email change link', user.id);
        logger.info({ userId: user.id }, 'email change requested');
        return {
          user: toPublicUser(current),
          message: `We sent a confirmation link to ${newEmail}. Your sign-in address changes when you open it.`,
        };
      }
      if (change.email !== undefined && current.pendingEmail) {
        // The current address again: the change waiting for confirmation is called off.
        await mail.retire(user.id, 'verify_email');
        current = (await users.setPendingEmail(user.id, null)) ?? current;
      }
      return { user: toPublicUser(current) };
    },

    async changePassword(actor: AuthenticatedUser, input: { currentPassword: string; newPassword: string }) {
      const user = await core.requireAccount(actor.id);
      if (!user.passwordHash) throw new InputError('This account signs in with Google and has no password');
      await core.checkPassword(user.email, input.currentPassword, wrongCurrentPassword);
      await users.setPasswordHash(user.id, await hasher.hash(input.newPassword));
      // Every other device signs in again with the new password; this one stays signed in.
      const revoked = await sessions.revokeAllForUser(user.id, 'password changed', actor.sessionId);
      logger.info({ userId: user.id, revokedSessions: revoked.length }, 'password changed');
      return { message: 'Password changed' };
    },

    /** Opens a verification link: proves the account's address, or makes the new one its address. */
    async verifyEmail(token: string): Promise<{ message: string }> {
      const found = await mail.consume('verify_email', token);
      const user = found && (await users.findById(found.userId));
      if (!found || !user) throw new InputError(INVALID_VERIFICATION_LINK);
      const address = normalizeEmail(found.email);
      let updated: UserRecord | null = null;
      let changed = false;
      if (address === normalizeEmail(user.email)) {
        updated = await users.markVerified(user.id, found.email);
      } else if (user.pendingEmail && address === normalizeEmail(user.pendingEmail)) {
        updated = await users.confirmEmailChange(user.id, found.email);
        changed = updated !== null;
      }
      // A link for an address the account no longer uses or waits for.
      if (!updated) throw new InputError(INVALID_VERIFICATION_LINK);
      await roles.apply(updated);
      if (changed) {
        logger.info({ userId: user.id }, 'email changed');
        await mail
          .sendEmailChanged(user, user.email, updated.email)
          .catch((err: unknown) =>
            logger.error({ err, userId: user.id }, 'sending the change notice failed'),
          );
        return { message: `Your email address is now ${updated.email}.` };
      }
      logger.info({ userId: user.id }, 'email verified');
      return { message: 'Your email address is verified.' };
    },

    async resendVerification(actor: AuthenticatedUser): Promise<{ message: string }> {
      const user = await core.requireAccount(actor.id);
      const address = awaitingVerification(user);
      if (!address) return { message: 'Your email address is already verified.' };
      await gateMail(`verify:${user.id}`);
      await mailed(
        mail.sendVerification(user, address, address !== user.email),
        'the verification link',
        user.id,
      );
      return { message: `We sent a new verification link to ${address}.` };
    },

    /**
     * The same answer, in the same time, whether or not the address has an account: the lookup and
     * the mail happen after the answer. Per address, a few links per quarter hour; more are dropped.
     */
    async requestPasswordReset(email: string): Promise<{ message: string }> {
      if ((await deps.mailPerAccount.take(`reset:${normalizeEmail(email)}`)).allowed) {
        deps.background.run('sending a password reset link', async () => {
          const user = await users.findByEmail(email);
          if (user) await mail.sendPasswordReset(user);
        });
      }
      return { message: RESET_REQUESTED };
    },

    /** Opens a reset link: new password, every session ended, signed in here. */
    async resetPassword(token: string, newPassword: string, ctx: RequestContext): Promise<IssuedSession> {
      const found = await mail.consume('reset_password', token);
      const user = found && (await users.findById(found.userId));
      // A link sent to an address the account has since left is void.
      if (!found || !user || normalizeEmail(found.email) !== normalizeEmail(user.email))
        throw new InputError(INVALID_RESET_LINK);
      await users.setPasswordHash(user.id, await hasher.hash(newPassword));
      await mail.retire(user.id, 'reset_password');
      const revoked = await sessions.revokeAllForUser(user.id, 'password reset');
      await core.clearFailures(user.email);
      // The link reached the address: that proves it.
      const verified = (await users.markVerified(user.id, user.email)) ?? user;
      const current = await roles.apply(verified);
      logger.info({ userId: user.id, revokedSessions: revoked.length }, 'password reset');
      return core.startSession(current, ctx);
    },

    async settings(actor: AuthenticatedUser): Promise<UserSettings> {
      await core.requireAccount(actor.id);
      return users.getSettings(actor.id);
    },

    async updateSettings(actor: AuthenticatedUser, change: SettingsChange): Promise<UserSettings> {
      await core.requireAccount(actor.id);
      return users.updateSettings(actor.id, change);
    },

    /** Admins only (checked against the stored role, not just the token's claim). */
    async listUsers(
      actor: AuthenticatedUser,
      page: { limit: number; offset: number },
    ): Promise<AdminUserRow[]> {
      await core.requireAdmin(actor);
      return (await users.list(page)).map((u) => ({
        id: u.id,
        email: u.email,
        name: u.name,
        role: u.role,
        created_at: u.createdAt.toISOString(),
        last_login_at: u.lastLoginAt?.toISOString() ?? null,
      }));
    },

    /** Admins only: rotate the signing key (see KeyStore.rotate); old keys stay published until their tokens expire. */
    async rotateSigningKey(
      actor: AuthenticatedUser,
      options: { immediate: boolean },
    ): Promise<{ kid: string }> {
      await core.requireAdmin(actor);
      const kid = await keys.rotate(options);
      logger.info({ userId: actor.id, kid, immediate: options.immediate }, 'signing key rotated by an admin');
      return { kid };
    },
  };
}
