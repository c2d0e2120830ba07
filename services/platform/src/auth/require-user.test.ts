import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { AuthenticationError, NotAllowedError } from '../errors.ts';
import { parseCookies } from './cookies.ts';
import { assertCsrf, csrfGuard, readBearer } from './csrf.ts';
import { getUser, requireUser } from './require-user.ts';
import type { AuthenticatedUser, TokenVerifier } from './token-verifier.ts';

const alice: AuthenticatedUser = {
  id: 'u1',
  email: 'alice@example.com',
  role: 'user',
  sessionId: 's1',
  expiresAt: new Date(Date.now() + 60_000),
};

/** Accepts exactly the token "good". */
const verifier: TokenVerifier = {
  async verify(token) {
    if (token !== 'good') throw new AuthenticationError('Session expired');
    return alice;
  },
};

function request(method: string, headers: Record<string, string> = {}): Request {
  return { method, headers: { host: 'kaboodle.test', ...headers } } as unknown as Request;
}

async function run(req: Request): Promise<{ next: NextFunction }> {
  const next = vi.fn() as unknown as NextFunction;
  await requireUser(verifier)(req, {} as Response, next);
  return { next };
}

const xhr = { 'x-requested-with': 'XMLHttpRequest' };

describe('requireUser', () => {
  it('accepts a bearer token on a GET and sets req.user', async () => {
    const req = request('GET', { authorization: 'Bearer good' });
    const { next } = await run(req);
    expect(next).toHaveBeenCalledOnce();
    expect(getUser(req)).toEqual(alice);
  });

  it('accepts the access cookie on a GET', async () => {
    const req = request('GET', { cookie: 'other=1; kaboodle_access=good' });
    await run(req);
    expect(req.user?.id).toBe('u1');
  });

  it('answers 401 "Session expired" with no credential or a bad one', async () => {
    await expect(run(request('GET'))).rejects.toThrow(new AuthenticationError('Session expired'));
    await expect(run(request('GET', { authorization: 'Bearer forged' }))).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    await expect(run(request('GET', { cookie: 'kaboodle_access=forged' }))).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it('prefers the bearer over the cookie', async () => {
    await expect(
      run(request('GET', { authorization: 'Bearer forged', cookie: 'kaboodle_access=good' })),
    ).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('refuses a cookie-authenticated POST without the CSRF token (403, the spec text)', async () => {
    const req = request('POST', { ...xhr, cookie: 'kaboodle_access=good; kaboodle_csrf=abc' });
    const err = await run(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAllowedError);
    expect((err as Error).message).toBe('Access denied. You may not have permission for this action.');
  });

  it('refuses a cookie-authenticated POST whose CSRF header does not match the cookie', async () => {
    const req = request('POST', {
      ...xhr,
      cookie: 'kaboodle_access=good; kaboodle_csrf=abc',
      'x-csrf-token': 'abd',
    });
    await expect(run(req)).rejects.toBeInstanceOf(NotAllowedError);
  });

  it('accepts a cookie-authenticated POST with the matching CSRF token', async () => {
    const req = request('POST', {
      ...xhr,
      cookie: 'kaboodle_access=good; kaboodle_csrf=abc',
      'x-csrf-token': 'abc',
    });
    const { next } = await run(req);
    expect(next).toHaveBeenCalledOnce();
  });

  it('lets a bearer-authenticated POST skip the token check but not X-Requested-With', async () => {
    await expect(run(request('POST', { ...xhr, authorization: 'Bearer good' }))).resolves.toBeTruthy();
    await expect(run(request('PATCH', { authorization: 'Bearer good' }))).rejects.toBeInstanceOf(
      NotAllowedError,
    );
  });

  it('getUser throws 401 when requireUser did not run', () => {
    expect(() => getUser(request('GET'))).toThrow(AuthenticationError);
  });
});

describe('assertCsrf', () => {
  const ok = (method: string, headers: Record<string, string>, allowedOrigins: string[] = []) =>
    assertCsrf(request(method, headers), { cookieAuth: false, allowedOrigins });

  it('ignores safe methods', () => {
    expect(() => ok('GET', {})).not.toThrow();
    expect(() => ok('HEAD', { origin: 'https://evil.example' })).not.toThrow();
  });

  it('needs X-Requested-With on state-changing methods', () => {
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(() => ok(m, {})).toThrow(NotAllowedError);
  });

  it('allows the same host and configured origins, refuses others and "null"', () => {
    expect(() => ok('POST', { ...xhr, origin: 'http://kaboodle.test' })).not.toThrow();
    expect(() =>
      ok('POST', { ...xhr, origin: 'https://app.example' }, ['https://app.example']),
    ).not.toThrow();
    expect(() => ok('POST', { ...xhr, origin: 'https://evil.example' })).toThrow(NotAllowedError);
    expect(() => ok('POST', { ...xhr, origin: 'null' })).toThrow(NotAllowedError);
    expect(() => ok('POST', { ...xhr, origin: 'http://kaboodle.test.evil.example' })).toThrow(
      NotAllowedError,
    );
  });

  it('csrfGuard treats a request with auth cookies and no bearer as cookie-authenticated', () => {
    const guard = csrfGuard();
    const next = vi.fn();
    expect(() =>
      guard(request('POST', { ...xhr, cookie: 'kaboodle_session=x' }), {} as Response, next),
    ).toThrow(NotAllowedError);
    guard(
      request('POST', { ...xhr, cookie: 'kaboodle_session=x', authorization: 'Bearer t' }),
      {} as Response,
      next,
    );
    guard(request('POST', { ...xhr }), {} as Response, next);
    expect(next).toHaveBeenCalledTimes(2);
  });
});

describe('cookie and header parsing', () => {
  it('parses cookies, keeps the first of duplicates and survives bad encodings', () => {
    const c = parseCookies('a=1; b="two"; a=3; bad=%E0%A4%A; =x; noeq');
    expect(c.get('a')).toBe('1');
    expect(c.get('b')).toBe('two');
    expect(c.get('bad')).toBe('%E0%A4%A');
    expect(c.size).toBe(3);
  });

  it('reads only well-formed bearer headers', () => {
    expect(readBearer(request('GET', { authorization: 'Bearer abc.def' }))).toBe('abc.def');
    expect(readBearer(request('GET', { authorization: 'bearer abc' }))).toBe('abc');
    expect(readBearer(request('GET', { authorization: 'Basic abc' }))).toBeUndefined();
    expect(readBearer(request('GET', { authorization: 'Bearer a b' }))).toBeUndefined();
  });
});
