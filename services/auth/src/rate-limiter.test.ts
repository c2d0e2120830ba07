import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './rate-limiter.ts';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('memory token-bucket rate limiter', () => {
  it('allows a burst of `capacity`, then refuses with a Retry-After', () => {
    const c = clock();
    const limiter = createMemoryRateLimiter({ capacity: 10, windowMs: 60_000, now: c.now });
    for (let i = 0; i < 10; i++) expect(limiter.take('ip:1').allowed).toBe(true);
    const refused = limiter.take('ip:1');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(6); // one token per 6 s
    expect(refused.remaining).toBe(0);
  });

  it('refills over time at capacity per window', () => {
    const c = clock();
    const limiter = createMemoryRateLimiter({ capacity: 5, windowMs: 15 * 60_000, now: c.now });
    for (let i = 0; i < 5; i++) limiter.take('acct');
    expect(limiter.peek('acct').allowed).toBe(false);
    c.advance(3 * 60_000 - 1);
    expect(limiter.peek('acct').allowed).toBe(false);
    c.advance(1);
    expect(limiter.peek('acct').allowed).toBe(true);
    c.advance(60 * 60_000);
    expect(limiter.peek('acct').remaining).toBe(5); // never above capacity
  });

  it('keeps keys apart, and peek spends nothing', () => {
    const limiter = createMemoryRateLimiter({ capacity: 1, windowMs: 1000, now: clock().now });
    expect(limiter.peek('a').allowed).toBe(true);
    expect(limiter.peek('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('reset forgets a key (e.g. after a successful sign-in)', () => {
    const limiter = createMemoryRateLimiter({ capacity: 1, windowMs: 60_000, now: clock().now });
    limiter.take('a');
    expect(limiter.take('a').allowed).toBe(false);
    limiter.reset('a');
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('bounds memory: beyond maxKeys the least recently used key is dropped', () => {
    const limiter = createMemoryRateLimiter({ capacity: 1, windowMs: 60_000, maxKeys: 2, now: clock().now });
    limiter.take('a');
    limiter.take('b');
    limiter.take('a'); // a is now most recent (and refused)
    limiter.take('c'); // evicts b
    expect(limiter.peek('b').allowed).toBe(true);
    expect(limiter.peek('a').allowed).toBe(false);
  });

  it('refuses nonsense settings', () => {
    expect(() => createMemoryRateLimiter({ capacity: 0, windowMs: 1000 })).toThrow();
    expect(() => createMemoryRateLimiter({ capacity: 1, windowMs: 0 })).toThrow();
  });
});
