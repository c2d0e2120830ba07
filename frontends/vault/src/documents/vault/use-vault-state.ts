// The Document Vault's state hooks (docs/product.md#document-vault): the chosen view (remembered, and
// the reader when a link names a document), the categories for the filter, the semantic search and
// the infinite scroll. Each failed request leaves a text for the vault's error banner.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { nearBottom } from '../document-list.ts';
import { VAULT_VIEWS, type SemanticResult, type VaultView } from '../document-types.ts';
import { fetchCategories, semanticSearch } from '../documents-api.ts';

const VIEW_KEY = 'kaboodle:vault:view';
/** docs/product.md#messages. */
export const SEARCH_FAILED = 'Search failed';
export const CATEGORIES_FAILED =
  'Loading the categories failed: the filter lists the categories of the documents shown.';

function storedView(): VaultView {
  try {
    const v = localStorage.getItem(VIEW_KEY);
    return VAULT_VIEWS.some((x) => x.id === v) ? (v as VaultView) : 'table';
  } catch {
    return 'table';
  }
}

/** The view on screen; ?open=<id> opens that document in the browser view. */
export function useVaultView() {
  const [params, setParams] = useSearchParams();
  const openId = params.get('open');
  const [view, setViewState] = useState<VaultView>(() => (openId ? 'browser' : storedView()));

  useEffect(() => {
    if (openId) setViewState('browser');
  }, [openId]);

  const setView = (v: VaultView) => {
    setViewState(v);
    try {
      localStorage.setItem(VIEW_KEY, v);
    } catch {
      // remembering the choice is a nicety
    }
    if (v !== 'browser' && openId) {
      const next = new URLSearchParams(params);
      next.delete('open');
      setParams(next, { replace: true });
    }
  };
  const openInBrowser = useCallback(
    (id: string) => {
      setViewState('browser');
      const next = new URLSearchParams(params);
      next.set('open', id);
      setParams(next, { replace: openId !== null });
    },
    [params, openId, setParams],
  );
  return { view, setView, openId, openInBrowser };
}

/** GET /api/documents/categories, again after an edit (a corrected category may be new). */
export function useServerCategories(userId: string | undefined) {
  const [categories, setCategories] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => {
    fetchCategories().then(
      (c) => {
        setCategories(c);
        setError(null);
      },
      () => setError(CATEGORIES_FAILED),
    );
  }, []);
  useEffect(refresh, [userId, refresh]);
  return { categories, error, refresh, dismissError: () => setError(null) };
}

/** The semantic search form: its text, its results (null when not searching by meaning) and state. */
export function useSemanticSearch(userId: string | undefined) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<SemanticResult[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    if (q === '' || searching) return;
    setSearching(true);
    setError(null);
    try {
      setResults(await semanticSearch(q, userId));
    } catch {
      setError(SEARCH_FAILED);
    } finally {
      setSearching(false);
    }
  };
  const clear = () => {
    setResults(null);
    setQuery('');
  };
  return { query, setQuery, results, searching, run, clear, error, dismissError: () => setError(null) };
}

/** Infinite scroll (docs/product.md#states, #limits): within 100 px of the page bottom, the next page loads. */
export function useInfiniteScroll(
  enabled: boolean,
  list: {
    hasMore: boolean;
    loading: boolean;
    loadingMore: boolean;
    loadMore: () => Promise<void>;
    count: number;
  },
) {
  const { hasMore, loading, loadingMore, loadMore, count } = list;
  useEffect(() => {
    if (!enabled) return;
    const check = () => {
      if (!hasMore || loading || loadingMore) return;
      if (nearBottom(window.scrollY, window.innerHeight, document.documentElement.scrollHeight))
        void loadMore();
    };
    check(); // a first page shorter than the window must not wait for a scroll
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, [enabled, hasMore, loading, loadingMore, loadMore, count]);
}
