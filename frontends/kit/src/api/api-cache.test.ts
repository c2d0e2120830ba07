import { describe, expect, it, vi } from 'vitest';
import { CACHE_PREFIX, createApiCache, ttlForNamespace, type KeyValueStorage } from './api-cache.ts';

class MemoryStorage implements KeyValueStorage {
  readonly map = new Map<string, string>();
  failWrites = false;
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    if (this.failWrites) throw new DOMException('full', 'QuotaExceededError');
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

describe('api cache (docs/product.md#limits)', () => {
  it('has the namespace TTLs of docs/product.md#limits and a default of 3600 s', () => {
    expect(ttlForNamespace('inventory')).toBe(30 * 60_000);
    expect(ttlForNamespace('documents')).toBe(60 * 60_000);
    expect(ttlForNamespace('search')).toBe(5 * 60_000);
    expect(ttlForNamespace('anything-else')).toBe(3_600_000);
  });

  it('stores {value, timestamp, ttl} under the product prefix and namespace', () => {
    const storage = new MemoryStorage();
    const cache = createApiCache({ storage: () => storage, now: () => 42 });
    cache.set('search', 'red electronics', [1, 2]);
    expect(JSON.parse(storage.getItem(`${CACHE_PREFIX}search:red electronics`)!)).toEqual({
      value: [1, 2],
      timestamp: 42,
      ttl: 5 * 60_000,
    });
    expect(cache.get('search', 'red electronics')).toEqual([1, 2]);
    expect(cache.get('documents', 'red electronics')).toBeUndefined();
  });

  it('expires entries at their TTL', () => {
    let now = 0;
    const storage = new MemoryStorage();
    const cache = createApiCache({ storage: () => storage, now: () => now });
    cache.set('search', 'q', 'v');
    now = 5 * 60_000 - 1;
    expect(cache.get('search', 'q')).toBe('v');
    now = 5 * 60_000;
    expect(cache.get('search', 'q')).toBeUndefined();
  });

  it('purges expired and unreadable entries at load, leaving fresh ones and foreign keys', () => {
    const storage = new MemoryStorage();
    storage.setItem(`${CACHE_PREFIX}search:old`, JSON.stringify({ value: 1, timestamp: 0, ttl: 10 }));
    storage.setItem(`${CACHE_PREFIX}documents:fresh`, JSON.stringify({ value: 2, timestamp: 95, ttl: 100 }));
    storage.setItem(`${CACHE_PREFIX}documents:garbage`, '{');
    storage.setItem('user', '{"id":"1"}');
    createApiCache({ storage: () => storage, now: () => 100 });
    expect([...storage.map.keys()].sort()).toEqual([`${CACHE_PREFIX}documents:fresh`, 'user']);
  });

  it('warns on write failure and purges expired entries to make room', () => {
    let now = 0;
    const storage = new MemoryStorage();
    const warn = vi.fn();
    const cache = createApiCache({ storage: () => storage, now: () => now, warn });
    cache.set('search', 'a', 1);
    now = 10 * 60_000;
    storage.failWrites = true;
    cache.set('documents', 'b', 2);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Cache write failed'), expect.anything());
    expect(storage.length).toBe(0); // the expired search entry went
  });

  it('warns on a failing read and answers a miss', () => {
    const warn = vi.fn();
    const storage = new MemoryStorage();
    const cache = createApiCache({ storage: () => storage, warn });
    storage.getItem = () => {
      throw new Error('denied');
    };
    expect(cache.get('search', 'x')).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Cache read failed'), expect.any(Error));
  });

  it('clears one namespace or all of its own entries', () => {
    const storage = new MemoryStorage();
    const cache = createApiCache({ storage: () => storage });
    cache.set('search', 'a', 1);
    cache.set('documents', 'b', 2);
    storage.setItem('token', 't');
    cache.clear('search');
    expect(cache.get('search', 'a')).toBeUndefined();
    expect(cache.get('documents', 'b')).toBe(2);
    cache.clear();
    expect([...storage.map.keys()]).toEqual(['token']);
  });
});
