import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError } from '@kaboodle/platform';
import { createGoogleTokenVerifier } from './google-verifier.ts';
import { startGoogleKeySetStandIn } from './testing/google-stand-in.ts';
import type { GoogleKeySetStandIn } from './testing/google-stand-in.ts';

const CLIENT_ID = '1234567890-kaboodle-test.apps.googleusercontent.com';
const now = () => Math.floor(Date.now() / 1000);

describe('Google ID token verification (against a local stand-in for Google’s key set)', () => {
  let google: GoogleKeySetStandIn;
  beforeAll(async () => {
    google = await startGoogleKeySetStandIn(CLIENT_ID);
  });
  afterAll(() => google.close());

  const verifier = () => createGoogleTokenVerifier({ clientId: CLIENT_ID, jwksUrl: google.jwksUrl });

  it('accepts a valid token and returns the identity', async () => {
    const identity = await verifier().verify(await google.mint({ sub: 'g-1', email: 'grace@example.com' }));
    expect(identity).toEqual({
      sub: 'g-1',
      email: 'grace@example.com',
      emailVerified: true,
      name: 'Grace Hopper',
    });
  });

  it('accepts both issuer spellings Google uses', async () => {
    await expect(verifier().verify(await google.mint({ iss: 'accounts.google.com' }))).resolves.toBeTruthy();
  });

  it('fetches the key set lazily, once, and caches it', async () => {
    const before = google.fetches;
    const v = verifier();
    expect(google.fetches).toBe(before);
    await v.verify(await google.mint());
    await v.verify(await google.mint());
    expect(google.fetches).toBe(before + 1);
  });

  it.each([
    ['another audience', { aud: 'someone-elses-client-id.apps.googleusercontent.com' }],
    ['another issuer', { iss: 'https://evil.example' }],
    ['an expired token', { exp: now() - 3600, iat: now() - 7200 }],
    ['no email', { email: '' }],
  ])('refuses %s with "Google login failed"', async (_name, claims) => {
    const err = await verifier()
      .verify(await google.mint(claims))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as Error).message).toBe('Google login failed');
  });

  it('refuses a token signed by a key Google did not publish (forged, same kid)', async () => {
    const forged = await google.mint({}, await google.forgerKey());
    await expect(verifier().verify(forged)).rejects.toThrow('Google login failed');
  });

  it('refuses garbage', async () => {
    await expect(verifier().verify('not.a.jwt')).rejects.toThrow('Google login failed');
  });

  it('reports unverified emails so the service can refuse to link them', async () => {
    const identity = await verifier().verify(await google.mint({ email_verified: false }));
    expect(identity.emailVerified).toBe(false);
  });
});
