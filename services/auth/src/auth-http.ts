// What the auth routes share at the HTTP edge: the three cookies (set, slide, clear), the CSRF rules
// for calls that authenticate by their body or by the session cookie, and the per-IP limits.
import { randomBytes } from 'node:crypto';
import type { CookieOptions, NextFunction, Request, RequestHandler, Response } from 'express';
import {
  ACCESS_COOKIE,
  CSRF_COOKIE,
  SESSION_COOKIE,
  assertCsrf,
  isCookieAuthenticated,
  parseCookies,
  readBearer,
} from '@kaboodle/platform';
import type { AuthConfig } from './auth-config.ts';
import { tooMany } from './auth-core.ts';
import type { IssuedSession, RequestContext } from './auth-core.ts';
import type { RateLimiter } from './rate-limiter.ts';

export interface AuthHttp {
  setCookies(req: Request, res: Response, issued: IssuedSession): void;
  clearCookies(res: Response): void;
  ctx(req: Request): RequestContext;
  accessToken(req: Request): string | undefined;
  sessionToken(req: Request): string | undefined;
  /** Sign-in style calls authenticate by what they carry, not by cookie: X-Requested-With and Origin only. */
  anonymous: RequestHandler;
  /** Calls that act on the current session: the token check too when it comes from a cookie. */
  sessionBound: RequestHandler;
  /** One attempt from the limiter's bucket for this route and client IP, else 429 with Retry-After. */
  perIp(limiter: RateLimiter, route: string): RequestHandler;
}

export function createAuthHttp(config: AuthConfig): AuthHttp {
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
  const ctx = (req: Request): RequestContext => ({
    ip: req.ip ?? req.socket.remoteAddress,
    userAgent: req.get('user-agent'),
  });

  return {
    setCookies(req, res, issued) {
      res.cookie(ACCESS_COOKIE, issued.accessToken, { ...cookieOptions[ACCESS_COOKIE], maxAge });
      if (issued.sessionToken)
        res.cookie(SESSION_COOKIE, issued.sessionToken, { ...cookieOptions[SESSION_COOKIE], maxAge });
      // Re-set even when unchanged: its Max-Age must slide with the session's, or a session renewed
      // by refresh would outlive the CSRF cookie its next refresh needs.
      const csrf =
        issued.csrfToken ??
        parseCookies(req.headers.cookie).get(CSRF_COOKIE) ??
        randomBytes(32).toString('base64url');
      res.cookie(CSRF_COOKIE, csrf, { ...cookieOptions[CSRF_COOKIE], maxAge });
    },
    clearCookies(res) {
      for (const [name, options] of Object.entries(cookieOptions)) res.clearCookie(name, options);
    },
    ctx,
    accessToken: (req) => readBearer(req) ?? parseCookies(req.headers.cookie).get(ACCESS_COOKIE),
    sessionToken: (req) => parseCookies(req.headers.cookie).get(SESSION_COOKIE),
    anonymous(req: Request, _res: Response, next: NextFunction) {
      assertCsrf(req, { ...csrfOptions, cookieAuth: false });
      next();
    },
    sessionBound(req: Request, _res: Response, next: NextFunction) {
      assertCsrf(req, { ...csrfOptions, cookieAuth: isCookieAuthenticated(req) });
      next();
    },
    perIp: (limiter, route) => (req, _res, next) => {
      limiter
        .take(`${route}:${ctx(req).ip ?? 'unknown'}`)
        .then((decision) => next(decision.allowed ? undefined : tooMany(decision.retryAfterSeconds)), next);
    },
  };
}
