// Address verification and password reset over real HTTP, following the links the local mail
// adapter wrote to the data folder as a person would: single use, expiring, one account each, the
// same answer for any address, and sessions ended by a reset.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenOf } from '../../services/auth/src/testing/mail-folder.ts';
import { startAuthTestServer } from './support/auth-server.ts';
import type { AuthTestServer } from './support/auth-server.ts';
import type { AuthClient } from './support/auth-client.ts';

const PW = 'a long enough passphrase';
const INVALID_VERIFICATION =
  'This verification link is not valid: it may have expired or been used already. Sign in and choose "Resend" to get a new one.';
const INVALID_RESET =
  'This password reset link is not valid: it may have expired or been used already. Ask for a new one with "Forgot password?".';
const RESET_ANSWER = {
  message:
    'If an account uses that address, we have emailed it a link to reset the password. The link works once, within 30 minutes.',
};

interface Me {
  user: {
    id: string;
    email: string;
    role: string;
    email_verified_at: string | null;
    pending_email: string | null;
  };
}

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer();
});
afterAll(() => server?.close());

async function registered(email: string): Promise<AuthClient> {
  const c = server.client();
  const res = await c.request('POST', '/api/auth/register', {
    body: { email, password: PW, name: 'Person' },
  });
  expect(res.status).toBe(201);
  return c;
}
const verifyWith = (token: string, client = server.client()) =>
  client.request('POST', '/api/auth/verify-email', { body: { token } });
const resetWith = (token: string, password: string, client = server.client()) =>
  client.request('POST', '/api/auth/password-reset/confirm', { body: { token, new_password: password } });
const requestReset = (email: string, client = server.client()) =>
  client.request('POST', '/api/auth/password-reset', { body: { email } });

describe('address verification', () => {
  it('register mails a link to the address; opening it once verifies the account', async () => {
    const c = await registered('Vera@Example.com');
    expect((await c.request<Me>('GET', '/api/auth/profile')).body.user.email_verified_at).toBeNull();
    const mail = await server.mailTo('Vera@Example.com', /^Verify your Kaboodle email address$/);
    expect(mail.from).toBe('kaboodle@localhost');
    expect(mail.link).toMatch(new RegExp(`^${server.url}/verify-email\\?token=[A-Za-z0-9_-]{43}$`));
    expect(mail.html).toContain('Verify my email address');

    const ok = await verifyWith(tokenOf(mail.link));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Your email address is verified.' });
    expect((await c.request<Me>('GET', '/api/auth/profile')).body.user.email_verified_at).toMatch(/^\d{4}-/);
    // single use
    const again = await verifyWith(tokenOf(mail.link));
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(INVALID_VERIFICATION);
  });

  it('an expired, unknown or malformed link is refused with the same message; a missing one names the field', async () => {
    await registered('late@example.com');
    const mail = await server.mailTo('late@example.com', /Verify/);
    await server.db.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE email = 'late@example.com'`,
    );
    for (const token of [tokenOf(mail.link), 'A'.repeat(43), 'not a token', "'; DROP TABLE users; --"]) {
      const res = await verifyWith(token);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 400,
        message: INVALID_VERIFICATION,
      });
    }
    const missing = await server.client().request('POST', '/api/auth/verify-email', { body: {} });
    expect(missing.body.message).toBe('token is required');
  });

  it('"Resend" mails a new link and retires the old one; nothing to resend once verified', async () => {
    const c = await registered('resend@example.com');
    const first = await server.mailTo('resend@example.com', /Verify/);
    const resend = await c.request('POST', '/api/auth/verify-email/resend');
    expect(resend.status).toBe(200);
    expect(resend.body).toEqual({ message: 'We sent a new verification link to resend@example.com.' });
    const mails = (await server.mails()).filter((m) => m.to === 'resend@example.com');
    expect(mails).toHaveLength(2);
    const second = mails[1]!;
    expect(second.link).not.toBe(first.link);
    expect((await verifyWith(tokenOf(first.link))).status).toBe(400);
    expect((await verifyWith(tokenOf(second.link))).status).toBe(200);
    const done = await c.request('POST', '/api/auth/verify-email/resend');
    expect(done.body).toEqual({ message: 'Your email address is already verified.' });
  });

  it('resend is for the signed-in owner only (401 signed out, 403 without the CSRF token)', async () => {
    expect((await server.client().request('POST', '/api/auth/verify-email/resend')).status).toBe(401);
    const c = await registered('csrf-resend@example.com');
    expect((await c.request('POST', '/api/auth/verify-email/resend', { csrf: false })).status).toBe(403);
  });

  it("a link verifies its own account only, whoever's browser opens it", async () => {
    const owner = await registered('owner@example.com');
    const other = await registered('other@example.com');
    const mail = await server.mailTo('owner@example.com', /Verify/);
    expect((await verifyWith(tokenOf(mail.link), other)).status).toBe(200);
    expect((await other.request<Me>('GET', '/api/auth/profile')).body.user.email_verified_at).toBeNull();
    expect((await owner.request<Me>('GET', '/api/auth/profile')).body.user.email_verified_at).not.toBeNull();
  });

  it('a link for an address the account has left is void', async () => {
    const c = await registered('first@example.com');
    const stale = await server.mailTo('first@example.com', /Verify/);
    await c.request('PATCH', '/api/auth/profile', {
      body: { email: 'second@example.com', current_password: PW },
    });
    const change = await server.mailTo('second@example.com', /Confirm your new/);
    // asking again for another address: the link to the second one no longer applies
    await c.request('PATCH', '/api/auth/profile', {
      body: { email: 'third@example.com', current_password: PW },
    });
    expect((await verifyWith(tokenOf(change.link))).status).toBe(400);
    // the first address's own link (retired by the newer ones) neither
    expect((await verifyWith(tokenOf(stale.link))).status).toBe(400);
    await server.verify('third@example.com');
    const me = await c.request<Me>('GET', '/api/auth/profile');
    expect(me.body.user).toMatchObject({ email: 'third@example.com', pending_email: null });
  });

  it('an address taken by someone else meanwhile is not taken over when the link is opened (409)', async () => {
    const c = await registered('slow@example.com');
    await c.request('PATCH', '/api/auth/profile', {
      body: { email: 'contested@example.com', current_password: PW },
    });
    const link = await server.mailTo('contested@example.com', /Confirm your new/);
    await registered('contested@example.com');
    const res = await verifyWith(tokenOf(link.link));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('An account with this email already exists');
    expect((await c.request<Me>('GET', '/api/auth/profile')).body.user.email).toBe('slow@example.com');
  });
});

describe('password reset by e-mail', () => {
  it('answers the same for an address with an account and one without, and mails only the account', async () => {
    await registered('known@example.com');
    await server.mailTo('known@example.com', /Verify/); // the registration's own link, sent after its answer
    const before = (await server.mails()).length;
    const known = await requestReset('known@example.com');
    const unknown = await requestReset('nobody-here@example.com');
    expect({ status: known.status, body: known.body }).toEqual({ status: 202, body: RESET_ANSWER });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 202, body: RESET_ANSWER });
    await server.mailTo('known@example.com', /Reset your Kaboodle password/);
    await new Promise((r) => setTimeout(r, 200));
    const after = (await server.mails()).slice(before);
    expect(after.map((m) => m.to)).toEqual(['known@example.com']);
  });

  it('the link sets a new password once, signs in here and ends every other session', async () => {
    const laptop = await registered('reset@example.com');
    const phone = server.client();
    await phone.request('POST', '/api/auth/login', { body: { email: 'reset@example.com', password: PW } });
    const phoneToken = (await phone.request<{ token: string }>('POST', '/api/auth/refresh')).body.token;
    await requestReset('reset@example.com');
    const mail = await server.mailTo('reset@example.com', /Reset your Kaboodle password/);
    expect(mail.link).toMatch(new RegExp(`^${server.url}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
    const token = tokenOf(mail.link);

    // the password rule applies, and a refused password does not use up the link
    const weak = await resetWith(token, 'password');
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe(
      'New password is one of the most common passwords: choose one that is harder to guess',
    );
    expect((await resetWith(token, 'short')).body.message).toBe('New password must be at least 8 characters');

    const here = server.client();
    const ok = await resetWith(token, 'brand new passphrase', here);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ message: 'Password reset', user: { email: 'reset@example.com' } });
    expect(ok.setCookies.map((c) => c.name).sort()).toEqual([
      'kaboodle_access',
      'kaboodle_csrf',
      'kaboodle_session',
    ]);
    expect((await here.request('GET', '/api/auth/session')).status).toBe(200);

    // every earlier session is over: cookies, refresh and bearer alike
    expect((await laptop.request('GET', '/api/auth/session')).status).toBe(401);
    expect((await phone.request('POST', '/api/auth/refresh')).status).toBe(401);
    expect((await server.client().request('GET', '/api/auth/profile', { bearer: phoneToken })).status).toBe(
      401,
    );
    const login = (password: string) =>
      server
        .client()
        .request('POST', '/api/auth/login', { body: { email: 'reset@example.com', password } })
        .then((r) => r.status);
    expect(await login(PW)).toBe(401);
    expect(await login('brand new passphrase')).toBe(200);

    const reuse = await resetWith(token, 'another new passphrase');
    expect(reuse.status).toBe(400);
    expect(reuse.body.message).toBe(INVALID_RESET);
    // the link reached the address: it counts as verified
    expect((await here.request<Me>('GET', '/api/auth/profile')).body.user.email_verified_at).not.toBeNull();
  });

  it('a reset link expires after its short lifetime; a newer link retires the older one', async () => {
    await registered('expire@example.com');
    await requestReset('expire@example.com');
    const first = await server.mailTo('expire@example.com', /Reset/);
    const { rows } = await server.db.query<{ minutes: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM email_tokens
       WHERE email = 'expire@example.com' AND purpose = 'reset_password'`,
    );
    expect(rows.map((r) => r.minutes)).toEqual([30]);
    await requestReset('expire@example.com');
    await expect
      .poll(
        async () =>
          (await server.mails()).filter((m) => m.to === 'expire@example.com' && /Reset/.test(m.subject))
            .length,
      )
      .toBe(2);
    expect((await resetWith(tokenOf(first.link), 'brand new passphrase')).body.message).toBe(INVALID_RESET);
    const second = await server.mailTo('expire@example.com', /Reset/);
    await server.db.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE email = 'expire@example.com'`,
    );
    expect((await resetWith(tokenOf(second.link), 'brand new passphrase')).body.message).toBe(INVALID_RESET);
    // a verification link is not a reset link, nor the other way round
    const verification = await server.mailTo('expire@example.com', /Verify/);
    await server.db.query(
      `UPDATE email_tokens SET expires_at = now() + interval '1 hour' WHERE email = 'expire@example.com'`,
    );
    expect((await resetWith(tokenOf(verification.link), 'brand new passphrase')).status).toBe(400);
    expect((await verifyWith(tokenOf(second.link))).status).toBe(400);
  });

  it('refuses bad input with the field named', async () => {
    expect((await requestReset('not-an-email')).body.message).toBe('Email must be a valid email address');
    expect(
      (await server.client().request('POST', '/api/auth/password-reset', { body: {} })).body.message,
    ).toBe('Email is required');
    const noPw = await server
      .client()
      .request('POST', '/api/auth/password-reset/confirm', { body: { token: 'x' } });
    expect(noPw.body.message).toBe('New password is required');
    expect((await requestReset('known@example.com', server.client())).status).toBe(202);
    // a sign-in style call: X-Requested-With is required
    expect(
      (
        await server
          .client()
          .request('POST', '/api/auth/password-reset', { body: { email: 'a@b.co' }, xhr: false })
      ).status,
    ).toBe(403);
  });
});

describe('with the production limits', () => {
  let limited: AuthTestServer;
  beforeAll(async () => {
    limited = await startAuthTestServer({ productionLimits: true });
  });
  afterAll(() => limited?.close());

  it('mails at most 3 reset links per address per quarter hour, answering the same all along', async () => {
    await limited.client().request('POST', '/api/auth/register', {
      body: { email: 'flood@example.com', password: PW, name: 'F' },
    });
    for (let i = 0; i < 5; i++) {
      const res = await limited
        .client()
        .request('POST', '/api/auth/password-reset', { body: { email: 'flood@example.com' } });
      expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: RESET_ANSWER });
    }
    await new Promise((r) => setTimeout(r, 300));
    const resets = (await limited.mails()).filter(
      (m) => m.to === 'flood@example.com' && /Reset/.test(m.subject),
    );
    expect(resets).toHaveLength(3);
  });

  it('limits reset requests per IP (429 with Retry-After)', async () => {
    let last;
    for (let i = 0; i < 11; i++) {
      last = await limited
        .client()
        .request('POST', '/api/auth/password-reset', { body: { email: `someone${i}@example.com` } });
    }
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits "Resend" per account (429 after 3 links)', async () => {
    const c = limited.client();
    await c.request('POST', '/api/auth/register', {
      body: { email: 'again@example.com', password: PW, name: 'A' },
    });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await c.request('POST', '/api/auth/verify-email/resend')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('when mail cannot be sent', () => {
  it('registration still succeeds; "Resend" says so (503); a reset request answers as always', async () => {
    // a mail folder that cannot be created: the local adapter's every send fails
    const dataDir = await mkdtemp(join(tmpdir(), 'kaboodle-auth-nomail-'));
    await writeFile(join(dataDir, 'mail'), 'not a folder');
    const broken = await startAuthTestServer({ dataDir });
    try {
      const c = broken.client();
      const started = Date.now();
      const reg = await c.request('POST', '/api/auth/register', {
        body: { email: 'unlucky@example.com', password: PW, name: 'U' },
      });
      expect(reg.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(5_000);
      const resend = await c.request('POST', '/api/auth/verify-email/resend');
      // a 5xx is generic at the edge (the web client shows the catalogue's "Server error" text)
      expect({ status: resend.status, message: resend.body.message }).toEqual({
        status: 503,
        message: 'Service temporarily unavailable',
      });
      const reset = await broken
        .client()
        .request('POST', '/api/auth/password-reset', { body: { email: 'unlucky@example.com' } });
      expect({ status: reset.status, body: reset.body }).toEqual({ status: 202, body: RESET_ANSWER });
    } finally {
      await broken.close();
    }
  });
});

describe('roles follow the configuration across a restart', () => {
  it('an address removed from ADMIN_EMAILS loses admin at the next start: its sessions end, refresh is refused', async () => {
    const first = await startAuthTestServer({ env: { ADMIN_EMAILS: 'chief@example.com' } });
    const chief = first.client();
    await chief.request('POST', '/api/auth/register', {
      body: { email: 'chief@example.com', password: PW, name: 'C' },
    });
    await first.verify('chief@example.com');
    const signedIn = await chief.request<{ user: { role: string }; token: string }>(
      'POST',
      '/api/auth/login',
      {
        body: { email: 'chief@example.com', password: PW },
      },
    );
    expect(signedIn.body.user.role).toBe('admin');
    const refreshed = await chief.request<{ user: { role: string } }>('POST', '/api/auth/refresh');
    expect(refreshed.body.user.role).toBe('admin');
    await first.close({ keepData: true });

    const second = await startAuthTestServer({ dataDir: first.dataDir });
    try {
      const again = chief.at(second.url);
      expect((await again.request('POST', '/api/auth/refresh')).status).toBe(401);
      expect(
        (await second.client().request('GET', '/api/auth/profile', { bearer: signedIn.body.token })).status,
      ).toBe(401);
      const login = await second.client().request<{ user: { role: string } }>('POST', '/api/auth/login', {
        body: { email: 'chief@example.com', password: PW },
      });
      expect(login.body.user.role).toBe('user');
    } finally {
      await second.close();
    }
  });
});
