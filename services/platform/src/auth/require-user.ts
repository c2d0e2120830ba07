// Express middleware every service puts in front of its user routes: a verified access token
// (Bearer header, else the `kaboodle_access` cookie) becomes `req.user`; the CSRF rule applies first.
import type { NextFunction, Request, Response } from 'express';
import { AuthenticationError } from '../errors.ts';
import { ACCESS_COOKIE, SESSION_EXPIRED_MESSAGE } from './constants.ts';
import { readCookie } from './cookies.ts';
import { assertCsrf, readBearer } from './csrf.ts';
import type { CsrfOptions } from './csrf.ts';
import type { AuthenticatedUser, TokenVerifier } from './token-verifier.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- the documented way to type req.user in express
  namespace Express {
    interface Request {
      /** Set by requireUser; read it with getUser(req). */
      user?: AuthenticatedUser;
    }
  }
}

export type RequireUserOptions = CsrfOptions;

export function requireUser(verifier: TokenVerifier, options: RequireUserOptions = {}) {
  return async function requireUserMiddleware(
    req: Request,
    _res: Response,
    next: NextFunction,
  ): Promise<void> {
    const bearer = readBearer(req);
    const token = bearer ?? readCookie(req, ACCESS_COOKIE);
    assertCsrf(req, { ...options, cookieAuth: bearer === undefined && token !== undefined });
    if (token === undefined) throw new AuthenticationError(SESSION_EXPIRED_MESSAGE);
    req.user = await verifier.verify(token);
    next();
  };
}

/** The signed-in user of a request that passed requireUser; throws 401 if it did not. */
export function getUser(req: Request): AuthenticatedUser {
  if (!req.user) throw new AuthenticationError(SESSION_EXPIRED_MESSAGE);
  return req.user;
}
