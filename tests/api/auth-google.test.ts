// Google sign-in over real HTTP. Google's servers are mocked (they cannot be reached from tests): ID
// tokens are verified against a locally generated RSA key set standing in for Google's, served on
// loopback (services/auth/src/testing/google-stand-in.ts). Nothing reaches Google.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleKeySetStandIn } from '../../services/auth/src/testing/google-stand-in.ts';
import type { GoogleKeySetStandIn } from '../../services/auth/src/testing/google-stand-in.ts';
import { startAuthTestServer } from './support/auth-server.ts';
import type { AuthTestServer } from './support/auth-server.ts';

const CLIENT_ID = '424242424242-kaboodle-e2e.apps.googleusercontent.com';

let google: GoogleKeySetStandIn;
let server: AuthTestServer;
beforeAll(async () => {
  google = await startGoogleKeySetStandIn(CLIENT_ID);
  server = await startAuthTestServer({
    env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: google.jwksUrl, ADMIN_EMAILS: 'chief@example.com' },
  });
});
afterAll(async () => {
  await server?.close();
  await google?.close();
});

interface SignIn {
  user: { id: string; email: string; name: string; role: string };
  message: string;
  token: string;
}
const signIn = (credential: string, clientId: string | undefined = CLIENT_ID) =>
  server
    .client()
    .request<SignIn>('POST', '/api/auth/google', { body: { credential, clientId, select_by: 'btn' } });

describe('POST /api/auth/google', () => {
  it('GET /config reports the provider enabled with its client id', async () => {
    const res = await server.client().request('GET', '/api/auth/config');
    expect(res.body).toEqual({ google: { enabled: true, clientId: CLIENT_ID } });
  });

  it('creates an account from a valid credential: 200 {user, message, token} and cookies', async () => {
    const res = await signIn(
      await google.mint({ sub: 'g-new', email: 'grace@example.com', name: 'Grace Hopper' }),
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Google login successful');
    expect(res.body.user).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper', role: 'user' });
    expect(res.setCookies.map((c) => c.name).sort()).toEqual([
      'kaboodle_access',
      'kaboodle_csrf',
      'kaboodle_session',
    ]);
    const session = await server
      .client()
      .request<{ user: { id: string } }>('GET', '/api/auth/session', { bearer: res.body.token });
    expect(session.body.user.id).toBe(res.body.user.id);
  });

  it('signs the same Google account into the same user next time', async () => {
    const first = await signIn(await google.mint({ sub: 'g-same', email: 'same@example.com' }));
    const again = await signIn(await google.mint({ sub: 'g-same', email: 'same@example.com' }));
    expect(again.body.user.id).toBe(first.body.user.id);
  });

  it('links to an existing password account whose address was verified, when Google verified it too', async () => {
    const reg = await server.client().request<SignIn>('POST', '/api/auth/register', {
      body: { email: 'Linked@Example.com', password: 'long enough passphrase', name: 'Linked' },
    });
    await server.verify('Linked@Example.com');
    const res = await signIn(await google.mint({ sub: 'g-link', email: 'linked@example.com' }));
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(reg.body.user.id);
  });

  it('refuses to join an account whose address nobody verified: whoever registered it first may not own it', async () => {
    // The attacker registers the victim's address and keeps its password...
    const attacker = server.client();
    const reg = await attacker.request<SignIn>('POST', '/api/auth/register', {
      body: { email: 'target@example.com', password: 'attacker keeps this', name: 'Not the owner' },
    });
    expect(reg.status).toBe(201);
    // ...then the real owner signs in with Google: refused with a clear message, nothing linked.
    const res = await signIn(await google.mint({ sub: 'g-target', email: 'target@example.com' }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'An account with this email already exists, and its address has not been verified, so Google sign-in cannot be added to it. Sign in with your password and open the verification link we emailed you (or use "Forgot password?"), then sign in with Google.',
    );
    expect(res.setCookies).toHaveLength(0);
    const { rows } = await server.db.query<{ google_sub: string | null }>(
      `SELECT google_sub FROM users WHERE email_normalized = 'target@example.com'`,
    );
    expect(rows[0]!.google_sub).toBeNull();
    // The owner takes the address back by resetting the password: the attacker's session ends.
    await server
      .client()
      .request('POST', '/api/auth/password-reset', { body: { email: 'target@example.com' } });
    const mail = await server.mailTo('target@example.com', /Reset your Kaboodle password/);
    const token = new URL(mail.link!).searchParams.get('token');
    const reset = await server.client().request('POST', '/api/auth/password-reset/confirm', {
      body: { token, new_password: 'only the owner knows' },
    });
    expect(reset.status).toBe(200);
    expect((await attacker.request('GET', '/api/auth/session')).status).toBe(401);
    const linked = await signIn(await google.mint({ sub: 'g-target', email: 'target@example.com' }));
    expect(linked.status).toBe(200);
    expect(linked.body.user.id).toBe(reg.body.user.id);
  });

  it('an account created by Google sign-in (email_verified) starts verified', async () => {
    const res = await signIn(await google.mint({ sub: 'g-fresh', email: 'fresh@example.com' }));
    expect((res.body.user as unknown as { email_verified_at: string | null }).email_verified_at).toEqual(
      expect.stringMatching(/^\d{4}-/),
    );
  });

  it('refuses to link an existing account on an unverified email', async () => {
    await server.client().request('POST', '/api/auth/register', {
      body: { email: 'victim@example.com', password: 'long enough passphrase', name: 'V' },
    });
    const res = await signIn(
      await google.mint({ sub: 'g-attacker', email: 'victim@example.com', email_verified: false }),
    );
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Google login failed');
  });

  it('applies ADMIN_EMAILS to Google accounts too', async () => {
    const res = await signIn(await google.mint({ sub: 'g-chief', email: 'chief@example.com' }));
    expect(res.body.user.role).toBe('admin');
  });

  it.each([
    ['a token for another client (audience)', { aud: 'another.apps.googleusercontent.com' }],
    ['a token from another issuer', { iss: 'https://accounts.example.com' }],
    [
      'an expired token',
      { exp: Math.floor(Date.now() / 1000) - 600, iat: Math.floor(Date.now() / 1000) - 4200 },
    ],
  ])('refuses %s: 401 "Google login failed"', async (_case, claims) => {
    const res = await signIn(await google.mint(claims));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Google login failed');
    expect(res.setCookies).toHaveLength(0);
  });

  it('refuses a token signed with a key Google did not publish', async () => {
    const res = await signIn(await google.mint({}, await google.forgerKey()));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Google login failed');
  });

  it('refuses a clientId in the body that is not ours, and garbage credentials', async () => {
    expect((await signIn(await google.mint(), 'someone-else.apps.googleusercontent.com')).status).toBe(401);
    const garbage = await signIn('not-a-jwt');
    expect(garbage.status).toBe(401);
    expect(garbage.body.message).toBe('Google login failed');
  });

  it('fetched the stand-in key set lazily and cached it (one fetch for all sign-ins)', () => {
    expect(google.fetches).toBe(1);
  });
});
