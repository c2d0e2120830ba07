// The attempt limits: a window of `capacity` attempts, per key, in memory or shared through Postgres.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase } from '@kaboodle/platform';
import type { Database } from '@kaboodle/platform';
import { authMigrations } from './migrations.ts';
import { createMemoryRateLimiter, createPostgresRateLimiter } from './rate-limiter.ts';
import { createTestDatabase } from './testing/test-database.ts';

// PGlite always; a real Postgres server too when DATABASE_URL is set (make engines-up).
const databases: [string, () => Promise<Database>][] = [['PGlite', createTestDatabase]];
const url = process.env.DATABASE_URL;
if (url) {
  databases.push([
    'Postgres',
    async () => {
      const db = createPostgresDatabase({ url, schema: `auth_rl_${randomBytes(4).toString('hex')}` });
      await db.migrate(authMigrations);
      return db;
    },
  ]);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('memory rate limiter', () => {
  it('allows `capacity` attempts, then refuses with a Retry-After until the window ends', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const limiter = createMemoryRateLimiter({ capacity: 10, windowMs: 60_000 });
    for (let i = 0; i < 10; i++) expect((await limiter.take('ip:1')).allowed).toBe(true);
    const refused = await limiter.take('ip:1');
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60, remaining: 0 });
    vi.advanceTimersByTime(59_000);
    expect((await limiter.peek('ip:1')).retryAfterSeconds).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(await limiter.peek('ip:1')).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 10 });
  });

  it('keeps keys apart, and peek spends nothing', async () => {
    const limiter = createMemoryRateLimiter({ capacity: 1, windowMs: 1000 });
    expect((await limiter.peek('a')).allowed).toBe(true);
    expect((await limiter.peek('a')).allowed).toBe(true);
    expect((await limiter.take('a')).allowed).toBe(true);
    expect((await limiter.take('a')).allowed).toBe(false);
    expect((await limiter.take('b')).allowed).toBe(true);
  });

  it('reset forgets a key (e.g. after a successful sign-in)', async () => {
    const limiter = createMemoryRateLimiter({ capacity: 1, windowMs: 60_000 });
    await limiter.take('a');
    expect((await limiter.take('a')).allowed).toBe(false);
    await limiter.reset('a');
    expect((await limiter.take('a')).allowed).toBe(true);
  });

  it('refuses nonsense settings', () => {
    expect(() => createMemoryRateLimiter({ capacity: 0, windowMs: 1000 })).toThrow();
    expect(() => createMemoryRateLimiter({ capacity: 1, windowMs: 0 })).toThrow();
  });
});

describe.each(databases)('Postgres rate limiter on %s', (_name, openDatabase) => {
  it('counts once for every replica: two limiters on one database share the allowance', async () => {
    const db = await openDatabase();
    try {
      const replicaA = createPostgresRateLimiter({ db, name: 'login', capacity: 5, windowMs: 15 * 60_000 });
      const replicaB = createPostgresRateLimiter({ db, name: 'login', capacity: 5, windowMs: 15 * 60_000 });
      for (let i = 0; i < 3; i++) expect((await replicaA.take('login:a@example.org')).allowed).toBe(true);
      for (let i = 0; i < 2; i++) expect((await replicaB.take('login:a@example.org')).allowed).toBe(true);
      const refused = await replicaA.take('login:a@example.org');
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect((await replicaB.peek('login:a@example.org')).allowed).toBe(false);
      // Another limiter's name is another count, in the same table.
      const other = createPostgresRateLimiter({ db, name: 'register', capacity: 5, windowMs: 60_000 });
      expect((await other.take('login:a@example.org')).remaining).toBe(4);
      await replicaB.reset('login:a@example.org');
      expect((await replicaA.peek('login:a@example.org')).remaining).toBe(5);
    } finally {
      await db.close();
    }
  });

  it('falls back to counting in this process when the database fails', async () => {
    const db = await openDatabase();
    const limiter = createPostgresRateLimiter({ db, name: 'ip', capacity: 2, windowMs: 60_000 });
    await db.close();
    expect((await limiter.take('x')).allowed).toBe(true);
    expect((await limiter.take('x')).allowed).toBe(true);
    expect((await limiter.take('x')).allowed).toBe(false);
  });
});
