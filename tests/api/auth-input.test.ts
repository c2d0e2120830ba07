// Bad input at the edge of /api/auth: every route answers 400 with a message a person can act on,
// and hostile data (SQL, HTML, huge strings) is refused or stored as plain text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer } from './support/auth-server.ts';
import type { AuthTestServer } from './support/auth-server.ts';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer();
});
afterAll(() => server?.close());

const post = (path: string, body: unknown) => server.client().request('POST', path, { body });
const tenKbEmail = `${'a'.repeat(10 * 1024)}@example.com`;

describe.each(['/api/auth/login', '/api/auth/admin/login', '/api/auth/register'])(
  'POST %s with bad input',
  (path) => {
    const name = path.endsWith('register') ? { name: 'N' } : {};
    it.each([
      ['no body fields', {}, 'Email is required'],
      ['no password', { email: 'a@example.com', ...name }, 'Password is required'],
      ['an empty password', { email: 'a@example.com', password: '', ...name }, 'Password is required'],
      ['a number as email', { email: 12345, password: 'x', ...name }, 'Email must be a string'],
      [
        'an object as password',
        { email: 'a@example.com', password: { $ne: null }, ...name },
        'Password must be a string',
      ],
      [
        'a 10 kB email',
        { email: tenKbEmail, password: 'x', ...name },
        'Email must be at most 254 characters',
      ],
      [
        'a malformed email',
        { email: 'not-an-email', password: 'x', ...name },
        'Email must be a valid email address',
      ],
      [
        'SQL in the email',
        { email: "' OR 1=1 --", password: 'x', ...name },
        'Email must be a valid email address',
      ],
      [
        'a 1025-character password',
        { email: 'a@example.com', password: 'p'.repeat(1025), ...name },
        'Password must be at most 1024 characters',
      ],
    ])('%s → 400', async (_case, body, message) => {
      const res = await post(path, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    });

    it('a JSON array body → 400; a bare JSON string → 400', async () => {
      const array = await post(path, [1, 2]);
      expect(array.status).toBe(400);
      expect(array.body.message).toBe('Request body must be a JSON object');
      const text = await post(path, 'text'); // refused by the strict JSON parser before the route
      expect(text.status).toBe(400);
    });

    it('malformed JSON → 400', async () => {
      const res = await server.client().request('POST', path, { rawBody: '{"email": "a@b.co", ' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid JSON in request body');
    });
  },
);

describe('register: names', () => {
  it.each([
    ['missing', undefined, 'Name is required'],
    ['blank', '   ', 'Name is required'],
    ['not a string', ['Ada'], 'Name must be a string'],
    ['101 characters', 'n'.repeat(101), 'Name must be at most 100 characters'],
    ['with a newline', 'Ada\nLovelace', 'Name must not contain control characters'],
  ])('a name %s → 400', async (_case, name, message) => {
    const res = await post('/api/auth/register', {
      email: 'names@example.com',
      password: 'long enough passphrase',
      name,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('SQL and HTML in a name are stored verbatim as text and nothing else happens', async () => {
    const name = `Robert'); DROP TABLE users;-- <script>alert("x")</script>`;
    const res = await post('/api/auth/register', {
      email: 'bobby@example.com',
      password: 'long enough passphrase',
      name,
    });
    expect(res.status).toBe(201);
    expect((res.body.user as { name: string }).name).toBe(name);
    const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1); // the table is still there
    const login = await post('/api/auth/login', {
      email: 'bobby@example.com',
      password: 'long enough passphrase',
    });
    expect((login.body.user as { name: string }).name).toBe(name);
  });

  it('a name of exactly 100 characters and a 1024-character password are accepted', async () => {
    const res = await post('/api/auth/register', {
      email: 'edge@example.com',
      password: 'p'.repeat(1024),
      name: 'n'.repeat(100),
    });
    expect(res.status).toBe(201);
  });
});

describe('Google sign-in input', () => {
  it('no credential → 400 "No Google credential received" (docs/product.md#validation), checked before the provider', async () => {
    for (const body of [{}, { credential: '' }, { credential: 42 }, { clientId: 'x' }]) {
      const res = await post('/api/auth/google', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('No Google credential received');
    }
  });

  it('provider disabled (no client id) → 404 with a clear message', async () => {
    const res = await post('/api/auth/google', { credential: 'header.payload.signature' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Google sign-in is not enabled on this server');
  });
});

describe('signed-in routes with bad input', () => {
  it('profile, password, settings and paging refuse bad values with 400', async () => {
    const c = server.client();
    await c.request('POST', '/api/auth/register', {
      body: { email: 'input@example.com', password: 'long enough passphrase', name: 'I' },
    });
    const cases: Array<[string, string, unknown, string]> = [
      ['PATCH', '/api/auth/profile', {}, 'Name or email is required'],
      ['PATCH', '/api/auth/profile', { name: 7 }, 'Name must be a string'],
      ['PATCH', '/api/auth/profile', { name: 'x'.repeat(101) }, 'Name must be at most 100 characters'],
      ['PATCH', '/api/auth/profile', { email: tenKbEmail }, 'Email must be at most 254 characters'],
      ['POST', '/api/auth/password', { new_password: 'x' }, 'Current password is required'],
      [
        'POST',
        '/api/auth/password',
        { current_password: 'long enough passphrase' },
        'New password is required',
      ],
      [
        'POST',
        '/api/auth/password',
        { current_password: 'long enough passphrase', new_password: 'x'.repeat(1025) },
        'New password must be at most 1024 characters',
      ],
      [
        'PUT',
        '/api/auth/settings',
        { default_destination: 'moon' },
        'default_destination must be one of auto, document, inventory',
      ],
      ['PUT', '/api/auth/settings', { default_instructions: 1 }, 'default_instructions must be a string'],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await c.request(method, path, { body });
      expect({ path, status: res.status, message: res.body.message }).toEqual({ path, status: 400, message });
    }
  });

  it('new passwords: at least 8 characters and not a common one, on register and on change', async () => {
    const register = (password: string) =>
      post('/api/auth/register', { email: 'rules@example.com', password, name: 'Rules' });
    for (const [password, message] of [
      ['1', 'Password must be at least 8 characters'],
      ['1234567', 'Password must be at least 8 characters'],
      ['password1', 'Password is one of the most common passwords: choose one that is harder to guess'],
      ['Sunshine1', 'Password is one of the most common passwords: choose one that is harder to guess'],
    ] as const) {
      const res = await register(password);
      expect({ password, status: res.status, message: res.body.message }).toEqual({
        password,
        status: 400,
        message,
      });
    }
    const c = server.client();
    expect(
      (
        await c.request('POST', '/api/auth/register', {
          body: { email: 'rules@example.com', password: 'eight ok', name: 'Rules' },
        })
      ).status,
    ).toBe(201);
    const change = await c.request('POST', '/api/auth/password', {
      body: { current_password: 'eight ok', new_password: 'qwerty123' },
    });
    expect(change.status).toBe(400);
    expect(change.body.message).toBe(
      'New password is one of the most common passwords: choose one that is harder to guess',
    );
  });

  it("applies the auth routes' own 64 kB limit: a 100 kB JSON body to /api/auth/login answers 413", async () => {
    const res = await server.client().request('POST', '/api/auth/login', {
      rawBody: JSON.stringify({ email: 'a@example.com', password: 'p'.repeat(100 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Request body is too large (limit 65536 bytes)');
    // under the limit, the body is read and judged by its fields
    const small = await server.client().request('POST', '/api/auth/login', {
      rawBody: JSON.stringify({ email: 'a@example.com', password: 'p'.repeat(60 * 1024) }),
    });
    expect(small.status).toBe(400);
    expect(small.body.message).toBe('Password must be at most 1024 characters');
  });

  it('a body far over the size limit is refused with 413 before it is parsed', async () => {
    const res = await server.client().request('POST', '/api/auth/login', {
      rawBody: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
  });
});
