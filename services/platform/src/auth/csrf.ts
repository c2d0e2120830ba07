// The CSRF rule of the auth contract, shared by every service:
// state-changing requests carry `X-Requested-With: XMLHttpRequest` (a custom header forces a CORS preflight),
// their Origin (when sent) is allowed, and cookie-authenticated ones echo the `kaboodle_csrf` cookie in
// `X-CSRF-Token` (double submit). Bearer-authenticated requests skip the token check.
import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { NotAllowedError } from '../errors.ts';
import {
  ACCESS_COOKIE,
  ACCESS_DENIED_MESSAGE,
  CSRF_COOKIE,
  CSRF_HEADER,
  SESSION_COOKIE,
} from './constants.ts';
import { parseCookies } from './cookies.ts';

export interface CsrfOptions {
  /** Origins (scheme://host[:port]) allowed besides the request's own host. */
  allowedOrigins?: readonly string[];
}

type RequestLike = Pick<Request, 'method' | 'headers'>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** Constant-time string equality (length is not secret here: tokens have a fixed length). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function header(req: RequestLike, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The bearer token when the request has `Authorization: Bearer …`, else undefined. */
export function readBearer(req: RequestLike): string | undefined {
  const auth = header(req, 'authorization');
  if (!auth) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(auth);
  return match ? match[1] : undefined;
}

export function isOriginAllowed(
  req: RequestLike,
  origin: string,
  allowedOrigins: readonly string[],
): boolean {
  if (allowedOrigins.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin); // `null` (sandboxed or file pages) throws: not allowed
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = header(req, 'host');
  return host !== undefined && url.host.toLowerCase() === host.toLowerCase();
}

/** Throws NotAllowedError (403, the spec's text) when a state-changing request breaks the rule. */
export function assertCsrf(req: RequestLike, opts: CsrfOptions & { cookieAuth: boolean }): void {
  if (!isStateChanging(req.method)) return;
  const deny = (reason: string): never => {
    throw new NotAllowedError(ACCESS_DENIED_MESSAGE, { details: { reason } });
  };
  if (header(req, 'x-requested-with')?.toLowerCase() !== 'xmlhttprequest') deny('missing X-Requested-With');
  const origin = header(req, 'origin');
  if (origin !== undefined && !isOriginAllowed(req, origin, opts.allowedOrigins ?? []))
    deny('origin not allowed');
  if (opts.cookieAuth) {
    const expected = parseCookies(header(req, 'cookie')).get(CSRF_COOKIE);
    const given = header(req, CSRF_HEADER);
    if (!expected || !given || !safeEqual(expected, given)) deny('CSRF token missing or mismatched');
  }
}

/** Whether a request would authenticate by cookie (no bearer, an auth cookie present). */
export function isCookieAuthenticated(req: RequestLike): boolean {
  if (readBearer(req) !== undefined) return false;
  const cookies = parseCookies(header(req, 'cookie'));
  return cookies.has(ACCESS_COOKIE) || cookies.has(SESSION_COOKIE);
}

/**
 * Express middleware applying the rule to every state-changing request it sees
 * (mount it on /api, /process and /upload).
 */
export function csrfGuard(options: CsrfOptions = {}) {
  return function csrfGuardMiddleware(req: Request, _res: Response, next: NextFunction): void {
    assertCsrf(req, { ...options, cookieAuth: isCookieAuthenticated(req) });
    next();
  };
}
