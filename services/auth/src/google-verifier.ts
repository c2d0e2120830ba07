// Verifies Google Identity Services ID tokens (the `credential` of the sign-in widget) locally:
// RS256 signature against Google's published keys, audience = our client id, Google as issuer, expiry.
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { JWTVerifyGetKey } from 'jose';
import { AuthenticationError } from '@kaboodle/platform';

export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];
export const GOOGLE_LOGIN_FAILED = 'Google login failed';

export interface GoogleIdentity {
  /** Google's stable account id. */
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | undefined;
}

export interface GoogleTokenVerifier {
  /** Throws AuthenticationError("Google login failed") for any token that does not verify. */
  verify(credential: string): Promise<GoogleIdentity>;
}

export interface GoogleTokenVerifierOptions {
  clientId: string;
  /** Google's JWKS (default in auth-config.ts); fetched on first use, cached, refetched on an unknown kid. */
  jwksUrl: string;
  clockToleranceSeconds?: number;
  /** Ceiling for one key-set fetch (default 5 s). */
  fetchTimeoutMs?: number;
}

export function createGoogleTokenVerifier(options: GoogleTokenVerifierOptions): GoogleTokenVerifier {
  let keys: JWTVerifyGetKey | undefined;
  return {
    async verify(credential) {
      try {
        // Created on first use: nothing reaches Google's servers until someone signs in with Google.
        keys ??= createRemoteJWKSet(new URL(options.jwksUrl), {
          timeoutDuration: options.fetchTimeoutMs ?? 5_000,
          cooldownDuration: 30_000,
          cacheMaxAge: 6 * 3_600_000,
        });
        const { payload } = await jwtVerify(credential, keys, {
          algorithms: ['RS256'],
          issuer: GOOGLE_ISSUERS,
          audience: options.clientId,
          clockTolerance: options.clockToleranceSeconds ?? 60,
          requiredClaims: ['exp', 'iat', 'sub'],
        });
        const { sub, email, email_verified: verified, name } = payload as Record<string, unknown>;
        if (typeof sub !== 'string' || sub === '') throw new Error('ID token has no subject');
        if (typeof email !== 'string' || email === '') throw new Error('ID token has no email');
        return {
          sub,
          email,
          // Google sends a boolean; older tokens sent the string "true".
          emailVerified: verified === true || verified === 'true',
          name: typeof name === 'string' ? name : undefined,
        };
      } catch (err) {
        throw new AuthenticationError(GOOGLE_LOGIN_FAILED, { cause: err });
      }
    },
  };
}
