// Admin sign-in and the admin users list over real HTTP; admins come from ADMIN_EMAILS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer } from './support/auth-server.ts';
import type { AuthTestServer } from './support/auth-server.ts';

const ACCESS_DENIED = 'Access denied. You may not have permission for this action.';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer({
    env: { ADMIN_EMAILS: 'admin@example.com, Second.Admin@example.com' },
  });
  await server.client().request('POST', '/api/auth/register', {
    body: { email: 'ADMIN@example.com', password: 'root pw', name: 'Admin' },
  });
  await server.client().request('POST', '/api/auth/register', {
    body: { email: 'user@example.com', password: 'user pw', name: 'User' },
  });
});
afterAll(() => server?.close());

describe('POST /api/auth/admin/login', () => {
  it('signs an admin in: 200 {user (role admin), message, token}', async () => {
    const res = await server
      .client()
      .request<{ user: { role: string }; message: string; token: string }>('POST', '/api/auth/admin/login', {
        body: { email: 'admin@example.com', password: 'root pw' },
      });
    expect(res.status).toBe(200);
    expect(res.body.user.role).toBe('admin');
    expect(res.body.message).toBe('Admin login successful');
    expect(res.body.token).toBeTruthy();
  });

  it('refuses a non-admin with the right password, a wrong password and an unknown email alike', async () => {
    for (const body of [
      { email: 'user@example.com', password: 'user pw' },
      { email: 'admin@example.com', password: 'wrong' },
      { email: 'ghost@example.com', password: 'x' },
    ]) {
      const res = await server.client().request('POST', '/api/auth/admin/login', { body });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Admin login failed');
      expect(res.setCookies).toHaveLength(0);
    }
  });
});

describe('GET /api/auth/admin/users', () => {
  it('lists users for an admin with exactly the contract fields', async () => {
    const admin = server.client();
    await admin.request('POST', '/api/auth/admin/login', {
      body: { email: 'admin@example.com', password: 'root pw' },
    });
    const res = await admin.request<{ users: Record<string, unknown>[] }>('GET', '/api/auth/admin/users');
    expect(res.status).toBe(200);
    expect(res.body.users.map((u) => u.email)).toEqual(['ADMIN@example.com', 'user@example.com']);
    for (const u of res.body.users) {
      expect(Object.keys(u).sort()).toEqual(['created_at', 'email', 'id', 'last_login_at', 'name', 'role']);
    }
    expect(res.body.users[0]!.last_login_at).toEqual(expect.stringMatching(/^\d{4}-/));
    const page = await admin.request<{ users: unknown[] }>('GET', '/api/auth/admin/users?limit=1&offset=1');
    expect(page.body.users).toHaveLength(1);
    expect((await admin.request('GET', '/api/auth/admin/users?limit=abc')).status).toBe(400);
  });

  it('is 403 with the spec text for a signed-in non-admin, 401 when signed out', async () => {
    const user = server.client();
    await user.request('POST', '/api/auth/login', {
      body: { email: 'user@example.com', password: 'user pw' },
    });
    const res = await user.request('GET', '/api/auth/admin/users');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(ACCESS_DENIED);
    expect((await server.client().request('GET', '/api/auth/admin/users')).status).toBe(401);
  });

  it('checks the stored role, not the token: a demoted admin is refused at once', async () => {
    const admin = server.client();
    await admin.request('POST', '/api/auth/admin/login', {
      body: { email: 'admin@example.com', password: 'root pw' },
    });
    await server.db.query(`UPDATE users SET role = 'user' WHERE email_normalized = 'admin@example.com'`);
    try {
      expect((await admin.request('GET', '/api/auth/admin/users')).status).toBe(403);
    } finally {
      await server.db.query(`UPDATE users SET role = 'admin' WHERE email_normalized = 'admin@example.com'`);
    }
  });

  it('ADMIN_EMAILS promotes an existing account on its next login (any case)', async () => {
    await server.client().request('POST', '/api/auth/register', {
      body: { email: 'second.admin@EXAMPLE.com', password: 'pw', name: 'Two' },
    });
    const res = await server.client().request<{ user: { role: string } }>('POST', '/api/auth/login', {
      body: { email: 'second.admin@example.com', password: 'pw' },
    });
    expect(res.body.user.role).toBe('admin');
  });
});
