// What the auth domain's services share: the contract's user shape, starting a session (refresh
// secret stored hashed, access token signed), the password check with its per-account failure
// limit, and the account lookups every call begins with.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ACCESS_DENIED_MESSAGE,
  AuthenticationError,
  InputError,
  NotAllowedError,
  RateLimitError,
} from '@kaboodle/platform';
import type { AuthenticatedUser } from '@kaboodle/platform';
import { normalizeEmail } from './account-fields.ts';
import type { AuthConfig } from './auth-config.ts';
import type { AuthStores } from './auth-stores.ts';
import type { KeyStore } from './key-store.service.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { Role, UserRecord } from './user.repository.ts';

export const SESSION_GONE = 'Session expired';

/** The user object of the contract. */
export interface PublicUser {
  id: string;
  email: string;
  name: string;
  displayName: string;
  role: Role;
  created_at: string;
  email_verified_at: string | null;
  pending_email: string | null;
}

/** What a successful sign-in or refresh hands the edge to put in cookies and the response. */
export interface IssuedSession {
  user: PublicUser;
  accessToken: string;
  accessExpiresAt: Date;
  /** `<session id>.<refresh secret>` for the session cookie; absent when the cookie stays as it is. */
  sessionToken?: string;
  /** Fresh CSRF token for a new session; absent when the existing one stays. */
  csrfToken?: string;
}

export interface RequestContext {
  ip: string | undefined;
  userAgent: string | undefined;
}

export function toPublicUser(u: UserRecord): PublicUser {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    displayName: u.name,
    role: u.role,
    created_at: u.createdAt.toISOString(),
    email_verified_at: u.emailVerifiedAt?.toISOString() ?? null,
    pending_email: u.pendingEmail,
  };
}

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

export function tooMany(retryAfterSeconds: number): RateLimitError {
  return new RateLimitError(
    `Too many attempts. Please wait ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'} and try again.`,
    retryAfterSeconds,
  );
}

// 400, not 401: a 401 would make the web client refresh and retry as if the session had expired.
export const wrongCurrentPassword = () => new InputError('Current password is incorrect');

export interface AuthCoreDeps {
  stores: AuthStores;
  keys: KeyStore;
  hasher: PasswordHasher;
  config: AuthConfig;
  /** Failed password attempts per account (e.g. 5 per 15 min). */
  accountFailures: RateLimiter;
}

export type AuthCore = ReturnType<typeof createAuthCore>;

export function createAuthCore(deps: AuthCoreDeps) {
  const { stores, keys, hasher, config, accountFailures } = deps;
  const { users, sessions } = stores;

  const accessFor = (user: UserRecord, sessionId: string) =>
    keys.sign({ sub: user.id, email: user.email, role: user.role, sid: sessionId });

  return {
    accessFor,

    async startSession(user: UserRecord, ctx: RequestContext): Promise<IssuedSession> {
      const id = randomUUID();
      const secret = randomBytes(32).toString('base64url');
      await sessions.create({
        id,
        userId: user.id,
        refreshHash: sha256(secret),
        expiresAt: new Date(Date.now() + config.sessionTtlMs),
        userAgent: ctx.userAgent?.slice(0, 512) ?? null,
        ip: ctx.ip ?? null,
      });
      await users.recordLogin(user.id);
      const access = await accessFor(user, id);
      return {
        user: toPublicUser(user),
        accessToken: access.token,
        accessExpiresAt: access.expiresAt,
        sessionToken: `${id}.${secret}`,
        csrfToken: randomBytes(32).toString('base64url'),
      };
    },

    /** Password check with per-account failure limiting; the same error whatever went wrong. */
    async checkPassword(email: string, password: string, failure: () => Error): Promise<UserRecord> {
      const key = `login:${normalizeEmail(email)}`;
      const gate = await accountFailures.peek(key);
      if (!gate.allowed) throw tooMany(gate.retryAfterSeconds);
      const user = await users.findByEmail(email);
      let ok = false;
      if (user?.passwordHash) ok = await hasher.verify(user.passwordHash, password);
      else await hasher.verifyDummy(password); // unknown email: spend the same time as a real check
      if (!ok || !user) {
        await accountFailures.take(key);
        throw failure();
      }
      await accountFailures.reset(key);
      return user;
    },

    /** Forgets the failed attempts of an address (its password was just reset by its owner). */
    clearFailures: (email: string) => accountFailures.reset(`login:${normalizeEmail(email)}`),

    async requireAccount(userId: string): Promise<UserRecord> {
      const user = await users.findById(userId);
      if (!user) throw new AuthenticationError(SESSION_GONE);
      return user;
    },

    /** Admin calls check the stored role, not the token's claim. */
    async requireAdmin(actor: Pick<AuthenticatedUser, 'id'>): Promise<UserRecord> {
      const me = await users.findById(actor.id);
      if (!me || me.role !== 'admin') throw new NotAllowedError(ACCESS_DENIED_MESSAGE);
      return me;
    },
  };
}
