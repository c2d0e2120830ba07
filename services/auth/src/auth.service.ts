// The auth domain's sign-in side: accounts (password, Google, admin sign-in), server-side sessions
// with refresh rotation, sign-out. No HTTP here: routes translate requests into these calls.
// Profile, password, settings and the e-mail links live in account.service.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import { AuthenticationError, ConflictError, NotFoundError, safeEqual } from '@kaboodle/platform';
import type { Logger, TokenVerifier } from '@kaboodle/platform';
import { MAX_NAME_LENGTH, normalizeEmail } from './account-fields.ts';
import type { AccountMail } from './account-mail.ts';
import type { AuthConfig } from './auth-config.ts';
import { SESSION_GONE, sha256, toPublicUser, tooMany } from './auth-core.ts';
import type { AuthCore, IssuedSession, PublicUser, RequestContext } from './auth-core.ts';
import type { AuthStores } from './auth-stores.ts';
import type { BackgroundTasks } from './background-tasks.ts';
import type { GoogleTokenVerifier } from './google-verifier.ts';
import { GOOGLE_LOGIN_FAILED } from './google-verifier.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { Roles } from './roles.ts';
import type { UserRecord } from './user.repository.ts';

export type { IssuedSession, PublicUser, RequestContext } from './auth-core.ts';
export { SESSION_GONE } from './auth-core.ts';

export const LOGIN_FAILED = 'Login failed';
export const ADMIN_LOGIN_FAILED = 'Admin login failed';
export const NOT_SIGNED_IN = 'Not signed in';
export const GOOGLE_DISABLED = 'Google sign-in is not enabled on this server';

export const GOOGLE_LINK_UNVERIFIED =
  'An account with this email already exists, and its address has not been verified, so Google sign-in cannot be added to it. Sign in with your password and open the verification link we emailed you (or use "Forgot password?"), then sign in with Google.';

/** A late duplicate of a just-rotated refresh secret (another tab refreshing at once) is tolerated this long. */
const REFRESH_GRACE_MS = 30_000;

export interface AuthLimiters {
  /** Registration attempts per email. */
  registrations: RateLimiter;
}

export interface AuthServiceDeps {
  stores: AuthStores;
  core: AuthCore;
  roles: Roles;
  mail: AccountMail;
  /** Mail sent after the answer. */
  background: BackgroundTasks;
  hasher: PasswordHasher;
  /** Null when Google sign-in is disabled. */
  google: GoogleTokenVerifier | null;
  /** Verifies access tokens (with the session revocation check). */
  verifier: TokenVerifier;
  limiters: AuthLimiters;
  config: AuthConfig;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const REFRESH_SECRET = /^[A-Za-z0-9_-]{43}$/;

/** Splits a session cookie; null for anything malformed. */
function parseSessionToken(token: string | undefined): { id: string; secret: string } | null {
  if (typeof token !== 'string') return null;
  const [id, secret, ...rest] = token.split('.');
  if (rest.length > 0 || !id || !secret || !UUID.test(id) || !REFRESH_SECRET.test(secret)) return null;
  return { id, secret };
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: AuthServiceDeps) {
  const { stores, core, roles, hasher, config, limiters, logger } = deps;
  const { users, sessions } = stores;

  /** A live session whose current refresh secret matches the cookie, else null. */
  async function sessionFromCookie(token: string | undefined) {
    const parsed = parseSessionToken(token);
    if (!parsed) return null;
    const session = await sessions.findById(parsed.id);
    if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
    return { session, parsed, hash: sha256(parsed.secret) };
  }

  return {
    async register(input: { email: string; password: string; name: string }, ctx: RequestContext) {
      const gate = await limiters.registrations.take(`register:${normalizeEmail(input.email)}`);
      if (!gate.allowed) throw tooMany(gate.retryAfterSeconds);
      if (await users.findByEmail(input.email))
        throw new ConflictError('An account with this email already exists');
      // No privileges yet, whatever ADMIN_EMAILS says: they follow the address once it is verified.
      const user = await users.create({
        id: randomUUID(),
        email: input.email,
        name: input.name,
        passwordHash: await hasher.hash(input.password),
        googleSub: null,
        role: 'user',
        emailVerified: false,
      });
      logger.info({ userId: user.id }, 'user registered');
      // Sent after the answer: a slow or down mail server neither delays nor undoes the registration
      // (the notice's "Resend" tries again, and says so if it fails).
      deps.background.run(
        'sending the verification link',
        () => deps.mail.sendVerification(user, user.email, false),
        {
          userId: user.id,
        },
      );
      return core.startSession(user, ctx);
    },

    async login(input: { email: string; password: string }, ctx: RequestContext) {
      const user = await roles.apply(
        await core.checkPassword(input.email, input.password, () => new AuthenticationError(LOGIN_FAILED)),
      );
      return core.startSession(user, ctx);
    },

    async adminLogin(input: { email: string; password: string }, ctx: RequestContext) {
      const user = await roles.apply(
        await core.checkPassword(
          input.email,
          input.password,
          () => new AuthenticationError(ADMIN_LOGIN_FAILED),
        ),
      );
      if (user.role !== 'admin') {
        logger.warn({ userId: user.id }, 'admin login refused: not an admin');
        throw new AuthenticationError(ADMIN_LOGIN_FAILED);
      }
      return core.startSession(user, ctx);
    },

    async googleLogin(input: { credential: string; clientId: string | undefined }, ctx: RequestContext) {
      if (!deps.google || !config.googleClientId) throw new NotFoundError(GOOGLE_DISABLED);
      // The widget reports which client it used; a token minted for another client is not for us.
      if (input.clientId !== undefined && input.clientId !== config.googleClientId) {
        throw new AuthenticationError(GOOGLE_LOGIN_FAILED);
      }
      const identity = await deps.google.verify(input.credential);
      let user: UserRecord | null = await users.findByGoogleSub(identity.sub);
      if (!user) {
        // Only an address Google has verified may create or join an account, else anyone could claim it.
        if (!identity.emailVerified) throw new AuthenticationError(GOOGLE_LOGIN_FAILED);
        const existing = await users.findByEmail(identity.email);
        if (existing) {
          if (existing.googleSub !== null) throw new AuthenticationError(GOOGLE_LOGIN_FAILED);
          // Whoever registered the address first may not be its owner: joining their account would
          // leave them a way in (their password) once the real owner signs in with Google.
          if (!existing.emailVerifiedAt) {
            logger.warn({ userId: existing.id }, 'Google link refused: the account address is not verified');
            throw new ConflictError(GOOGLE_LINK_UNVERIFIED);
          }
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
            role: 'user',
            emailVerified: true,
          });
          logger.info({ userId: user.id }, 'user registered with Google');
        }
      }
      return core.startSession(await roles.apply(user), ctx);
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
      // The stored role is re-read and brought in line with ADMIN_EMAILS and grants: a lost admin
      // role ends every session (this one too), so it is not carried on by refreshing.
      const user = await roles.apply(await core.requireAccount(session.userId));
      if (user.revokedSessions > 0) throw new AuthenticationError(SESSION_GONE);
      if (safeEqual(hash, session.refreshHash)) {
        const secret = randomBytes(32).toString('base64url');
        const expiresAt = new Date(Date.now() + config.sessionTtlMs);
        if (await sessions.rotate(session.id, hash, sha256(secret), expiresAt)) {
          const access = await core.accessFor(user, session.id);
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
      const access = await core.accessFor(user, session.id);
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
          const access = await core.accessFor(user, found.session.id);
          const publicUser = toPublicUser(user);
          return {
            user: publicUser,
            issued: { user: publicUser, accessToken: access.token, accessExpiresAt: access.expiresAt },
          };
        }
      }
      throw new AuthenticationError(NOT_SIGNED_IN);
    },
  };
}
