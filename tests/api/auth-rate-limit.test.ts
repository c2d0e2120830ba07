// The production rate limits over real HTTP: 5 failed sign-ins per account per 15 min and
// 10 calls per minute per IP and route, answered with 429, Retry-After and a clear message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer } from './support/auth-server.ts';
import type { AuthTestServer } from './support/auth-server.ts';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer({ productionLimits: true });
});
afterAll(() => server?.close());

describe('rate limits', () => {
  it('locks an account after 5 failed sign-ins, even for the right password', async () => {
    const reg = await server.client().request('POST', '/api/auth/register', {
      body: { email: 'target@example.com', password: 'the right passphrase', name: 'T' },
    });
    expect(reg.status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const res = await server.client().request('POST', '/api/auth/login', {
        body: { email: 'target@example.com', password: `guess-${i}` },
      });
      expect(res.status).toBe(401);
    }
    const locked = await server.client().request('POST', '/api/auth/login', {
      body: { email: 'TARGET@example.com', password: 'the right passphrase' },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/^Too many attempts\. Please wait \d+ seconds? and try again\.$/);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('allows 10 registrations per minute from one IP, then answers 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await server.client().request('POST', '/api/auth/register', {
        body: { email: `burst${i}@example.com`, password: 'long enough passphrase', name: 'B' },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(res.body.message).toMatch(/Too many attempts/);
      }
    }
    // One registration already came from this IP in the test above.
    expect(statuses.filter((s) => s === 201)).toHaveLength(9);
    expect(statuses.slice(9)).toEqual([429, 429]);
  });

  it('limits each route separately: sign-in still answers while registration is throttled', async () => {
    const res = await server.client().request('POST', '/api/auth/login', {
      body: { email: 'burst0@example.com', password: 'long enough passphrase' },
    });
    expect(res.status).toBe(200);
  });
});
