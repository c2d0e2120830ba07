// Token-bucket rate limiting behind a small interface; this in-memory adapter is per process
// (a shared store such as Redis would implement the same interface for a multi-replica deployment).

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until one more attempt is allowed (0 when allowed). */
  retryAfterSeconds: number;
  /** Attempts left right now (after this one, for take). */
  remaining: number;
}

export interface RateLimiter {
  /** Spend one attempt from the key's bucket; refused (and nothing spent) when it is empty. */
  take(key: string): RateLimitDecision;
  /** Whether an attempt would be allowed, spending nothing. */
  peek(key: string): RateLimitDecision;
  /** Forget the key (e.g. after a successful sign-in). */
  reset(key: string): void;
}

export interface MemoryRateLimiterOptions {
  /** Attempts a fresh bucket holds (burst). */
  capacity: number;
  /** Time for an empty bucket to refill completely: capacity attempts per window. */
  windowMs: number;
  /** Upper bound on tracked keys; the least recently used are dropped beyond it (default 100 000). */
  maxKeys?: number;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): RateLimiter {
  const { capacity, windowMs } = options;
  if (!(capacity >= 1) || !(windowMs > 0))
    throw new Error('rate limiter: capacity >= 1 and windowMs > 0 required');
  const maxKeys = options.maxKeys ?? 100_000;
  const now = options.now ?? Date.now;
  const ratePerMs = capacity / windowMs;
  const buckets = new Map<string, Bucket>();

  const current = (key: string): Bucket => {
    const t = now();
    const b = buckets.get(key);
    if (!b) return { tokens: capacity, at: t };
    return { tokens: Math.min(capacity, b.tokens + (t - b.at) * ratePerMs), at: t };
  };
  const decision = (b: Bucket, allowed: boolean): RateLimitDecision => ({
    allowed,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / ratePerMs / 1000)),
    remaining: Math.floor(b.tokens),
  });

  return {
    take(key) {
      const b = current(key);
      const allowed = b.tokens >= 1;
      if (allowed) b.tokens -= 1;
      buckets.delete(key); // re-insert: Map order is then least-recently-used first
      buckets.set(key, b);
      if (buckets.size > maxKeys) {
        const oldest = buckets.keys().next().value;
        if (oldest !== undefined) buckets.delete(oldest);
      }
      return decision(b, allowed);
    },
    peek(key) {
      const b = current(key);
      return decision(b, b.tokens >= 1);
    },
    reset(key) {
      buckets.delete(key);
    },
  };
}
