// Admin sign-in and the admin users list over real HTTP; admins come from ADMIN_EMAILS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer } from './support/auth-server.ts';
import type { AuthTestServer } from './support/auth-server.ts';

const ACCESS_DENIED = 'Access denied. You may not have permission for this action.';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer({
    env: { ADMIN_EMAILS: 'admin@example.com, Second.Admin@example.com, third.admin@example.com' },
  });
  await server.client().request('POST', '/api/auth/register', {
    body: { email: 'ADMIN@example.com', password: 'root passphrase', name: 'Admin' },
  });
  await server.verify('ADMIN@example.com');
  await server.client().request('POST', '/api/auth/register', {
    body: { email: 'user@example.com', password: 'user passphrase', name: 'User' },
  });
});
afterAll(() => server?.close());

describe('POST /api/auth/admin/login', () => {
  it('signs an admin in: 200 {user (role admin), message, token}', async () => {
    const res = await server
      .client()
      .request<{ user: { role: string }; message: string; token: string }>('POST', '/api/auth/admin/login', {
        body: { email: 'admin@example.com', password: 'root passphrase' },
      });
    expect(res.status).toBe(200);
    expect(res.body.user.role).toBe('admin');
    expect(res.body.message).toBe('Admin login successful');
    expect(res.body.token).toBeTruthy();
  });

  it('refuses a non-admin with the right password, a wrong password and an unknown email alike', async () => {
    for (const body of [
      { email: 'user@example.com', password: 'user passphrase' },
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
      body: { email: 'admin@example.com', password: 'root passphrase' },
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
      body: { email: 'user@example.com', password: 'user passphrase' },
    });
    const res = await user.request('GET', '/api/auth/admin/users');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(ACCESS_DENIED);
    expect((await server.client().request('GET', '/api/auth/admin/users')).status).toBe(401);
  });

  it('checks the stored role, not the token: a demoted admin is refused at once', async () => {
    const admin = server.client();
    await admin.request('POST', '/api/auth/admin/login', {
      body: { email: 'admin@example.com', password: 'root passphrase' },
    });
    await server.db.query(`UPDATE users SET role = 'user' WHERE email_normalized = 'admin@example.com'`);
    try {
      expect((await admin.request('GET', '/api/auth/admin/users')).status).toBe(403);
    } finally {
      await server.db.query(`UPDATE users SET role = 'admin' WHERE email_normalized = 'admin@example.com'`);
    }
  });

  it('ADMIN_EMAILS makes a listed account an admin once its address is verified (any case)', async () => {
    const two = server.client();
    const reg = await two.request<{ user: { role: string } }>('POST', '/api/auth/register', {
      body: { email: 'second.admin@EXAMPLE.com', password: 'long enough passphrase', name: 'Two' },
    });
    expect(reg.body.user.role).toBe('user');
    expect((await two.request('GET', '/api/auth/admin/users')).status).toBe(403);
    await server.verify('second.admin@EXAMPLE.com');
    // the stored role changed at once: admin calls read it
    expect((await two.request('GET', '/api/auth/admin/users')).status).toBe(200);
    const res = await server.client().request<{ user: { role: string } }>('POST', '/api/auth/login', {
      body: { email: 'second.admin@example.com', password: 'long enough passphrase' },
    });
    expect(res.body.user.role).toBe('admin');
  });
});

describe('privileges follow verified addresses only (issue 14)', () => {
  it("changing one's email to an unclaimed ADMIN_EMAILS address grants nothing", async () => {
    const mallory = server.client();
    const password = 'Mallory-Sneaks-In-2024';
    expect(
      (
        await mallory.request('POST', '/api/auth/register', {
          body: { email: 'mallory@example.com', password, name: 'Mallory' },
        })
      ).status,
    ).toBe(201);
    await mallory.request('PATCH', '/api/auth/profile', {
      body: { email: 'third.admin@example.com', current_password: password },
    });
    const profile = await mallory.request<{ user: { role: string; email: string } }>(
      'GET',
      '/api/auth/profile',
    );
    expect(profile.body.user).toMatchObject({ role: 'user', email: 'mallory@example.com' });
    for (const email of ['third.admin@example.com', 'mallory@example.com']) {
      const admin = await server
        .client()
        .request('POST', '/api/auth/admin/login', { body: { email, password } });
      expect(admin.status).toBe(401);
    }
    expect((await mallory.request('GET', '/api/auth/admin/users')).status).toBe(403);
    // the link went to the listed address, which Mallory does not read
    const link = await server.mailTo('third.admin@example.com', /Confirm your new Kaboodle email/);
    expect(link.to).toBe('third.admin@example.com');
    expect(
      (await server.mails()).filter((m) => m.to === 'mallory@example.com' && /Confirm/.test(m.subject)),
    ).toEqual([]);
  });

  it('registering a listed address grants nothing until its link is opened', async () => {
    const early = server.client();
    const reg = await early.request<{ user: { role: string } }>('POST', '/api/auth/register', {
      body: { email: 'third.admin@example.com', password: 'squatter passphrase', name: 'Squatter' },
    });
    expect(reg.status).toBe(201);
    expect(reg.body.user.role).toBe('user');
    expect((await early.request('GET', '/api/auth/admin/users')).status).toBe(403);
  });
});
