// The hit-row cache on its own: rows served from memory, least recently used dropped first, and
// rows read while a write ran never kept.
import { describe, expect, it } from 'vitest';
import { HitRowCache } from './lancedb-hit-cache.ts';
import type { DisplayRow } from './lancedb-hit-cache.ts';

/** A reader over a fixed set of live rows that records which keys it was asked for. */
function reader(live: string[]) {
  const asked: string[][] = [];
  return {
    asked,
    read: async (_owner: string, keys: string[]): Promise<DisplayRow[]> => {
      asked.push(keys);
      return keys.filter((k) => live.includes(k)).map((k) => ({ key: k, title: `t-${k}` }));
    },
  };
}

describe('HitRowCache', () => {
  it('reads only the keys it does not hold, and counts hits and misses', async () => {
    const cache = new HitRowCache(10);
    const r = reader(['a', 'b', 'c']);
    const first = await cache.rowsOf('u1', ['a', 'b'], r.read);
    expect([...first.keys()]).toEqual(['a', 'b']);
    const second = await cache.rowsOf('u1', ['a', 'b', 'c'], r.read);
    expect(second.get('c')).toEqual({ key: 'c', title: 't-c' });
    expect(r.asked).toEqual([['a', 'b'], ['c']]);
    expect(cache.stats()).toEqual({ rows: 3, hits: 2, misses: 3 });
  });

  it('leaves out keys whose entity is gone', async () => {
    const cache = new HitRowCache(10);
    const rows = await cache.rowsOf('u1', ['a', 'gone'], reader(['a']).read);
    expect([...rows.keys()]).toEqual(['a']);
  });

  it('drops the least recently used row when full', async () => {
    const cache = new HitRowCache(2);
    const r = reader(['a', 'b', 'c']);
    await cache.rowsOf('u1', ['a', 'b'], r.read);
    await cache.rowsOf('u1', ['a'], r.read); // a is now the most recently used
    await cache.rowsOf('u1', ['c'], r.read); // b goes
    r.asked.length = 0;
    await cache.rowsOf('u1', ['a', 'b', 'c'], r.read);
    expect(r.asked).toEqual([['b']]);
  });

  it('does not keep rows read while a write ran, and forgets written keys', async () => {
    const cache = new HitRowCache(10);
    const r = reader(['a', 'b']);
    await cache.rowsOf('u1', ['a'], async (owner, keys) => {
      cache.forget(['x']); // a write lands while the read is under way
      return r.read(owner, keys);
    });
    expect(cache.stats().rows).toBe(0);
    await cache.rowsOf('u1', ['a', 'b'], r.read);
    cache.forget(['a']);
    r.asked.length = 0;
    await cache.rowsOf('u1', ['a', 'b'], r.read);
    expect(r.asked).toEqual([['a']]);
  });

  it('keeps nothing with capacity 0', async () => {
    const cache = new HitRowCache(0);
    const r = reader(['a']);
    await cache.rowsOf('u1', ['a'], r.read);
    await cache.rowsOf('u1', ['a'], r.read);
    expect(r.asked).toEqual([['a'], ['a']]);
    expect(cache.stats().rows).toBe(0);
  });
});
