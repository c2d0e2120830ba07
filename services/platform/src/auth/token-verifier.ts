// Verifies Kaboodle access tokens locally against the auth service's published keys (JWKS).
// In `--target=all` the keys come in-process (getJwks); split, from the auth service over HTTP (jwksUrl).
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { AuthenticationError, UnavailableError } from '../errors.ts';
import {
  ACCESS_TOKEN_ALGORITHMS,
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  ACCESS_TOKEN_TYPE,
  SESSION_EXPIRED_MESSAGE,
} from './constants.ts';

export type UserRole = 'user' | 'admin';

/** Who a verified access token speaks for. */
export interface AuthenticatedUser {
  id: string;
  email: string;
  role: UserRole;
  /** Server-side session the token was issued under (`sid`): logout revokes it. */
  sessionId: string;
  expiresAt: Date;
}

export interface TokenVerifier {
  /** Resolves with the token's user; throws AuthenticationError ("Session expired") for any bad token. */
  verify(token: string): Promise<AuthenticatedUser>;
}

export interface TokenVerifierOptions {
  /** Fetch the key set from here (split mode: `${AUTH_URL}/api/auth/jwks`); cached, refetched on an unknown kid. */
  jwksUrl?: string | URL;
  /** Or get it in-process (`--target=all`); called again (at most once per cooldown) on an unknown kid. */
  getJwks?: () => Promise<JSONWebKeySet>;
  issuer?: string;
  audience?: string;
  /** Tolerated clock difference for exp/nbf/iat (default 30 s). */
  clockToleranceSeconds?: number;
  /** Minimum time between two key-set fetches triggered by unknown kids (default 30 s remote, 1 s in-process). */
  refetchCooldownMs?: number;
  /**
   * How long a fetched key set is used before it is fetched again (default 30 s in-process, 10 min
   * remote). A rotated-in key is published 2 min before it signs, and an unknown kid triggers a
   * refetch once the cooldown (30 s remote) has passed, so the defaults never miss a rotation.
   */
  cacheMaxAgeMs?: number;
  /** Optional server-side revocation check (the auth module supplies one in-process). */
  isRevoked?: (user: AuthenticatedUser) => Promise<boolean>;
}

/** Keys the key source could not find are a bad token (401); a key source that fails is an outage (503). */
function isTokenProblem(err: unknown): boolean {
  return (
    err instanceof errors.JWKSNoMatchingKey ||
    err instanceof errors.JWKSMultipleMatchingKeys ||
    err instanceof errors.JWKInvalid ||
    err instanceof errors.JOSENotSupported
  );
}

function wrapKeySource(getKey: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await getKey(header, token);
    } catch (err) {
      if (isTokenProblem(err)) throw err;
      throw new UnavailableError('Authentication keys are unavailable', { cause: err });
    }
  };
}

function inProcessKeySource(
  getJwks: () => Promise<JSONWebKeySet>,
  cooldownMs: number,
  maxAgeMs: number,
): JWTVerifyGetKey {
  let current: JWTVerifyGetKey | undefined;
  let fetchedAt = 0;
  let inflight: Promise<JWTVerifyGetKey> | undefined;
  const load = (): Promise<JWTVerifyGetKey> => {
    inflight ??= getJwks()
      .then((jwks) => {
        current = createLocalJWKSet(jwks);
        fetchedAt = Date.now();
        return current;
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };
  return async (header, token) => {
    // Refreshed by age too, so keys published ahead of a rotation are known before they sign.
    const keys = current && Date.now() - fetchedAt < maxAgeMs ? current : await load();
    try {
      return await keys(header, token);
    } catch (err) {
      // A key rotated in since the last fetch: reload once, but never let forged kids hammer the source.
      if (err instanceof errors.JWKSNoMatchingKey && Date.now() - fetchedAt >= cooldownMs) {
        return (await load())(header, token);
      }
      throw err;
    }
  };
}

export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  if ((options.jwksUrl === undefined) === (options.getJwks === undefined)) {
    throw new Error('createTokenVerifier: give exactly one of jwksUrl or getJwks');
  }
  const issuer = options.issuer ?? ACCESS_TOKEN_ISSUER;
  const audience = options.audience ?? ACCESS_TOKEN_AUDIENCE;
  const clockTolerance = options.clockToleranceSeconds ?? 30;
  const getKey = wrapKeySource(
    options.jwksUrl !== undefined
      ? createRemoteJWKSet(new URL(options.jwksUrl), {
          cooldownDuration: options.refetchCooldownMs ?? 30_000,
          cacheMaxAge: options.cacheMaxAgeMs ?? 10 * 60_000,
          timeoutDuration: 5_000,
        })
      : inProcessKeySource(
          options.getJwks!,
          options.refetchCooldownMs ?? 1_000,
          options.cacheMaxAgeMs ?? 30_000,
        ),
  );

  return {
    async verify(token) {
      let user: AuthenticatedUser;
      try {
        if (typeof token !== 'string' || token.length === 0 || token.length > 8192) {
          throw new Error('token missing or oversized');
        }
        const { payload, protectedHeader } = await jwtVerify(token, getKey, {
          algorithms: [...ACCESS_TOKEN_ALGORITHMS],
          issuer,
          audience,
          typ: ACCESS_TOKEN_TYPE,
          clockTolerance,
          requiredClaims: ['exp', 'iat', 'sub', 'sid'],
        });
        if (typeof protectedHeader.kid !== 'string') throw new Error('token has no kid');
        const { sub, email, role, sid, exp } = payload as Record<string, unknown>;
        if (typeof sub !== 'string' || sub === '') throw new Error('token has no subject');
        if (typeof email !== 'string') throw new Error('token has no email');
        if (role !== 'user' && role !== 'admin') throw new Error('token has no valid role');
        if (typeof sid !== 'string' || sid === '') throw new Error('token has no session');
        user = { id: sub, email, role, sessionId: sid, expiresAt: new Date((exp as number) * 1000) };
      } catch (err) {
        if (err instanceof UnavailableError) throw err;
        throw new AuthenticationError(SESSION_EXPIRED_MESSAGE, { cause: err });
      }
      if (options.isRevoked && (await options.isRevoked(user))) {
        throw new AuthenticationError(SESSION_EXPIRED_MESSAGE, { details: { reason: 'session revoked' } });
      }
      return user;
    },
  };
}
