// Every call the inventory remote makes (contracts: catalogue inventory.api.ts, search
// photo-search.api.ts, ingestion reprocess/status), with the cache (docs/product.md#limits): inventory pages
// for 30 minutes keyed by the full URL and the user, dropped whenever the user changes something.
import { api, ApiError, listClient, type ListPage } from '@kaboodle/kit';
import {
  PAGE_SIZE,
  type ImportReport,
  type InventoryDetail,
  type InventoryItem,
  type InventoryPatch,
  type ListQuery,
  type SearchHit,
} from './inventory-types.ts';

const userPrefix = (userId: string | undefined) => `${userId ?? 'anonymous'}:`;

/** Only the set parameters (docs/product.md#calls): the text, the category, the sort. */
export function filterParams(q: ListQuery): Record<string, string | undefined> {
  const text = q.text.trim();
  return {
    ...(text ? { query: text } : {}),
    ...(q.category ? { category: q.category } : {}),
    ...(q.sort ? { sort: q.sort.key, order: q.sort.dir } : {}),
  };
}

/** One page: /api/inventory/search when a filter is set, else /api/inventory (docs/product.md#calls). */
export async function fetchInventoryPage(
  q: ListQuery,
  page: number,
  opts: { userId?: string; fresh?: boolean; signal?: AbortSignal; withImages?: boolean } = {},
): Promise<ListPage<InventoryItem>> {
  const params = filterParams(q);
  const path = params.query || params.category ? '/api/inventory/search' : '/api/inventory';
  return listClient.getList<InventoryItem>(path, {
    // the gallery asks only for items with a photo, so a page of 20 is 20 pictures
    query: { ...params, ...(opts.withImages ? { has_image: 'true' } : {}), page, limit: PAGE_SIZE },
    ...(opts.signal ? { signal: opts.signal } : {}),
    cache: { namespace: 'inventory', keyPrefix: userPrefix(opts.userId), bypassRead: opts.fresh === true },
  });
}

/** Whatever changed an item changes lists and searches: drop the cached pages. */
function changed(): void {
  api.cache.clear('inventory');
  api.cache.clear('search');
}

export const fetchItem = (id: string, signal?: AbortSignal) =>
  api.get<InventoryDetail>(`/api/inventory/${encodeURIComponent(id)}`, signal ? { signal } : undefined);

export async function updateItem(id: string, patch: InventoryPatch): Promise<InventoryDetail> {
  const saved = await api.patch<InventoryDetail>(`/api/inventory/${encodeURIComponent(id)}`, patch);
  changed();
  return saved;
}

export async function deleteItem(id: string): Promise<void> {
  await api.delete(`/api/inventory/${encodeURIComponent(id)}`);
  changed();
}

export async function bulkAction(
  action: { action: 'delete'; ids: string[] } | { action: 'categorise'; ids: string[]; category: string },
): Promise<{ ids: string[]; count: number }> {
  const done = await api.post<{ ids: string[]; count: number }>('/api/inventory/bulk', action);
  changed();
  return done;
}

export function exportUrl(format: 'csv' | 'json', q: ListQuery, ids?: string[]): string {
  return api.url('/api/inventory/export', {
    format,
    ...filterParams(q),
    ...(ids && ids.length > 0 ? { ids: ids.join(',') } : {}),
  });
}

/** Preview (dryRun) or store a CSV; a file with bad rows answers its report with the lines. */
export async function importCsv(
  csv: string,
  opts: { fileName: string; mapping?: Record<string, string>; dryRun: boolean },
): Promise<{ ok: boolean; report: ImportReport }> {
  try {
    const report = await api.post<ImportReport>(
      '/api/inventory/import',
      {
        csv,
        file_name: opts.fileName,
        dry_run: opts.dryRun,
        ...(opts.mapping ? { mapping: opts.mapping } : {}),
      },
      // storing 10,000 rows takes longer than the usual 30 s answer (bench: ~40 s on 2 busy cores)
      { timeoutMs: 180_000 },
    );
    if (!opts.dryRun) changed();
    return { ok: true, report };
  } catch (err) {
    if (err instanceof ApiError && err.status === 422 && err.body && typeof err.body === 'object') {
      return { ok: false, report: err.body as ImportReport };
    }
    throw err;
  }
}

export async function findByPhoto(photo: Blob, signal?: AbortSignal): Promise<SearchHit[]> {
  const form = new FormData();
  form.append('photo', photo, 'photo');
  const body = await api.post<{ results?: SearchHit[] }>(
    '/api/search/by-photo',
    form,
    signal ? { signal, timeoutMs: 90_000 } : { timeoutMs: 90_000 },
  );
  return Array.isArray(body?.results) ? body.results : [];
}

export async function imageNeighbours(id: string): Promise<SearchHit[]> {
  const body = await api.get<{ results?: SearchHit[] }>('/api/search/image-neighbours', {
    query: { id, limit: 8 },
  });
  return Array.isArray(body?.results) ? body.results : [];
}

export async function relatedByText(id: string): Promise<SearchHit[]> {
  const body = await api.get<{ results?: SearchHit[] }>('/api/search/related', {
    query: { type: 'inventory_item', id, limit: 8 },
  });
  return Array.isArray(body?.results) ? body.results : [];
}

/** Process the item's photo again (corrections are kept); resolves when it has ended. */
export async function reprocess(fileId: string, onProgress?: (p: number) => void): Promise<string> {
  await api.post(`/process/files/${encodeURIComponent(fileId)}/reprocess`, {});
  for (let i = 0; i < 600; i++) {
    const s = await api.get<{ status: string; progress: number; error: string | null }>(
      `/process/status/${encodeURIComponent(fileId)}`,
    );
    onProgress?.(s.progress);
    if (s.status === 'completed') {
      changed();
      return 'completed';
    }
    if (s.status === 'failed' || s.status === 'cancelled')
      throw new Error(s.error ?? `Processing ${s.status}`);
    await new Promise((r) => setTimeout(r, 700));
  }
  throw new Error('Processing is taking long; check the Media Hub');
}

/** The original upload (the Media Hub serves it inline). */
export const originalFileUrl = (fileId: string) =>
  api.url(`/process/files/${encodeURIComponent(fileId)}/content`);
export const imageUrl = (path: string) => api.url(path);
