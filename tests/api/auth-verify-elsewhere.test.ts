// What every other service does in split mode: verify the auth service's access tokens locally with
// the platform middleware, fetching the key set from the auth service's /api/auth/jwks over HTTP.
import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHttpServer,
  createLogger,
  createTokenVerifier,
  getUser,
  listen,
  requireUser,
} from '@kaboodle/platform';
import type { RunningServer } from '@kaboodle/platform';
import { createAuthClient } from './support/auth-client.ts';
import { startAuthTestServer } from './support/auth-server.ts';
import type { AuthTestServer } from './support/auth-server.ts';

let auth: AuthTestServer;
let other: RunningServer;
beforeAll(async () => {
  auth = await startAuthTestServer();
  // A stand-in for another service (e.g. catalogue) in its own HTTP server, knowing only AUTH_URL.
  const verifier = createTokenVerifier({ jwksUrl: `${auth.url}/api/auth/jwks` });
  const routes = Router();
  routes.get('/api/whoami', requireUser(verifier), (req, res) => {
    res.json(getUser(req));
  });
  routes.post('/api/things', requireUser(verifier), (req, res) => {
    res.status(201).json({ owner: getUser(req).id });
  });
  const logger = createLogger({ component: 'other-service-test', level: 'silent' });
  other = await listen(createHttpServer({ logger, routers: [routes] }).app, 0, '127.0.0.1');
});
afterAll(async () => {
  await other?.close(1000);
  await auth?.close();
});

describe('another service verifying tokens locally', () => {
  it('accepts the bearer token from sign-in and sees the user id, email and role', async () => {
    const reg = await auth
      .client()
      .request<{ token: string; user: { id: string } }>('POST', '/api/auth/register', {
        body: { email: 'svc@example.com', password: 'long enough passphrase', name: 'Svc' },
      });
    const res = await createAuthClient(other.url).request('GET', '/api/whoami', { bearer: reg.body.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reg.body.user.id, email: 'svc@example.com', role: 'user' });
  });

  it('accepts the access cookie, with the CSRF rule on state changes', async () => {
    const browser = auth.client();
    await browser.request('POST', '/api/auth/login', {
      body: { email: 'svc@example.com', password: 'long enough passphrase' },
    });
    const access = browser.cookie('kaboodle_access')!;
    const csrf = browser.cookie('kaboodle_csrf')!;
    const client = createAuthClient(other.url);
    client.setCookie('kaboodle_access', access);
    expect((await client.request('GET', '/api/whoami')).status).toBe(200);
    const noToken = await client.request('POST', '/api/things', { body: {} });
    expect(noToken.status).toBe(403);
    expect(noToken.body.message).toBe('Access denied. You may not have permission for this action.');
    client.setCookie('kaboodle_csrf', csrf);
    expect((await client.request('POST', '/api/things', { body: {} })).status).toBe(201);
  });

  it('answers 401 {message: "Session expired"} without a token or with a bad one', async () => {
    const none = await createAuthClient(other.url).request('GET', '/api/whoami');
    expect(none.status).toBe(401);
    expect(none.body.message).toBe('Session expired');
    expect(
      (await createAuthClient(other.url).request('GET', '/api/whoami', { bearer: 'a.b.c' })).status,
    ).toBe(401);
  });
});
