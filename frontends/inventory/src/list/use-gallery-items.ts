// The gallery's items: pages of 20 appended as the person scrolls (docs/product.md#states: a new filter
// starts at page 1; more pages exist only while the last one returned exactly 20 rows). Scroll loads never
// come from the cache (docs/product.md#calls).
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchInventoryPage } from '../inventory-api.ts';
import { PAGE_SIZE, type InventoryItem, type ListQuery } from '../inventory-types.ts';
import { loadErrorMessage } from './use-inventory-list.ts';

export function useGalleryItems(query: ListQuery, userId: string | undefined, generation: number) {
  const [items, setItems] = useState<InventoryItem[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const next = useRef(1);
  const busy = useRef(false);
  const key = JSON.stringify(query);

  const load = useCallback(
    async (page: number, append: boolean, signal?: AbortSignal) => {
      busy.current = true;
      setLoading(true);
      try {
        const result = await fetchInventoryPage(JSON.parse(key) as ListQuery, page, {
          ...(userId ? { userId } : {}),
          withImages: true,
          fresh: append || generation > 0,
          ...(signal ? { signal } : {}),
        });
        if (signal?.aborted) return;
        let latest = result;
        if (result.fromCache) {
          // a cached first page may predate new items: read it again (docs/product.md#calls allows the cache)
          latest =
            (await fetchInventoryPage(JSON.parse(key) as ListQuery, page, {
              ...(userId ? { userId } : {}),
              withImages: true,
              fresh: true,
              ...(signal ? { signal } : {}),
            }).catch(() => null)) ?? result;
          if (signal?.aborted) return;
        }
        setItems((list) => (append ? [...list, ...latest.items] : latest.items));
        setHasMore(latest.items.length === PAGE_SIZE);
        next.current = page + 1;
        setError(null);
      } catch (err) {
        if (signal?.aborted) return;
        setError(loadErrorMessage(err));
        if (!append) setItems([]);
        setHasMore(false);
      } finally {
        busy.current = false;
        if (!signal?.aborted) setLoading(false);
      }
    },
    [key, userId, generation],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(1, false, controller.signal);
    return () => controller.abort();
  }, [load]);

  const loadMore = useCallback(() => {
    if (busy.current || !hasMore) return;
    void load(next.current, true);
  }, [hasMore, load]);

  return { items, hasMore, loading, error, loadMore };
}
