// POST /api/search (docs/product.md#calls, contracts: search) with the 5-minute cache keyed by query + mode
// (docs/product.md#limits).
import { api, ApiError, type ApiBody, type ApiReply } from '@kaboodle/kit';
import type { SearchHit } from '../documents/document-types.ts';

export type SearchMode = Extract<ApiBody<'search'>['search_type'], 'semantic' | 'keyword'>;
export const SEARCH_LIMIT = 20;

export class SearchFailed extends Error {}

export async function unifiedSearch(
  query: string,
  mode: SearchMode,
  opts: { userId?: string; signal?: AbortSignal } = {},
): Promise<SearchHit[]> {
  const key = `${opts.userId ?? 'anonymous'}:${mode}:${query}`;
  const hit = api.cache.get<SearchHit[]>('search', key);
  if (Array.isArray(hit)) return hit;
  let body: Partial<ApiReply<'search'>>;
  try {
    body = await api.post<Partial<ApiReply<'search'>>>(
      '/api/search',
      { query, search_type: mode, limit: SEARCH_LIMIT },
      opts.signal ? { signal: opts.signal } : undefined,
    );
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'aborted') throw err;
    // docs/product.md#messages: a non-OK answer raises "Search failed: {status}".
    throw new SearchFailed(`Search failed: ${err instanceof ApiError ? err.status : 0}`, { cause: err });
  }
  const results = Array.isArray(body?.results) ? body.results : [];
  api.cache.set('search', key, results);
  return results;
}

/**
 * docs/product.md#search: the title (or name, else "Untitled"), the description (or content), the match
 * percentage.
 */
export function hitTitle(hit: Partial<SearchHit>): string {
  return hit.title?.trim() || hit.name?.trim() || 'Untitled';
}

export function hitDescription(hit: Partial<SearchHit>): string {
  return hit.description?.trim() || hit.content?.trim() || '';
}

export function matchPercent(score: number | null | undefined): number | null {
  return typeof score === 'number' && Number.isFinite(score) ? Math.round(score * 100) : null;
}

export function typeLabel(hit: Pick<SearchHit, 'type'> & Partial<SearchHit>): string {
  return hit.type === 'inventory_item' ? 'Inventory Item' : 'Document';
}

/** Find items by photo (POST /api/search/by-photo): the user's items ranked by how alike they look. */
export async function photoSearch(photo: Blob): Promise<SearchHit[]> {
  const form = new FormData();
  form.append('photo', photo, 'photo');
  let body: { results?: unknown };
  try {
    body = await api.post<{ results?: unknown }>('/api/search/by-photo', form, { timeoutMs: 90_000 });
  } catch (err) {
    throw new SearchFailed(`Search failed: ${err instanceof ApiError ? err.status : 0}`, { cause: err });
  }
  return Array.isArray(body?.results) ? (body.results as SearchHit[]) : [];
}
