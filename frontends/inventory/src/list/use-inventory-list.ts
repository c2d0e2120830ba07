// The table's data: one page of 20 for the current filter and sort (a new filter goes back to page
// 1), the total from X-Total-Count, and the failure (docs/product.md#messages): "HTTP error! status: {code}"
// with the list emptied, so the empty state shows beneath the message.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, useKeyedValue } from '@kaboodle/kit';
import { fetchInventoryPage } from '../inventory-api.ts';
import { PAGE_SIZE, type InventoryItem, type ListQuery } from '../inventory-types.ts';

export interface InventoryList {
  items: InventoryItem[];
  total: number;
  page: number;
  pages: number;
  loading: boolean;
  /** The first answer (or failure) has arrived. */
  settled: boolean;
  error: string | null;
  setPage(page: number): void;
  /** Read again from the server (after a change). */
  reload(): void;
  replace(item: InventoryItem): void;
}

export function loadErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status > 0) return `HTTP error! status: ${err.status}`;
  return err instanceof Error ? err.message : String(err);
}

export function useInventoryList(query: ListQuery, userId: string | undefined): InventoryList {
  const [items, setItems] = useState<InventoryItem[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(true);
  const [settled, setSettled] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const fresh = useRef(false);
  const key = JSON.stringify(query);
  const lastKey = useRef(key);
  // The caller builds a new query object each render; only a different filter or sort loads again.
  const current = useKeyedValue(query, key);

  // a new filter or sort starts at page 1
  if (lastKey.current !== key) {
    lastKey.current = key;
    if (page !== 1) setPage(1);
  }

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    const bypass = fresh.current;
    fresh.current = false;
    fetchInventoryPage(current, page, {
      ...(userId ? { userId } : {}),
      fresh: bypass,
      signal: controller.signal,
    })
      .then(async (result) => {
        setItems(result.items);
        setTotal(result.total ?? result.items.length);
        setError(null);
        // docs/product.md#calls serves a non-appending load from the cache; items processed since then must
        // still appear, so a cached page is shown at once and quietly read again
        if (!result.fromCache) return;
        const latest = await fetchInventoryPage(current, page, {
          ...(userId ? { userId } : {}),
          fresh: true,
          signal: controller.signal,
        }).catch(() => null);
        if (!latest || controller.signal.aborted) return;
        setItems(latest.items);
        setTotal(latest.total ?? latest.items.length);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Loading the inventory failed', err);
        setItems([]);
        setTotal(0);
        setError(loadErrorMessage(err));
      })
      .finally(() => {
        if (controller.signal.aborted) return;
        setLoading(false);
        setSettled(true);
      });
    return () => controller.abort();
  }, [current, page, userId, generation]);

  const reload = useCallback(() => {
    fresh.current = true;
    setGeneration((g) => g + 1);
  }, []);
  const replace = useCallback((item: InventoryItem) => {
    setItems((list) => list.map((i) => (i.id === item.id ? item : i)));
  }, []);

  return {
    items,
    total,
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    loading,
    settled,
    error,
    setPage,
    reload,
    replace,
  };
}
