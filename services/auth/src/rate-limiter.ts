// Attempt limits (sign-in failures, registrations, mailed links, calls per IP) on
// rate-limiter-flexible: a fixed window of `capacity` attempts per `windowMs`. In a cluster the
// counts live in Postgres (the auth schema's rate_limits table), because per-process counts would
// multiply the limit by the replica count; the embedded single-process mode keeps them in memory.
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Queryable } from '@kaboodle/platform';

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until one more attempt is allowed (0 when allowed). */
  retryAfterSeconds: number;
  /** Attempts left right now (after this one, for take). */
  remaining: number;
}

export interface RateLimiter {
  /** Spend one attempt from the key's allowance; refused when none is left. */
  take(key: string): Promise<RateLimitDecision>;
  /** Whether an attempt would be allowed, spending nothing. */
  peek(key: string): Promise<RateLimitDecision>;
  /** Forget the key (e.g. after a successful sign-in). */
  reset(key: string): Promise<void>;
}

export interface RateLimitRule {
  /** Attempts allowed within one window. */
  capacity: number;
  /** The window's length. */
  windowMs: number;
}

/** The table the Postgres store uses (auth migration 0004): the library's own layout. */
export const RATE_LIMIT_TABLE = 'rate_limits';

function checked(rule: RateLimitRule): { points: number; duration: number } {
  if (!(rule.capacity >= 1) || !(rule.windowMs > 0))
    throw new Error('rate limiter: capacity >= 1 and windowMs > 0 required');
  return { points: Math.floor(rule.capacity), duration: rule.windowMs / 1000 };
}

function wrap(limiter: RateLimiterAbstract, points: number): RateLimiter {
  const refused = (res: RateLimiterRes): RateLimitDecision => ({
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    remaining: 0,
  });
  return {
    async take(key) {
      try {
        const res = await limiter.consume(key);
        return { allowed: true, retryAfterSeconds: 0, remaining: res.remainingPoints };
      } catch (err) {
        // The library rejects with its result when the allowance is spent, with an Error otherwise.
        if (err instanceof RateLimiterRes) return refused(err);
        throw err;
      }
    },
    async peek(key) {
      const res = await limiter.get(key);
      if (!res || res.consumedPoints < points) {
        return { allowed: true, retryAfterSeconds: 0, remaining: points - (res?.consumedPoints ?? 0) };
      }
      return refused(res);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/** Counts in this process only: for the embedded single-process mode and tests. */
export function createMemoryRateLimiter(rule: RateLimitRule): RateLimiter {
  const { points, duration } = checked(rule);
  return wrap(new RateLimiterMemory({ points, duration }), points);
}

/**
 * Counts shared by every replica, in Postgres. `name` keeps limiters apart in the one table. Should
 * the database fail, the limiter falls back to counting in this process (the library's insurance
 * limiter) rather than refusing every sign-in or letting every attempt through.
 */
export function createPostgresRateLimiter(
  rule: RateLimitRule & { db: Queryable; name: string },
): RateLimiter {
  const { points, duration } = checked(rule);
  const { db } = rule;
  const limiter = new RateLimiterPostgres({
    // The library calls query({text, values}) and reads rows/rowCount: the Database port answers that.
    storeClient: { query: (q: { text: string; values?: unknown[] }) => db.query(q.text, q.values) },
    storeType: 'pool',
    tableName: RATE_LIMIT_TABLE,
    tableCreated: true, // by the auth migrations, so replicas never race to create it
    keyPrefix: rule.name,
    points,
    duration,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: rule.name, points, duration }),
  });
  return wrap(limiter, points);
}
