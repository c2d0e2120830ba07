// Black-box tests of the account flows of /api/auth over real HTTP: register, sign in, session,
// refresh, logout, profile, password and settings, with the cookies of the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer } from './support/auth-server.ts';
import type { AuthTestServer } from './support/auth-server.ts';
import type { SetCookie } from './support/auth-client.ts';

interface UserBody {
  id: string;
  email: string;
  name: string;
  displayName: string;
  role: string;
  created_at: string;
  email_verified_at: string | null;
  pending_email: string | null;
}
interface SignInBody {
  user: UserBody;
  message: string;
  token: string;
}

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer({ env: { ADMIN_EMAILS: 'root@example.com' } });
});
afterAll(() => server?.close());

const byName = (cookies: SetCookie[], name: string) => cookies.find((c) => c.name === name);

describe('register', () => {
  it('creates the account: 201 {user, message, token} and the three cookies with the contract flags', async () => {
    const c = server.client();
    const res = await c.request<SignInBody>('POST', '/api/auth/register', {
      body: { email: 'Ada@Example.com', password: 'analytical engine', name: '  Ada Lovelace ' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Registration successful');
    expect(res.body.user).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'Ada@Example.com',
      name: 'Ada Lovelace',
      displayName: 'Ada Lovelace',
      role: 'user',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      email_verified_at: null,
      pending_email: null,
    });
    expect(res.body.token.split('.')).toHaveLength(3);
    expect(res.body.user).not.toHaveProperty('password_hash');
    expect(res.headers.get('cache-control')).toBe('no-store');

    const access = byName(res.setCookies, 'kaboodle_access')!;
    expect(access.value).toBe(res.body.token);
    expect(Object.fromEntries(access.attributes)).toMatchObject({
      path: '/',
      'max-age': '86400',
      httponly: '',
      secure: '',
      samesite: 'None',
    });
    const session = byName(res.setCookies, 'kaboodle_session')!;
    expect(session.value).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(Object.fromEntries(session.attributes)).toMatchObject({
      path: '/api/auth',
      'max-age': '86400',
      httponly: '',
      secure: '',
      samesite: 'None',
    });
    const csrf = byName(res.setCookies, 'kaboodle_csrf')!;
    expect(csrf.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.fromEntries(csrf.attributes)).toMatchObject({ path: '/', secure: '', samesite: 'Strict' });
    expect(csrf.attributes.has('httponly')).toBe(false); // the page must read it
  });

  it('refuses the same email in another case: 409 with a clear message', async () => {
    const res = await server.client().request('POST', '/api/auth/register', {
      body: { email: 'ADA@example.COM', password: 'impostor passphrase', name: 'Impostor' },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('An account with this email already exists');
  });

  it('stores the password as an argon2id hash, never in clear', async () => {
    const { rows } = await server.db.query<{ password_hash: string }>(
      `SELECT password_hash FROM users WHERE email_normalized = 'ada@example.com'`,
    );
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]!.password_hash).not.toContain('analytical');
  });
});

describe('login, session, refresh, logout', () => {
  it('signs in with any email case: 200 {user, message:"Login successful", token}', async () => {
    const c = server.client();
    const res = await c.request<SignInBody>('POST', '/api/auth/login', {
      body: { email: 'ada@EXAMPLE.com', password: 'analytical engine' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Login successful');
    expect(res.body.user.email).toBe('Ada@Example.com');
    expect(byName(res.setCookies, 'kaboodle_access')).toBeDefined();
  });

  it('answers "Login failed" (401) alike for a wrong password and an unknown email', async () => {
    const wrong = await server
      .client()
      .request('POST', '/api/auth/login', { body: { email: 'ada@example.com', password: 'babbage' } });
    const unknown = await server
      .client()
      .request('POST', '/api/auth/login', { body: { email: 'nobody@example.com', password: 'babbage' } });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Login failed');
      expect(res.setCookies).toHaveLength(0);
    }
  });

  it('GET /session: {user} by cookie or by bearer; 401 "Not signed in" otherwise', async () => {
    const c = server.client();
    const { body } = await c.request<SignInBody>('POST', '/api/auth/login', {
      body: { email: 'ada@example.com', password: 'analytical engine' },
    });
    const byCookie = await c.request<{ user: UserBody }>('GET', '/api/auth/session');
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.user.email).toBe('Ada@Example.com');
    const byBearer = await server
      .client()
      .request<{ user: UserBody }>('GET', '/api/auth/session', { bearer: body.token });
    expect(byBearer.body.user.id).toBe(body.user.id);
    const anonymous = await server.client().request('GET', '/api/auth/session');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Not signed in');
  });

  it('GET /session with only the session cookie (access token gone) signs the app back in with a new token', async () => {
    const c = server.client();
    await c.request('POST', '/api/auth/login', {
      body: { email: 'ada@example.com', password: 'analytical engine' },
    });
    c.setCookie('kaboodle_access', 'expired-or-missing');
    const res = await c.request<{ user: UserBody; token: string }>('GET', '/api/auth/session');
    expect(res.status).toBe(200);
    expect(res.body.token).toBe(c.cookie('kaboodle_access'));
  });

  it('POST /refresh rotates the session cookie and returns {user, token}', async () => {
    const c = server.client();
    await c.request('POST', '/api/auth/login', {
      body: { email: 'ada@example.com', password: 'analytical engine' },
    });
    const before = c.cookie('kaboodle_session');
    const res = await c.request<{ user: UserBody; token: string }>('POST', '/api/auth/refresh');
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('Ada@Example.com');
    expect(res.body.token).toBe(c.cookie('kaboodle_access'));
    expect(c.cookie('kaboodle_session')).not.toBe(before);
    // The CSRF cookie keeps its value but slides with the session, so the next refresh still has it.
    const csrf = res.setCookies.find((x) => x.name === 'kaboodle_csrf');
    expect(csrf?.value).toBe(c.cookie('kaboodle_csrf'));
    expect(csrf?.attributes.get('max-age')).toBe('86400');
    const again = await c.request('POST', '/api/auth/refresh');
    expect(again.status).toBe(200);
  });

  it('POST /refresh without a session is 401', async () => {
    const res = await server.client().request('POST', '/api/auth/refresh');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Session expired');
  });

  it('logout revokes the session server-side even when the client keeps its cookies', async () => {
    const c = server.client();
    const { body } = await c.request<SignInBody>('POST', '/api/auth/login', {
      body: { email: 'ada@example.com', password: 'analytical engine' },
    });
    const thief = c.clone(); // a copy of the cookies that will not be cleared
    const out = await c.request('POST', '/api/auth/logout');
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: 'Logged out' });
    for (const name of ['kaboodle_access', 'kaboodle_session', 'kaboodle_csrf']) {
      const cleared = byName(out.setCookies, name)!;
      expect(cleared).toBeDefined();
      expect(cleared.value).toBe('');
      expect(Date.parse(cleared.attributes.get('expires')!)).toBeLessThan(Date.now());
    }
    expect(c.cookie('kaboodle_access')).toBeUndefined();

    expect((await thief.request('GET', '/api/auth/session')).status).toBe(401);
    expect((await thief.request('POST', '/api/auth/refresh')).status).toBe(401);
    expect((await thief.request('GET', '/api/auth/profile')).status).toBe(401);
    const bearer = await server.client().request('GET', '/api/auth/profile', { bearer: body.token });
    expect(bearer.status).toBe(401);
    expect(bearer.body.message).toBe('Session expired');
  });

  it('signing in again from the same browser ends its previous session', async () => {
    const c = server.client();
    const first = await c.request<SignInBody>('POST', '/api/auth/login', {
      body: { email: 'ada@example.com', password: 'analytical engine' },
    });
    const earlier = c.clone();
    await c.request('POST', '/api/auth/login', {
      body: { email: 'ada@example.com', password: 'analytical engine' },
    });
    expect((await earlier.request('POST', '/api/auth/refresh')).status).toBe(401);
    expect(
      (await server.client().request('GET', '/api/auth/session', { bearer: first.body.token })).status,
    ).toBe(401);
    expect((await c.request('GET', '/api/auth/session')).status).toBe(200);
  });

  it('logout by bearer only (API client) revokes that token’s session', async () => {
    const { body } = await server.client().request<SignInBody>('POST', '/api/auth/login', {
      body: { email: 'ada@example.com', password: 'analytical engine' },
    });
    const out = await server.client().request('POST', '/api/auth/logout', { bearer: body.token });
    expect(out.status).toBe(200);
    expect((await server.client().request('GET', '/api/auth/session', { bearer: body.token })).status).toBe(
      401,
    );
  });

  it('logout with nothing to revoke still answers 200 and clears cookies', async () => {
    const res = await server.client().request('POST', '/api/auth/logout');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Logged out');
  });
});

describe('profile, password, settings', () => {
  it('reads and renames the profile; HTML in a name is stored and returned as plain text', async () => {
    const c = server.client();
    await c.request('POST', '/api/auth/register', {
      body: { email: 'pro@example.com', password: 'long enough passphrase', name: 'Pro' },
    });
    expect((await c.request<{ user: UserBody }>('GET', '/api/auth/profile')).body.user.name).toBe('Pro');
    const name = '<img src=x onerror=alert(1)>';
    const res = await c.request<{ user: UserBody }>('PATCH', '/api/auth/profile', { body: { name } });
    expect(res.status).toBe(200);
    expect(res.body.user.name).toBe(name);
    expect(res.body.user.displayName).toBe(name);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('changing the email needs the current password, and the new address takes over only once its link is opened', async () => {
    const c = server.client();
    await c.request('POST', '/api/auth/register', {
      body: { email: 'mover@example.com', password: 'long enough passphrase', name: 'Mover' },
    });
    const noPw = await c.request('PATCH', '/api/auth/profile', { body: { email: 'moved@example.com' } });
    expect(noPw.status).toBe(400);
    expect(noPw.body.message).toBe('Current password is required to change the email');
    const badPw = await c.request('PATCH', '/api/auth/profile', {
      body: { email: 'moved@example.com', current_password: 'no' },
    });
    expect(badPw.status).toBe(400);
    expect(badPw.body.message).toBe('Current password is incorrect');
    const taken = await c.request('PATCH', '/api/auth/profile', {
      body: { email: 'ADA@example.com', current_password: 'long enough passphrase' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('An account with this email already exists');

    const asked = await c.request<{ user: UserBody; message: string }>('PATCH', '/api/auth/profile', {
      body: { email: 'moved@example.com', current_password: 'long enough passphrase' },
    });
    expect(asked.status).toBe(200);
    expect(asked.body.user).toMatchObject({ email: 'mover@example.com', pending_email: 'moved@example.com' });
    expect(asked.body.message).toBe(
      'We sent a confirmation link to moved@example.com. Your sign-in address changes when you open it.',
    );
    const login = (email: string) =>
      server
        .client()
        .request('POST', '/api/auth/login', { body: { email, password: 'long enough passphrase' } })
        .then((r) => r.status);
    expect(await login('moved@example.com')).toBe(401);
    expect(await login('mover@example.com')).toBe(200);

    await server.verify('moved@example.com');
    const after = await c.request<{ user: UserBody }>('GET', '/api/auth/profile');
    expect(after.body.user).toMatchObject({ email: 'moved@example.com', pending_email: null });
    expect(after.body.user.email_verified_at).toEqual(expect.stringMatching(/^\d{4}-/));
    expect(await login('moved@example.com')).toBe(200);
    expect(await login('mover@example.com')).toBe(401);
    // the old address hears about it
    const notice = await server.mailTo('mover@example.com', /email address was changed/);
    expect(notice.text).toContain('moved@example.com');
  });

  it('changes the password (wrong current → 400) and signs out other devices', async () => {
    const here = server.client();
    await here.request('POST', '/api/auth/register', {
      body: { email: 'pw@example.com', password: 'old passphrase here', name: 'P' },
    });
    const there = server.client();
    await there.request('POST', '/api/auth/login', {
      body: { email: 'pw@example.com', password: 'old passphrase here' },
    });
    const wrong = await here.request('POST', '/api/auth/password', {
      body: { current_password: 'nope', new_password: 'new passphrase here' },
    });
    expect(wrong.status).toBe(400);
    const ok = await here.request('POST', '/api/auth/password', {
      body: { current_password: 'old passphrase here', new_password: 'new passphrase here' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Password changed' });
    expect((await here.request('GET', '/api/auth/session')).status).toBe(200);
    expect((await there.request('POST', '/api/auth/refresh')).status).toBe(401);
    expect(
      (
        await server.client().request('POST', '/api/auth/login', {
          body: { email: 'pw@example.com', password: 'new passphrase here' },
        })
      ).status,
    ).toBe(200);
  });

  it('settings: defaults, then saved values; invalid values are 400', async () => {
    const c = server.client();
    await c.request('POST', '/api/auth/register', {
      body: { email: 'set@example.com', password: 'long enough passphrase', name: 'S' },
    });
    expect((await c.request('GET', '/api/auth/settings')).body).toEqual({
      default_instructions: '',
      default_destination: 'auto',
    });
    const put = await c.request('PUT', '/api/auth/settings', {
      body: { default_instructions: 'Summarise in French.', default_destination: 'inventory' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      default_instructions: 'Summarise in French.',
      default_destination: 'inventory',
    });
    const partial = await c.request('PUT', '/api/auth/settings', {
      body: { default_destination: 'document' },
    });
    expect(partial.body).toEqual({
      default_instructions: 'Summarise in French.',
      default_destination: 'document',
    });
    expect(
      (await c.request('PUT', '/api/auth/settings', { body: { default_destination: 'moon' } })).status,
    ).toBe(400);
    expect(
      (await c.request('PUT', '/api/auth/settings', { body: { default_instructions: 'x'.repeat(2001) } }))
        .status,
    ).toBe(400);
    // Settings are per user.
    const other = server.client();
    await other.request('POST', '/api/auth/register', {
      body: { email: 'set2@example.com', password: 'long enough passphrase', name: 'T' },
    });
    expect((await other.request('GET', '/api/auth/settings')).body).toEqual({
      default_instructions: '',
      default_destination: 'auto',
    });
  });

  it('profile and settings need a signed-in user (401 "Session expired")', async () => {
    for (const [method, path] of [
      ['GET', '/api/auth/profile'],
      ['GET', '/api/auth/settings'],
      ['PATCH', '/api/auth/profile'],
      ['POST', '/api/auth/password'],
    ] as const) {
      const res = await server.client().request(method, path, method === 'GET' ? {} : { body: {} });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Session expired');
    }
  });
});

describe('public endpoints', () => {
  it('GET /config reports Google sign-in disabled when no client id is configured', async () => {
    const res = await server.client().request('GET', '/api/auth/config');
    expect(res.body).toEqual({ google: { enabled: false, clientId: null } });
  });

  it('GET /jwks publishes public keys only', async () => {
    const res = await server.client().request<{ keys: Record<string, unknown>[] }>('GET', '/api/auth/jwks');
    expect(res.status).toBe(200);
    expect(res.body.keys.length).toBeGreaterThanOrEqual(1);
    for (const k of res.body.keys) {
      expect(k).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
      expect(k).not.toHaveProperty('d');
    }
  });

  it('/readyz touches the auth database', async () => {
    const res = await server.client().request<{ checks: unknown }>('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('database');
  });
});
