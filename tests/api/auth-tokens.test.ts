// Token and CSRF defences of /api/auth and the shared platform middleware, over real HTTP:
// forged, expired, alg-none and algorithm-confusion tokens, the CSRF rule, key rotation.
import { importPKCS8, SignJWT, base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer } from './support/auth-server.ts';
import type { AuthTestServer } from './support/auth-server.ts';
import type { AuthClient } from './support/auth-client.ts';

const ACCESS_DENIED = 'Access denied. You may not have permission for this action.';

let server: AuthTestServer;
let user: { id: string; email: string };
let token: string;
let signedIn: AuthClient;

beforeAll(async () => {
  // No AUTH_KEY_SECRET here, so the test can read the server's own private key to mint expired tokens.
  server = await startAuthTestServer({ env: { ADMIN_EMAILS: 'keys@example.com' } });
  signedIn = server.client();
  const res = await signedIn.request<{ user: { id: string; email: string }; token: string }>(
    'POST',
    '/api/auth/register',
    {
      body: { email: 'tok@example.com', password: 'long enough passphrase', name: 'Tok' },
    },
  );
  user = res.body.user;
  token = res.body.token;
});
afterAll(() => server?.close());

async function serverKey() {
  const { rows } = await server.db.query<{ kid: string; private_key: string }>(
    'SELECT kid, private_key FROM signing_keys WHERE retired_at IS NULL',
  );
  const row = rows[0]!;
  return { kid: row.kid, key: await importPKCS8(row.private_key.replace(/^plain-v1:/, ''), 'EdDSA') };
}

const sessionIdOf = (jwt: string) =>
  (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
const now = () => Math.floor(Date.now() / 1000);

async function mint(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const { kid, key } = await serverKey();
  return new SignJWT({
    sub: user.id,
    email: user.email,
    role: 'user',
    sid: sessionIdOf(token),
    iss: 'kaboodle-auth',
    aud: 'kaboodle-api',
    iat: now(),
    exp: now() + 600,
    ...claims,
  })
    .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'at+jwt', ...header })
    .sign(key);
}

const profileWith = (bearer: string) => server.client().request('GET', '/api/auth/profile', { bearer });

describe('access tokens', () => {
  it('a token minted like the server’s passes (control for the cases below)', async () => {
    expect((await profileWith(await mint({}))).status).toBe(200);
  });

  it('an expired token is 401 "Session expired"', async () => {
    const res = await profileWith(await mint({ iat: now() - 3600, exp: now() - 1800 }));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Session expired');
  });

  it('an alg "none" token is 401', async () => {
    const enc = (o: unknown) => base64url.encode(JSON.stringify(o));
    const none = `${enc({ alg: 'none', typ: 'at+jwt' })}.${enc({ sub: user.id, email: user.email, role: 'admin', sid: sessionIdOf(token), iss: 'kaboodle-auth', aud: 'kaboodle-api', iat: now(), exp: now() + 600 })}.`;
    expect((await profileWith(none)).status).toBe(401);
  });

  it('an HS256 token keyed with the published public key is 401 (algorithm confusion)', async () => {
    const jwks = (
      await server.client().request<{ keys: { x: string; kid: string }[] }>('GET', '/api/auth/jwks')
    ).body;
    const forged = await new SignJWT({
      sub: user.id,
      email: user.email,
      role: 'admin',
      sid: sessionIdOf(token),
      iss: 'kaboodle-auth',
      aud: 'kaboodle-api',
    })
      .setProtectedHeader({ alg: 'HS256', kid: jwks.keys[0]!.kid, typ: 'at+jwt' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(base64url.decode(jwks.keys[0]!.x));
    expect((await profileWith(forged)).status).toBe(401);
  });

  it('a token whose payload was edited (role → admin) is 401', async () => {
    const [h, , s] = token.split('.');
    const payload = {
      ...JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()),
      role: 'admin',
    };
    expect((await profileWith(`${h}.${base64url.encode(JSON.stringify(payload))}.${s}`)).status).toBe(401);
  });

  it('a token for another audience or issuer is 401', async () => {
    expect((await profileWith(await mint({ aud: 'other' }))).status).toBe(401);
    expect((await profileWith(await mint({ iss: 'other' }))).status).toBe(401);
  });

  it('a well-signed token for a session that does not exist is 401', async () => {
    expect((await profileWith(await mint({ sid: '00000000-0000-4000-8000-000000000000' }))).status).toBe(401);
  });

  it('a malformed Authorization header or garbage cookie is 401', async () => {
    expect(
      (await server.client().request('GET', '/api/auth/profile', { headers: { authorization: 'Bearer' } }))
        .status,
    ).toBe(401);
    const c = server.client();
    c.setCookie('kaboodle_access', 'garbage');
    expect((await c.request('GET', '/api/auth/profile')).status).toBe(401);
  });
});

describe('CSRF rule', () => {
  it('a cookie-authenticated state change without X-CSRF-Token is 403 with the spec text', async () => {
    const res = await signedIn.request('PATCH', '/api/auth/profile', {
      body: { name: 'Hijacked' },
      csrf: false,
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(ACCESS_DENIED);
    expect(
      (await signedIn.request<{ user: { name: string } }>('GET', '/api/auth/profile')).body.user.name,
    ).toBe('Tok');
  });

  it('a mismatched X-CSRF-Token is 403', async () => {
    const res = await signedIn.request('PUT', '/api/auth/settings', {
      body: { default_destination: 'document' },
      csrf: false,
      headers: { 'x-csrf-token': 'A'.repeat(43) },
    });
    expect(res.status).toBe(403);
  });

  it('a state change without X-Requested-With is 403, even with the token or a bearer', async () => {
    expect(
      (await signedIn.request('PATCH', '/api/auth/profile', { body: { name: 'X' }, xhr: false })).status,
    ).toBe(403);
    expect(
      (
        await server
          .client()
          .request('PATCH', '/api/auth/profile', { body: { name: 'X' }, xhr: false, bearer: token })
      ).status,
    ).toBe(403);
    expect(
      (
        await server.client().request('POST', '/api/auth/login', {
          body: { email: 'tok@example.com', password: 'long enough passphrase' },
          xhr: false,
        })
      ).status,
    ).toBe(403);
  });

  it('a foreign Origin is 403; the same host is fine', async () => {
    const evil = await signedIn.request('PATCH', '/api/auth/profile', {
      body: { name: 'X' },
      headers: { origin: 'https://evil.example' },
    });
    expect(evil.status).toBe(403);
    const login = await server.client().request('POST', '/api/auth/login', {
      body: { email: 'tok@example.com', password: 'long enough passphrase' },
      headers: { origin: 'https://evil.example' },
    });
    expect(login.status).toBe(403);
    const same = await signedIn.request('GET', '/api/auth/session', { headers: { origin: server.url } });
    expect(same.status).toBe(200);
    const sameHostPost = await signedIn.request('PATCH', '/api/auth/profile', {
      body: { name: 'Tok' },
      headers: { origin: server.url },
    });
    expect(sameHostPost.status).toBe(200);
  });

  it('logout and refresh by cookie need the CSRF token too (no forced logout or refresh)', async () => {
    expect((await signedIn.request('POST', '/api/auth/logout', { csrf: false })).status).toBe(403);
    expect((await signedIn.request('POST', '/api/auth/refresh', { csrf: false })).status).toBe(403);
    expect((await signedIn.request('GET', '/api/auth/session')).status).toBe(200); // still signed in
  });

  it('a bearer-authenticated state change skips the token check', async () => {
    const res = await server
      .client()
      .request('PUT', '/api/auth/settings', { body: { default_destination: 'document' }, bearer: token });
    expect(res.status).toBe(200);
  });
});

describe('key rotation', () => {
  const kidOf = (jwt: string) =>
    JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()).kid as string;

  it('a rotation publishes the next key at once but keeps signing with the current one for now', async () => {
    const admin = server.client();
    const reg = await admin.request<{ token: string }>('POST', '/api/auth/register', {
      body: { email: 'keys@example.com', password: 'long enough passphrase', name: 'K' },
    });
    await server.verify('keys@example.com'); // ADMIN_EMAILS lists it: admin once verified
    expect((await signedIn.request('POST', '/api/auth/admin/keys/rotate')).status).toBe(403); // not for users
    const rotated = await admin.request<{ kid: string }>('POST', '/api/auth/admin/keys/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.kid).not.toBe(kidOf(reg.body.token));
    const jwks = await server.client().request<{ keys: { kid: string }[] }>('GET', '/api/auth/jwks');
    expect(jwks.body.keys.map((k) => k.kid)).toEqual(
      expect.arrayContaining([kidOf(reg.body.token), rotated.body.kid]),
    );
    const refreshed = await admin.request<{ token: string }>('POST', '/api/auth/refresh');
    expect(kidOf(refreshed.body.token)).toBe(kidOf(reg.body.token));
  });

  it('an immediate rotation signs with the new key at once; tokens of the old key keep working', async () => {
    const admin = server.client();
    const login = await admin.request<{ token: string }>('POST', '/api/auth/login', {
      body: { email: 'keys@example.com', password: 'long enough passphrase' },
    });
    const bad = await admin.request('POST', '/api/auth/admin/keys/rotate', { body: { immediate: 'yes' } });
    expect(bad.status).toBe(400);
    const rotated = await admin.request<{ kid: string }>('POST', '/api/auth/admin/keys/rotate', {
      body: { immediate: true },
    });
    expect(rotated.status).toBe(200);
    expect((await profileWith(login.body.token)).status).toBe(200);
    const refreshed = await admin.request<{ token: string }>('POST', '/api/auth/refresh');
    expect(kidOf(refreshed.body.token)).toBe(rotated.body.kid);
    expect((await profileWith(refreshed.body.token)).status).toBe(200);
  });
});
