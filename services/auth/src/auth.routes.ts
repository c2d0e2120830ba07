// HTTP edge of the auth service: every /api/auth/* operation of auth.api.ts bound to the domain
// (contract in docs/services/auth.md). The api router validates input against the declarations; the `before`
// middleware applies the CSRF rule and per-IP limits; handlers set the cookies and map domain
// results to the declared answers. Errors are thrown as domain errors for the platform's handler.
import { Router } from 'express';
import { createApiRouter, getUser } from '@kaboodle/platform';
import type { OperationSpec, TokenVerifier } from '@kaboodle/platform';
import type { Request, Response } from 'express';
import type { AccountService } from './account.service.ts';
import { bindAccountRoutes } from './account.routes.ts';
import {
  adminLogin,
  getAuthConfig,
  getJwks,
  getSession,
  googleLogin,
  login,
  logout,
  refresh,
  register,
} from './auth.api.ts';
import type { AuthConfig } from './auth-config.ts';
import type { IssuedSession } from './auth-core.ts';
import { createAuthHttp } from './auth-http.ts';
import type { AuthService } from './auth.service.ts';
import type { KeyStore } from './key-store.service.ts';
import type { RateLimiter } from './rate-limiter.ts';

export interface AuthRouterDeps {
  service: AuthService;
  account: AccountService;
  verifier: TokenVerifier;
  keys: KeyStore;
  config: AuthConfig;
  limiters: {
    /** Sign-in style calls per IP and route (e.g. 10 per minute). */
    perIp: RateLimiter;
    /** Refreshes per IP (more generous: every tab refreshes). */
    refreshPerIp: RateLimiter;
  };
}

export function createAuthRouter(deps: AuthRouterDeps): {
  router: Router;
  operations: readonly OperationSpec[];
} {
  const { service, account, verifier, keys, config, limiters } = deps;
  const http = createAuthHttp(config);
  const api = createApiRouter({
    verifier,
    csrf: { allowedOrigins: config.allowedOrigins },
    // Admin calls read the stored role: a claim minted before a demotion is not enough.
    requireAdmin: async (req) => {
      await account.requireAdmin(getUser(req));
    },
  });
  const signIn = (route: string) => ({ before: [http.anonymous, http.perIp(limiters.perIp, route)] });

  /** After a sign-in: end the browser's earlier session (else it stays live, unreachable, until it expires). */
  async function replaceSession(req: Request, res: Response, issued: IssuedSession): Promise<void> {
    const previous = http.sessionToken(req);
    if (previous && previous !== issued.sessionToken) await service.logout({ sessionToken: previous });
    http.setCookies(req, res, issued);
  }

  api.handle(getAuthConfig, ({ reply }) =>
    reply(200, { google: { enabled: config.googleClientId !== null, clientId: config.googleClientId } }),
  );

  api.handle(getJwks, async ({ res, reply }) => {
    const jwks = await keys.jwks();
    // Shorter than the 2 min a rotated-in key is published before it signs, so no cache hides it.
    res.setHeader('Cache-Control', 'public, max-age=60');
    reply(200, { keys: jwks.keys.map((k) => ({ ...k, kty: k.kty ?? 'OKP' })) });
  });

  api.handle(
    register,
    async ({ req, res, body, reply }) => {
      const issued = await service.register(body, http.ctx(req));
      await replaceSession(req, res, issued);
      reply(201, { user: issued.user, message: 'Registration successful', token: issued.accessToken });
    },
    signIn('register'),
  );

  api.handle(
    login,
    async ({ req, res, body, reply }) => {
      const issued = await service.login(body, http.ctx(req));
      await replaceSession(req, res, issued);
      reply(200, { user: issued.user, message: 'Login successful', token: issued.accessToken });
    },
    signIn('login'),
  );

  api.handle(
    adminLogin,
    async ({ req, res, body, reply }) => {
      const issued = await service.adminLogin(body, http.ctx(req));
      await replaceSession(req, res, issued);
      reply(200, { user: issued.user, message: 'Admin login successful', token: issued.accessToken });
    },
    signIn('admin-login'),
  );

  api.handle(
    googleLogin,
    async ({ req, res, body, reply }) => {
      const issued = await service.googleLogin(body, http.ctx(req));
      await replaceSession(req, res, issued);
      reply(200, { user: issued.user, message: 'Google login successful', token: issued.accessToken });
    },
    signIn('google'),
  );

  api.handle(
    logout,
    async ({ req, res, reply }) => {
      await service.logout({ accessToken: http.accessToken(req), sessionToken: http.sessionToken(req) });
      http.clearCookies(res);
      reply(200, { message: 'Logged out' });
    },
    { before: [http.sessionBound] },
  );

  api.handle(getSession, async ({ req, res, reply }) => {
    const { user, issued } = await service.currentSession({
      accessToken: http.accessToken(req),
      sessionToken: http.sessionToken(req),
    });
    if (issued) {
      http.setCookies(req, res, issued);
      reply(200, { user, token: issued.accessToken });
      return;
    }
    reply(200, { user });
  });

  api.handle(
    refresh,
    async ({ req, res, reply }) => {
      const issued = await service.refresh(http.sessionToken(req));
      http.setCookies(req, res, issued);
      reply(200, { user: issued.user, token: issued.accessToken });
    },
    { before: [http.sessionBound, http.perIp(limiters.refreshPerIp, 'refresh')] },
  );

  bindAccountRoutes(api, { account, http, limiters, replaceSession });

  // Tokens and personal data are never cached (the key set sets its own header), and this header is
  // set only under /api/auth, so this router never touches other services' answers.
  const router = Router();
  router.use('/api/auth', function noStore(_req, res, next) {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(api.router);
  return { router, operations: api.operations };
}
