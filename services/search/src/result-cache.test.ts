import { describe, expect, it } from 'vitest';
import { createResultCache } from './result-cache.ts';

describe('result cache', () => {
  it('serves an answer to its owner only', () => {
    const cache = createResultCache<string[]>({ size: 10, ttlMs: 1000 });
    cache.set('alice', 'q', ['a1'], 0);
    expect(cache.get('alice', 'q')).toEqual(['a1']);
    expect(cache.get('bob', 'q')).toBeUndefined();
  });

  it('forgets an owner’s answers after a write of theirs, not other owners’', () => {
    const cache = createResultCache<string[]>({ size: 10, ttlMs: 1000 });
    cache.set('alice', 'q', ['a1'], 0);
    cache.set('bob', 'q', ['b1'], 0);
    cache.invalidateOwner('alice');
    expect(cache.get('alice', 'q')).toBeUndefined();
    expect(cache.get('bob', 'q')).toEqual(['b1']);
    cache.set('alice', 'q', ['a2'], cache.generationOf('alice'));
    expect(cache.get('alice', 'q')).toEqual(['a2']);
  });

  it('does not keep an answer whose search overlapped a write (it may predate the write)', () => {
    const cache = createResultCache<string[]>({ size: 10, ttlMs: 1000 });
    const before = cache.generationOf('alice');
    cache.invalidateOwner('alice'); // a write lands while the search runs
    cache.set('alice', 'q', ['old'], before);
    expect(cache.get('alice', 'q')).toBeUndefined();
  });

  it('expires answers after the TTL', () => {
    let t = 0;
    const cache = createResultCache<number>({ size: 10, ttlMs: 100, now: () => t });
    cache.set('o', 'k', 1, 0);
    t = 99;
    expect(cache.get('o', 'k')).toBe(1);
    t = 100;
    expect(cache.get('o', 'k')).toBeUndefined();
  });

  it('keeps at most `size` answers and is off at size 0 or TTL 0', () => {
    const cache = createResultCache<number>({ size: 2, ttlMs: 1000 });
    cache.set('o', 'a', 1, 0);
    cache.set('o', 'b', 2, 0);
    cache.set('o', 'c', 3, 0);
    expect(cache.get('o', 'a')).toBeUndefined();
    expect(cache.stats).toEqual({ hits: 0, misses: 1 });
    const off = createResultCache<number>({ size: 0, ttlMs: 1000 });
    off.set('o', 'a', 1, 0);
    expect(off.get('o', 'a')).toBeUndefined();
    const noTtl = createResultCache<number>({ size: 5, ttlMs: 0 });
    noTtl.set('o', 'a', 1, 0);
    expect(noTtl.get('o', 'a')).toBeUndefined();
  });
});
