// The list client reads X-Total-Count beside the array body and caches both together.
import { describe, expect, it } from 'vitest';
import { createListClient, parseTotalCount } from './api-list.ts';
import type { KeyValueStorage } from './api-cache.ts';

function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

describe('list client', () => {
  it('returns the array and X-Total-Count, then serves the page from the cache', async () => {
    const calls: string[] = [];
    const storage = memoryStorage();
    const client = createListClient({
      baseUrl: 'http://x',
      storage: () => storage,
      cookies: () => '',
      fetch: async (input) => {
        calls.push(String(input));
        return new Response(JSON.stringify([{ id: 'a' }]), {
          headers: { 'content-type': 'application/json', 'x-total-count': '41' },
        });
      },
    });
    const req = { query: { page: 1, limit: 20 }, cache: { namespace: 'documents', keyPrefix: 'u1:' } };
    const first = await client.getList<{ id: string }>('/api/documents', req);
    expect(first).toEqual({ items: [{ id: 'a' }], total: 41, fromCache: false });
    const second = await client.getList('/api/documents', req);
    expect(second).toEqual({ items: [{ id: 'a' }], total: 41, fromCache: true });
    expect(calls).toEqual(['http://x/api/documents?page=1&limit=20']);
    // Scroll loads bypass the cache read.
    await client.getList('/api/documents', { ...req, cache: { ...req.cache, bypassRead: true } });
    expect(calls).toHaveLength(2);
  });

  it('rejects a body that is not an array as an invalid response', async () => {
    const client = createListClient({
      storage: () => undefined,
      cookies: () => '',
      fetch: async () =>
        new Response('{"documents":[]}', { headers: { 'content-type': 'application/json' } }),
    });
    await expect(client.getList('http://x/api/documents')).rejects.toMatchObject({
      kind: 'invalid-response',
      message: 'Invalid API response',
    });
  });

  it('parses only whole, non-negative counts', () => {
    expect(parseTotalCount('12')).toBe(12);
    expect(parseTotalCount(null)).toBeNull();
    expect(parseTotalCount('')).toBeNull();
    expect(parseTotalCount('-1')).toBeNull();
    expect(parseTotalCount('1.5')).toBeNull();
  });
});
