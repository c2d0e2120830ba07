// Paged list calls that also need the X-Total-Count header (GET /api/documents, /api/inventory and
// their /search siblings answer a bare array, docs/product.md#calls, and carry the total beside it). The
// shared client returns bodies only, so this wraps its own client around a fetch that notes the header.
import { createApiClient, type ApiClientEnv, type RequestOptions } from './api-client.ts';
import { API_MESSAGES, ApiError } from './api-error.ts';

export interface ListPage<T> {
  items: T[];
  /** X-Total-Count, or null when the server did not send one. */
  total: number | null;
  /**
   * True when the page came from the docs/product.md#limits browser cache (the caller may refresh it
   * quietly).
   */
  fromCache: boolean;
}

export interface ListRequest {
  query?: RequestOptions['query'];
  signal?: AbortSignal;
  /** Serve from / store in this cache namespace (keyed by the full URL plus `keyPrefix`). */
  cache?: { namespace: string; ttlMs?: number; bypassRead?: boolean; keyPrefix?: string };
}

export interface ListClient {
  getList<T>(path: string, req?: ListRequest): Promise<ListPage<T>>;
}

function isCachedPage(value: unknown): value is { items: unknown[]; total: number | null } {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.items) && (v.total === null || typeof v.total === 'number');
}

export function parseTotalCount(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const n = Number(header);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

export function createListClient(env: ApiClientEnv = {}): ListClient {
  const totals = new Map<string, string | null>();
  const baseFetch = env.fetch;
  const client = createApiClient({
    ...env,
    fetch: async (input, init) => {
      const res = await (baseFetch ?? globalThis.fetch)(input, init);
      totals.set(typeof input === 'string' ? input : String(input), res.headers.get('x-total-count'));
      return res;
    },
  });

  return {
    async getList<T>(path: string, req: ListRequest = {}): Promise<ListPage<T>> {
      const target = client.url(path, req.query);
      const cacheKey = req.cache ? `${req.cache.keyPrefix ?? ''}${target}` : '';
      if (req.cache && !req.cache.bypassRead) {
        const hit = client.cache.get<unknown>(req.cache.namespace, cacheKey);
        if (isCachedPage(hit)) return { items: hit.items as T[], total: hit.total, fromCache: true };
      }
      const body = await client.get<unknown>(path, {
        ...(req.query ? { query: req.query } : {}),
        ...(req.signal ? { signal: req.signal } : {}),
      });
      if (!Array.isArray(body)) {
        throw new ApiError({ status: 200, kind: 'invalid-response', message: API_MESSAGES.invalidResponse });
      }
      const total = parseTotalCount(totals.get(target) ?? null);
      totals.delete(target);
      if (req.cache) {
        client.cache.set(req.cache.namespace, cacheKey, { items: body, total }, req.cache.ttlMs);
      }
      return { items: body as T[], total, fromCache: false };
    },
  };
}

/** The shared list client (same origin, same storage and cache as `api`). */
export const listClient: ListClient = createListClient();
