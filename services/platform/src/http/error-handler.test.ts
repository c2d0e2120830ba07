import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  RateLimitError,
  TooLargeError,
  UnavailableError,
} from '../errors.ts';
import { toHttpError } from './error-handler.ts';

describe('toHttpError', () => {
  it.each([
    [new InputError('Email is required'), 400, 'InputError'],
    [new AuthenticationError('Session expired'), 401, 'AuthenticationError'],
    [new NotAllowedError('Admins only'), 403, 'NotAllowedError'],
    [new NotFoundError('Document not found'), 404, 'NotFoundError'],
    [new ConflictError('File "a.pdf" is already in the list'), 409, 'ConflictError'],
    [new TooLargeError('File size exceeds 20MB limit (21.00MB)'), 413, 'TooLargeError'],
  ])('maps %s to its status with the user-facing message', (err, status, code) => {
    const mapped = toHttpError(err);
    expect(mapped.status).toBe(status);
    expect(mapped.body).toEqual({ error: err.message, message: err.message, code });
    expect(mapped.fault).toBe(false);
  });

  it('passes a domain error’s details to the client', () => {
    const mapped = toHttpError(new InputError('Invalid fields', { details: { fields: ['email'] } }));
    expect(mapped.body.details).toEqual({ fields: ['email'] });
  });

  it('sets Retry-After (whole seconds, rounded up) for RateLimitError', () => {
    const mapped = toHttpError(new RateLimitError('Too many attempts, try again later', 2.2));
    expect(mapped.status).toBe(429);
    expect(mapped.headers).toEqual({ 'Retry-After': '3' });
    expect(mapped.body.message).toBe('Too many attempts, try again later');
  });

  it('keeps UnavailableError’s internals out of the response', () => {
    const mapped = toHttpError(new UnavailableError('postgres at 10.0.0.5:5432 refused the connection'));
    expect(mapped.status).toBe(503);
    expect(mapped.body).toEqual({
      error: 'Service temporarily unavailable',
      message: 'Service temporarily unavailable',
      code: 'UnavailableError',
    });
    expect(mapped.fault).toBe(true);
  });

  it('maps anything unexpected to a generic 500', () => {
    for (const thrown of [
      new Error('secret path /etc/x'),
      new TypeError('x is undefined'),
      'a string',
      null,
      42,
    ]) {
      const mapped = toHttpError(thrown);
      expect(mapped.status).toBe(500);
      expect(mapped.body).toEqual({
        error: 'Internal server error',
        message: 'Internal server error',
        code: 'InternalError',
      });
      expect(mapped.fault).toBe(true);
    }
  });

  it('maps body-parser failures: invalid JSON to 400, too large to 413', () => {
    const parse = Object.assign(new SyntaxError('Unexpected token'), {
      type: 'entity.parse.failed',
      status: 400,
    });
    expect(toHttpError(parse)).toMatchObject({
      status: 400,
      body: { message: 'Invalid JSON in request body', code: 'InputError' },
    });
    const large = Object.assign(new Error('request entity too large'), {
      type: 'entity.too.large',
      status: 413,
      limit: 100,
    });
    expect(toHttpError(large)).toMatchObject({
      status: 413,
      body: { message: 'Request body is too large (limit 100 bytes)', code: 'TooLargeError' },
    });
  });

  it('keeps an exposed 4xx from an HTTP library, but not a 5xx or an unexposed one', () => {
    const unsupported = Object.assign(new Error('unsupported charset "X"'), {
      status: 415,
      expose: true,
      name: 'UnsupportedMediaTypeError',
    });
    expect(toHttpError(unsupported)).toMatchObject({
      status: 415,
      body: { message: 'unsupported charset "X"' },
    });
    expect(toHttpError(Object.assign(new Error('internal'), { status: 502, expose: true })).status).toBe(500);
    expect(toHttpError(Object.assign(new Error('internal'), { status: 400, expose: false })).status).toBe(
      500,
    );
  });
});
