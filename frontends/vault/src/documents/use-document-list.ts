// The vault list's state machine (docs/product.md#states): loading / idle / has-more, a fresh load resets to
// page 1, each scroll load appends the next page. A cached first page shows at once and is then refreshed
// quietly, so a list cached for an hour (docs/product.md#limits) still shows documents processed since.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useKeyedValue } from '@kaboodle/kit';
import { appendPage, hasMorePages } from './document-list.ts';
import { fetchDocumentPage, fetchLibraryTotal, type ListQuery } from './documents-api.ts';
import type { VaultDocument } from './document-types.ts';

export interface DocumentListState {
  items: VaultDocument[];
  total: number | null;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  /** True once the first load has answered (successfully or not). */
  settled: boolean;
  /** The last load's failure, for the error banner (docs/product.md#messages); null once one succeeds. */
  error: string | null;
}

/** docs/product.md#messages: the text of a failed list load. */
export const FETCH_FAILED = 'Failed to fetch documents';

const INITIAL: DocumentListState = {
  items: [],
  total: null,
  loading: true,
  loadingMore: false,
  hasMore: false,
  settled: false,
  error: null,
};

function sameItems(a: VaultDocument[], b: VaultDocument[]): boolean {
  return a.length === b.length && a.every((d, i) => d.id === b[i]!.id && d.version === b[i]!.version);
}

export function useDocumentList(query: ListQuery, userId: string | undefined) {
  const [state, setState] = useState<DocumentListState>(INITIAL);
  const nextPage = useRef(1);
  const generation = useRef(0);
  const busy = useRef(false);
  // The screen builds a new query object each render; only a different filter or sort loads again.
  const current = useKeyedValue(query, JSON.stringify(query));

  const reload = useCallback(
    async (fresh = false) => {
      const gen = ++generation.current;
      busy.current = true;
      setState((s) => ({ ...s, loading: true }));
      try {
        const page = await fetchDocumentPage(current, 1, { userId, append: false, fresh });
        if (gen !== generation.current) return;
        nextPage.current = 2;
        setState({
          items: page.items,
          total: page.total,
          loading: false,
          loadingMore: false,
          hasMore: hasMorePages(page.items.length, page.items.length, page.total),
          settled: true,
          error: null,
        });
        busy.current = false;
        if (page.fromCache) {
          const latest = await fetchDocumentPage(current, 1, { userId, append: false, fresh: true });
          if (gen !== generation.current) return;
          setState((s) =>
            // Keep what scrolling has added meanwhile unless the first page itself changed.
            sameItems(s.items.slice(0, latest.items.length), latest.items) && s.total === latest.total
              ? s
              : {
                  ...s,
                  items: latest.items,
                  total: latest.total,
                  hasMore: hasMorePages(latest.items.length, latest.items.length, latest.total),
                },
          );
          if (gen === generation.current) nextPage.current = Math.max(nextPage.current, 2);
        }
      } catch {
        if (gen !== generation.current) return;
        // docs/product.md#messages: the list stays as it was; the banner says the load failed.
        busy.current = false;
        setState((s) => ({ ...s, loading: false, settled: true, error: FETCH_FAILED }));
      }
    },
    [current, userId],
  );

  const loadMore = useCallback(async () => {
    if (busy.current) return;
    const gen = generation.current;
    busy.current = true;
    setState((s) => ({ ...s, loadingMore: true }));
    try {
      const page = await fetchDocumentPage(current, nextPage.current, { userId, append: true });
      if (gen !== generation.current) return;
      nextPage.current += 1;
      setState((s) => {
        const items = appendPage(s.items, page.items);
        const total = page.total ?? s.total;
        return {
          ...s,
          items,
          total,
          loadingMore: false,
          hasMore: hasMorePages(items.length, page.items.length, total),
        };
      });
    } catch {
      if (gen !== generation.current) return;
      setState((s) => ({ ...s, loadingMore: false, hasMore: false, error: FETCH_FAILED }));
    } finally {
      if (gen === generation.current) busy.current = false;
    }
  }, [current, userId]);

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Replaces one document in place after an edit (its new version included). */
  const replace = useCallback((doc: VaultDocument) => {
    setState((s) => ({ ...s, items: s.items.map((d) => (d.id === doc.id ? { ...d, ...doc } : d)) }));
  }, []);

  const dismissError = useCallback(() => setState((s) => ({ ...s, error: null })), []);

  return { ...state, reload, loadMore, replace, dismissError };
}

/**
 * The size of the whole library: the list's own total when nothing filters it, else asked once per
 * filter change (a filtered total of 0 must not read as "you have no documents").
 */
export function useLibraryTotal(filtered: boolean, listTotal: number | null) {
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!filtered) return;
    const controller = new AbortController();
    fetchLibraryTotal(controller.signal).then(
      (n) => {
        setTotal(n);
        setError(null);
      },
      () => {
        if (!controller.signal.aborted) setError(COUNT_FAILED);
      },
    );
    return () => controller.abort();
  }, [filtered, listTotal]);
  return {
    total: filtered ? total : listTotal,
    error: filtered ? error : null,
    dismissError: () => setError(null),
  };
}

export const COUNT_FAILED = 'Counting your documents failed: the total shows once it can be counted.';
