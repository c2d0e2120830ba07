// HTTP edge of the auth service: /api/auth/* as agreed with the web client (contract in README.md).
// Validates input, applies the CSRF rule and per-IP limits, sets the three cookies, and maps domain
// results to the contract's shapes. Errors are thrown as domain errors for the platform's handler.
import { randomBytes } from 'node:crypto';
import express, { Router } from 'express';
import type { CookieOptions, NextFunction, Request, Response } from 'express';
import {
  ACCESS_COOKIE,
  CSRF_COOKIE,
  RateLimitError,
  SESSION_COOKIE,
  assertCsrf,
  getUser,
  isCookieAuthenticated,
  parseCookies,
  readBearer,
  requireUser,
} from '@kaboodle/platform';
import type { TokenVerifier } from '@kaboodle/platform';
import type { AuthConfig } from './auth-config.ts';
import type { AuthService, IssuedSession, RequestContext } from './auth.service.ts';
import type { KeyStore } from './key-store.service.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { UserSettings } from './user.repository.ts';
import {
  parseCredentials,
  parseGoogleLogin,
  parsePage,
  parsePasswordChange,
  parseProfileChange,
  parseRegistration,
  parseRotation,
  parseSettingsChange,
} from './validation.ts';

export interface AuthRouterDeps {
  service: AuthService;
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

const settingsBody = (s: UserSettings) => ({
  default_instructions: s.defaultInstructions,
  default_destination: s.defaultDestination,
});

export function createAuthRouter(deps: AuthRouterDeps): Router {
  const { service, verifier, keys, config, limiters } = deps;
  const csrfOptions = { allowedOrigins: config.allowedOrigins };
  const maxAge = config.sessionTtlMs;

  // SameSite=None is only honoured on Secure cookies; plain-http setups fall back to Lax.
  const crossSite: CookieOptions = {
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: config.cookieSecure ? 'none' : 'lax',
  };
  const cookieOptions = {
    [ACCESS_COOKIE]: { ...crossSite, path: '/' },
    [SESSION_COOKIE]: { ...crossSite, path: '/api/auth' },
    // Readable by the page (double submit), never sent cross-site.
    [CSRF_COOKIE]: { httpOnly: false, secure: config.cookieSecure, sameSite: 'strict', path: '/' },
  } satisfies Record<string, CookieOptions>;

  function setCookies(req: Request, res: Response, issued: IssuedSession): void {
    res.cookie(ACCESS_COOKIE, issued.accessToken, { ...cookieOptions[ACCESS_COOKIE], maxAge });
    if (issued.sessionToken)
      res.cookie(SESSION_COOKIE, issued.sessionToken, { ...cookieOptions[SESSION_COOKIE], maxAge });
    // Re-set even when unchanged: its Max-Age must slide with the session's, or a session renewed
    // by refresh would outlive the CSRF cookie its next refresh needs.
    const csrf = issued.csrfToken ?? parseCookies(req.headers.cookie).get(CSRF_COOKIE) ?? newCsrf();
    res.cookie(CSRF_COOKIE, csrf, { ...cookieOptions[CSRF_COOKIE], maxAge });
  }

  /** After a sign-in: end the browser's earlier session (else it stays live, unreachable, until it expires). */
  async function replaceSession(req: Request, res: Response, issued: IssuedSession): Promise<void> {
    const previous = sessionToken(req);
    if (previous && previous !== issued.sessionToken) await service.logout({ sessionToken: previous });
    setCookies(req, res, issued);
  }

  function clearCookies(res: Response): void {
    for (const [name, options] of Object.entries(cookieOptions)) res.clearCookie(name, options);
  }

  const ctx = (req: Request): RequestContext => ({
    ip: req.ip ?? req.socket.remoteAddress,
    userAgent: req.get('user-agent'),
  });
  const accessToken = (req: Request): string | undefined =>
    readBearer(req) ?? parseCookies(req.headers.cookie).get(ACCESS_COOKIE);
  const sessionToken = (req: Request): string | undefined =>
    parseCookies(req.headers.cookie).get(SESSION_COOKIE);

  /** Sign-in calls authenticate by what they carry, not by cookie: X-Requested-With and Origin only. */
  const anonymous = (req: Request, _res: Response, next: NextFunction) => {
    assertCsrf(req, { ...csrfOptions, cookieAuth: false });
    next();
  };
  /** Calls that act on the current session: the token check too when it comes from a cookie. */
  const sessionBound = (req: Request, _res: Response, next: NextFunction) => {
    assertCsrf(req, { ...csrfOptions, cookieAuth: isCookieAuthenticated(req) });
    next();
  };
  const perIp =
    (limiter: RateLimiter, route: string) => (req: Request, _res: Response, next: NextFunction) => {
      const decision = limiter.take(`${route}:${ctx(req).ip ?? 'unknown'}`);
      if (!decision.allowed) {
        throw new RateLimitError(
          `Too many attempts. Please wait ${decision.retryAfterSeconds} second${decision.retryAfterSeconds === 1 ? '' : 's'} and try again.`,
          decision.retryAfterSeconds,
        );
      }
      next();
    };
  const signedIn = requireUser(verifier, csrfOptions);

  const r = Router();
  r.use(express.json({ limit: '64kb' }));
  r.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store'); // tokens and personal data: never cached
    next();
  });

  r.get('/config', (_req, res) => {
    res.json({ google: { enabled: config.googleClientId !== null, clientId: config.googleClientId } });
  });

  r.get('/jwks', async (_req, res) => {
    // Shorter than the 2 min a rotated-in key is published before it signs, so no cache hides it.
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json(await keys.jwks());
  });

  r.post('/register', anonymous, perIp(limiters.perIp, 'register'), async (req, res) => {
    const issued = await service.register(parseRegistration(req.body), ctx(req));
    await replaceSession(req, res, issued);
    res
      .status(201)
      .json({ user: issued.user, message: 'Registration successful', token: issued.accessToken });
  });

  r.post('/login', anonymous, perIp(limiters.perIp, 'login'), async (req, res) => {
    const issued = await service.login(parseCredentials(req.body), ctx(req));
    await replaceSession(req, res, issued);
    res.json({ user: issued.user, message: 'Login successful', token: issued.accessToken });
  });

  r.post('/admin/login', anonymous, perIp(limiters.perIp, 'admin-login'), async (req, res) => {
    const issued = await service.adminLogin(parseCredentials(req.body), ctx(req));
    await replaceSession(req, res, issued);
    res.json({ user: issued.user, message: 'Admin login successful', token: issued.accessToken });
  });

  r.post('/google', anonymous, perIp(limiters.perIp, 'google'), async (req, res) => {
    const issued = await service.googleLogin(parseGoogleLogin(req.body), ctx(req));
    await replaceSession(req, res, issued);
    res.json({ user: issued.user, message: 'Google login successful', token: issued.accessToken });
  });

  r.post('/logout', sessionBound, async (req, res) => {
    await service.logout({ accessToken: accessToken(req), sessionToken: sessionToken(req) });
    clearCookies(res);
    res.json({ message: 'Logged out' });
  });

  r.get('/session', async (req, res) => {
    const { user, issued } = await service.currentSession({
      accessToken: accessToken(req),
      sessionToken: sessionToken(req),
    });
    if (issued) {
      setCookies(req, res, issued);
      res.json({ user, token: issued.accessToken });
      return;
    }
    res.json({ user });
  });

  r.post('/refresh', sessionBound, perIp(limiters.refreshPerIp, 'refresh'), async (req, res) => {
    const issued = await service.refresh(sessionToken(req));
    setCookies(req, res, issued);
    res.json({ user: issued.user, token: issued.accessToken });
  });

  r.get('/profile', signedIn, async (req, res) => {
    res.json({ user: await service.profile(getUser(req)) });
  });

  r.patch('/profile', signedIn, async (req, res) => {
    res.json({ user: await service.updateProfile(getUser(req), parseProfileChange(req.body)) });
  });

  r.post('/password', signedIn, perIp(limiters.perIp, 'password'), async (req, res) => {
    res.json(await service.changePassword(getUser(req), parsePasswordChange(req.body)));
  });

  r.get('/settings', signedIn, async (req, res) => {
    res.json(settingsBody(await service.settings(getUser(req))));
  });

  r.put('/settings', signedIn, async (req, res) => {
    res.json(settingsBody(await service.updateSettings(getUser(req), parseSettingsChange(req.body))));
  });

  r.get('/admin/users', signedIn, async (req, res) => {
    res.json({
      users: await service.listUsers(getUser(req), parsePage(req.query as Record<string, unknown>)),
    });
  });

  r.post('/admin/keys/rotate', signedIn, async (req, res) => {
    res.json(await service.rotateSigningKey(getUser(req), parseRotation(req.body)));
  });

  // Everything above lives under /api/auth, so this router never touches other services' requests.
  const outer = Router();
  outer.use('/api/auth', r);
  return outer;
}

function newCsrf(): string {
  return randomBytes(32).toString('base64url');
}
