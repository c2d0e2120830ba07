// The auth domain: accounts, sign-in (password, Google, admin), server-side sessions with refresh
// rotation, profile and settings. No HTTP here: routes translate requests into these calls.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  RateLimitError,
  ACCESS_DENIED_MESSAGE,
  safeEqual,
} from '@kaboodle/platform';
import type { AuthenticatedUser, TokenVerifier } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import type { AuthConfig } from './auth-config.ts';
import type { GoogleTokenVerifier } from './google-verifier.ts';
import { GOOGLE_LOGIN_FAILED } from './google-verifier.ts';
import type { KeyStore } from './key-store.service.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { SessionRepository } from './session.repository.ts';
import type { Role, UserRecord, UserRepository, UserSettings } from './user.repository.ts';
import { MAX_NAME_LENGTH, normalizeEmail } from './validation.ts';
import type { ProfileChange, SettingsChange } from './validation.ts';

export const LOGIN_FAILED = 'Login failed';
export const ADMIN_LOGIN_FAILED = 'Admin login failed';
export const NOT_SIGNED_IN = 'Not signed in';
export const SESSION_GONE = 'Session expired';
export const GOOGLE_DISABLED = 'Google sign-in is not enabled on this server';

/** A late duplicate of a just-rotated refresh secret (another tab refreshing at once) is tolerated this long. */
const REFRESH_GRACE_MS = 30_000;

/** The user object of the contract: {id, email, name, displayName, role, created_at}. */
export interface PublicUser {
  id: string;
  email: string;
  name: string;
  displayName: string;
  role: Role;
  created_at: string;
}

export interface AdminUserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
  last_login_at: string | null;
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

export interface AuthLimiters {
  /** Failed password attempts per account (e.g. 5 per 15 min). */
  accountFailures: RateLimiter;
  /** Registration attempts per email. */
  registrations: RateLimiter;
}

export interface AuthServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  keys: KeyStore;
  hasher: PasswordHasher;
  /** Null when Google sign-in is disabled. */
  google: GoogleTokenVerifier | null;
  /** Verifies access tokens (with the session revocation check). */
  verifier: TokenVerifier;
  limiters: AuthLimiters;
  config: AuthConfig;
  logger: Pick<Logger, 'info' | 'warn'>;
}

export function toPublicUser(u: UserRecord): PublicUser {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    displayName: u.name,
    role: u.role,
    created_at: u.createdAt.toISOString(),
  };
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** Splits a session cookie; null for anything malformed. */
function parseSessionToken(token: string | undefined): { id: string; secret: string } | null {
  if (typeof token !== 'string') return null;
  const [id, secret, ...rest] = token.split('.');
  if (rest.length > 0 || !id || !secret || !UUID.test(id) || !SECRET.test(secret)) return null;
  return { id, secret };
}

function tooMany(retryAfterSeconds: number): RateLimitError {
  return new RateLimitError(
    `Too many attempts. Please wait ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'} and try again.`,
    retryAfterSeconds,
  );
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: AuthServiceDeps) {
  const { users, sessions, keys, hasher, config, limiters, logger } = deps;

  const roleFor = (email: string): Role =>
    config.adminEmails.includes(normalizeEmail(email)) ? 'admin' : 'user';

  /** ADMIN_EMAILS is the source of truth for the admin role: applied on register and on every sign-in. */
  async function syncRole(user: UserRecord): Promise<UserRecord> {
    const role = roleFor(user.email);
    if (role === user.role) return user;
    await users.setRole(user.id, role);
    logger.info({ userId: user.id, role }, 'role synced from ADMIN_EMAILS');
    return { ...user, role };
  }

  async function accessFor(user: UserRecord, sessionId: string) {
    return keys.sign({ sub: user.id, email: user.email, role: user.role, sid: sessionId });
  }

  async function startSession(user: UserRecord, ctx: RequestContext): Promise<IssuedSession> {
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
  }

  /** Password check with per-account failure limiting; the same error whatever went wrong. */
  async function checkPassword(email: string, password: string, failure: () => Error): Promise<UserRecord> {
    const key = `login:${normalizeEmail(email)}`;
    const gate = limiters.accountFailures.peek(key);
    if (!gate.allowed) throw tooMany(gate.retryAfterSeconds);
    const user = await users.findByEmail(email);
    let ok = false;
    if (user?.passwordHash) ok = await hasher.verify(user.passwordHash, password);
    else await hasher.verifyDummy(password); // unknown email: spend the same time as a real check
    if (!ok || !user) {
      limiters.accountFailures.take(key);
      throw failure();
    }
    limiters.accountFailures.reset(key);
    return user;
  }

  /** A live session whose current refresh secret matches the cookie, else null. */
  async function sessionFromCookie(token: string | undefined) {
    const parsed = parseSessionToken(token);
    if (!parsed) return null;
    const session = await sessions.findById(parsed.id);
    if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
    return { session, parsed, hash: sha256(parsed.secret) };
  }

  // 400, not 401: a 401 would make the web client refresh and retry as if the session had expired.
  const wrongCurrentPassword = () => new InputError('Current password is incorrect');

  async function requireAccount(userId: string): Promise<UserRecord> {
    const user = await users.findById(userId);
    if (!user) throw new AuthenticationError(SESSION_GONE);
    return user;
  }

  async function requireAdmin(actor: AuthenticatedUser): Promise<void> {
    const me = await users.findById(actor.id);
    if (!me || me.role !== 'admin') throw new NotAllowedError(ACCESS_DENIED_MESSAGE);
  }

  return {
    async register(input: { email: string; password: string; name: string }, ctx: RequestContext) {
      const gate = limiters.registrations.take(`register:${normalizeEmail(input.email)}`);
      if (!gate.allowed) throw tooMany(gate.retryAfterSeconds);
      if (await users.findByEmail(input.email))
        throw new ConflictError('An account with this email already exists');
      const user = await users.create({
        id: randomUUID(),
        email: input.email,
        name: input.name,
        passwordHash: await hasher.hash(input.password),
        googleSub: null,
        role: roleFor(input.email),
      });
      logger.info({ userId: user.id, role: user.role }, 'user registered');
      return startSession(user, ctx);
    },

    async login(input: { email: string; password: string }, ctx: RequestContext) {
      const user = await syncRole(
        await checkPassword(input.email, input.password, () => new AuthenticationError(LOGIN_FAILED)),
      );
      return startSession(user, ctx);
    },

    async adminLogin(input: { email: string; password: string }, ctx: RequestContext) {
      const user = await syncRole(
        await checkPassword(input.email, input.password, () => new AuthenticationError(ADMIN_LOGIN_FAILED)),
      );
      if (user.role !== 'admin') {
        logger.warn({ userId: user.id }, 'admin login refused: not an admin');
        throw new AuthenticationError(ADMIN_LOGIN_FAILED);
      }
      return startSession(user, ctx);
    },

    async googleLogin(input: { credential: string; clientId: string | undefined }, ctx: RequestContext) {
      if (!deps.google || !config.googleClientId) throw new NotFoundError(GOOGLE_DISABLED);
      // The widget reports which client it used; a token minted for another client is not for us.
      if (input.clientId !== undefined && input.clientId !== config.googleClientId) {
        throw new AuthenticationError(GOOGLE_LOGIN_FAILED);
      }
      const identity = await deps.google.verify(input.credential);
      let user = await users.findByGoogleSub(identity.sub);
      if (!user) {
        // Link to an existing account only on an address Google has verified, else anyone could claim it.
        if (!identity.emailVerified) throw new AuthenticationError(GOOGLE_LOGIN_FAILED);
        const existing = await users.findByEmail(identity.email);
        if (existing) {
          if (existing.googleSub !== null) throw new AuthenticationError(GOOGLE_LOGIN_FAILED);
          await users.linkGoogle(existing.id, identity.sub);
          user = { ...existing, googleSub: identity.sub };
          logger.info({ userId: user.id }, 'Google account linked');
        } else {
          const name = (identity.name?.trim() || identity.email.split('@')[0] || 'User').slice(
            0,
            MAX_NAME_LENGTH,
          );
          user = await users.create({
            id: randomUUID(),
            email: identity.email,
            name,
            passwordHash: null,
            googleSub: identity.sub,
            role: roleFor(identity.email),
          });
          logger.info({ userId: user.id }, 'user registered with Google');
        }
      }
      return startSession(await syncRole(user), ctx);
    },

    /** Revokes the session named by a verified access token or a valid session cookie; idempotent. */
    async logout(credentials: { accessToken?: string; sessionToken?: string }): Promise<void> {
      const ids = new Set<string>();
      if (credentials.accessToken) {
        const verified = await deps.verifier.verify(credentials.accessToken).catch(() => null);
        if (verified) ids.add(verified.sessionId);
      }
      const fromCookie = await sessionFromCookie(credentials.sessionToken);
      if (fromCookie && safeEqual(fromCookie.hash, fromCookie.session.refreshHash))
        ids.add(fromCookie.session.id);
      for (const id of ids) await sessions.revoke(id, 'logout');
    },

    /** Rotates the refresh secret and mints a new access token; a replayed old secret revokes the session. */
    async refresh(sessionToken: string | undefined): Promise<IssuedSession> {
      const found = await sessionFromCookie(sessionToken);
      if (!found) throw new AuthenticationError(SESSION_GONE);
      const { session, parsed, hash } = found;
      const user = await requireAccount(session.userId);
      if (safeEqual(hash, session.refreshHash)) {
        const secret = randomBytes(32).toString('base64url');
        const expiresAt = new Date(Date.now() + config.sessionTtlMs);
        if (await sessions.rotate(session.id, hash, sha256(secret), expiresAt)) {
          const access = await accessFor(user, session.id);
          return {
            user: toPublicUser(user),
            accessToken: access.token,
            accessExpiresAt: access.expiresAt,
            sessionToken: `${parsed.id}.${secret}`,
          };
        }
        // Lost a race with a concurrent refresh of the same secret: treated like the grace case below.
      } else if (!session.previousRefreshHash || !safeEqual(hash, session.previousRefreshHash)) {
        throw new AuthenticationError(SESSION_GONE);
      }
      const rotatedAt = (await sessions.findById(session.id))?.rotatedAt;
      if (!rotatedAt || Date.now() - rotatedAt.getTime() > REFRESH_GRACE_MS) {
        // An old refresh secret came back long after rotation: it leaked. End the session for everyone.
        await sessions.revoke(session.id, 'refresh token reuse');
        logger.warn({ userId: user.id, sessionId: session.id }, 'refresh token reuse: session revoked');
        throw new AuthenticationError(SESSION_GONE);
      }
      // Another tab refreshed a moment ago and the browser already holds the new cookie: new access only.
      const access = await accessFor(user, session.id);
      return { user: toPublicUser(user), accessToken: access.token, accessExpiresAt: access.expiresAt };
    },

    /**
     * The signed-in user for GET /session: from a live access token, else from a valid session cookie
     * (then with a freshly minted access token, so an app opened after the token expired stays signed in).
     */
    async currentSession(credentials: { accessToken?: string; sessionToken?: string }): Promise<{
      user: PublicUser;
      issued?: IssuedSession;
    }> {
      if (credentials.accessToken) {
        const verified = await deps.verifier.verify(credentials.accessToken).catch(() => null);
        const user = verified && (await users.findById(verified.id));
        if (user) return { user: toPublicUser(user) };
      }
      const found = await sessionFromCookie(credentials.sessionToken);
      if (found && safeEqual(found.hash, found.session.refreshHash)) {
        const user = await users.findById(found.session.userId);
        if (user) {
          const access = await accessFor(user, found.session.id);
          const publicUser = toPublicUser(user);
          return {
            user: publicUser,
            issued: { user: publicUser, accessToken: access.token, accessExpiresAt: access.expiresAt },
          };
        }
      }
      throw new AuthenticationError(NOT_SIGNED_IN);
    },

    async profile(actor: AuthenticatedUser): Promise<PublicUser> {
      return toPublicUser(await requireAccount(actor.id));
    },

    async updateProfile(actor: AuthenticatedUser, change: ProfileChange): Promise<PublicUser> {
      const user = await requireAccount(actor.id);
      if (change.email !== undefined && normalizeEmail(change.email) !== normalizeEmail(user.email)) {
        // Changing the sign-in address needs the password, so a stolen token cannot take over the account.
        if (!user.passwordHash)
          throw new InputError('This account signs in with Google; its email cannot be changed here');
        if (change.currentPassword === undefined)
          throw new InputError('Current password is required to change the email');
        await checkPassword(user.email, change.currentPassword, wrongCurrentPassword);
      }
      const updated = await users.updateProfile(user.id, { name: change.name, email: change.email });
      if (!updated) throw new AuthenticationError(SESSION_GONE);
      return toPublicUser(await syncRole(updated));
    },

    async changePassword(actor: AuthenticatedUser, input: { currentPassword: string; newPassword: string }) {
      const user = await requireAccount(actor.id);
      if (!user.passwordHash) throw new InputError('This account signs in with Google and has no password');
      await checkPassword(user.email, input.currentPassword, wrongCurrentPassword);
      await users.setPasswordHash(user.id, await hasher.hash(input.newPassword));
      // Every other device signs in again with the new password; this one stays signed in.
      const revoked = await sessions.revokeAllForUser(user.id, 'password changed', actor.sessionId);
      logger.info({ userId: user.id, revokedSessions: revoked.length }, 'password changed');
      return { message: 'Password changed' };
    },

    async settings(actor: AuthenticatedUser): Promise<UserSettings> {
      await requireAccount(actor.id);
      return users.getSettings(actor.id);
    },

    async updateSettings(actor: AuthenticatedUser, change: SettingsChange): Promise<UserSettings> {
      await requireAccount(actor.id);
      return users.updateSettings(actor.id, change);
    },

    /** Admins only (checked against the stored role, not just the token's claim). */
    async listUsers(
      actor: AuthenticatedUser,
      page: { limit: number; offset: number },
    ): Promise<AdminUserRow[]> {
      await requireAdmin(actor);
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
      await requireAdmin(actor);
      const kid = await keys.rotate(options);
      logger.info({ userId: actor.id, kid, immediate: options.immediate }, 'signing key rotated by an admin');
      return { kid };
    },
  };
}
