// The Document Vault (/documents): docs/product.md#document-vault, #states, #validation, #messages, #limits —
// keyword and category filters, semantic search, four views (Table, Grid, Graph, Browser), infinite scroll,
// export.
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AddToKaboodle, Button, useSelection, type RemoteAppProps } from '@kaboodle/kit';
import { useDebouncedValue } from '../common/debounce.ts';
import { distinctCategories, nearBottom, nextSort, sortDocuments } from './document-list.ts';
import {
  VAULT_VIEWS,
  type SemanticResult,
  type SortKey,
  type SortState,
  type VaultDocument,
  type VaultView,
} from './document-types.ts';
import { exportUrl, fetchCategories, openDownload, semanticSearch, type ListQuery } from './documents-api.ts';
import { SemanticResults } from './semantic-results.tsx';
import { useDocumentList, useLibraryTotal } from './use-document-list.ts';
import { VaultTrends } from './vault-trends.tsx';
import { BrowserView } from './views/browser-view.tsx';
import { GridView } from './views/grid-view.tsx';
import { TableView } from './views/table-view.tsx';

const GraphView = lazy(() => import('./views/graph-view.tsx'));

const VIEW_KEY = 'kaboodle:vault:view';

function storedView(): VaultView {
  try {
    const v = localStorage.getItem(VIEW_KEY);
    return VAULT_VIEWS.some((x) => x.id === v) ? (v as VaultView) : 'table';
  } catch {
    return 'table';
  }
}

export function DocumentVault({ user }: RemoteAppProps) {
  const [params, setParams] = useSearchParams();
  const openId = params.get('open');
  const [view, setViewState] = useState<VaultView>(() => (openId ? 'browser' : storedView()));
  const [keyword, setKeyword] = useState('');
  const [category, setCategory] = useState('');
  const [sort, setSort] = useState<SortState>(null);
  const [semanticQuery, setSemanticQuery] = useState('');
  const [semantic, setSemantic] = useState<SemanticResult[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [serverCategories, setServerCategories] = useState<string[]>([]);
  const debouncedKeyword = useDebouncedValue(keyword);
  const ids = { keyword: useId(), category: useId(), semantic: useId() };
  const userId = user?.id;

  const query: ListQuery = useMemo(
    () => ({ keyword: debouncedKeyword.trim(), category, sort }),
    [debouncedKeyword, category, sort],
  );
  const list = useDocumentList(query, userId);
  const docs = useMemo(() => sortDocuments(list.items, sort), [list.items, sort]);
  const categories = useMemo(
    () => distinctCategories(serverCategories, list.items),
    [serverCategories, list.items],
  );
  const semanticMode = semantic !== null;
  const selection = useSelection();
  const filtered = query.keyword !== '' || query.category !== '';
  const libraryTotal = useLibraryTotal(filtered, list.total);

  useEffect(() => {
    void fetchCategories().then(setServerCategories);
  }, [userId]);

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

  // Infinite scroll (docs/product.md#states, #limits): within 100 px of the page bottom, the next page loads.
  const { hasMore, loading, loadingMore, loadMore } = list;
  const scrollable = !semanticMode && view !== 'graph';
  useEffect(() => {
    if (!scrollable) return;
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
  }, [scrollable, hasMore, loading, loadingMore, loadMore, list.items.length]);

  const runSemantic = async (e: FormEvent) => {
    e.preventDefault();
    const q = semanticQuery.trim();
    if (q === '' || searching) return;
    setSearching(true);
    try {
      setSemantic(await semanticSearch(q, userId));
    } catch (err) {
      // docs/product.md#messages: "Search failed", only logged.
      console.error('Search failed', err);
    } finally {
      setSearching(false);
    }
  };
  const clearSemantic = () => {
    setSemantic(null);
    setSemanticQuery('');
  };

  const download = (doc: { id: string; url?: string | undefined }) => openDownload(doc.id, doc.url);
  const onSaved = (doc: VaultDocument) => {
    list.replace(doc);
    void fetchCategories().then(setServerCategories);
  };
  const onSort = (key: SortKey) => setSort((s) => nextSort(s, key));
  // A deep link (?open=<id>) still opens the reader, which explains a missing document itself.
  const noDocuments =
    list.settled && list.items.length === 0 && !semanticMode && !(openId && view === 'browser');
  const filterWords = [
    query.keyword ? `“${query.keyword}”` : '',
    query.category ? `in the category “${query.category}”` : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <section className="kb-vault" aria-labelledby="kb-vault-heading">
      <header className="kb-vault__header">
        <div>
          <p className="kb-eyebrow">Your library</p>
          <h1 id="kb-vault-heading">Document Vault</h1>
        </div>
        <div className="kb-vault__header-actions">
          <div className="kb-views" role="radiogroup" aria-label="View">
            {VAULT_VIEWS.map((v) => (
              <button
                key={v.id}
                type="button"
                role="radio"
                aria-checked={view === v.id}
                className={`kb-views__option${view === v.id ? ' is-active' : ''}`}
                onClick={() => setView(v.id)}
              >
                {v.label}
              </button>
            ))}
          </div>
          <div className="kb-vault__export" role="group" aria-label="Export">
            <a className="kb-button kb-button--ghost kb-button--sm" href={exportUrl('csv', query)} download>
              Export CSV
            </a>
            <a className="kb-button kb-button--ghost kb-button--sm" href={exportUrl('json', query)} download>
              Export JSON
            </a>
          </div>
        </div>
      </header>

      <div className="kb-vault__controls kb-frame">
        <div className="kb-vault__filters">
          <div className="kb-field">
            <label htmlFor={ids.keyword}>Search documents</label>
            <input
              id={ids.keyword}
              type="search"
              placeholder="Search documents..."
              value={keyword}
              maxLength={500}
              disabled={semanticMode}
              onChange={(e) => setKeyword(e.target.value)}
            />
          </div>
          <div className="kb-field">
            <label htmlFor={ids.category}>Filter by Category</label>
            <select
              id={ids.category}
              value={category}
              disabled={semanticMode}
              onChange={(e) => setCategory(e.target.value)}
            >
              <option value="">All Categories</option>
              {categories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        </div>
        <form
          className="kb-vault__semantic"
          onSubmit={runSemantic}
          role="search"
          aria-label="Semantic search"
        >
          <div className="kb-field">
            <label htmlFor={ids.semantic}>Search by meaning</label>
            <input
              id={ids.semantic}
              type="search"
              placeholder="Enter semantic search query..."
              value={semanticQuery}
              maxLength={1000}
              onChange={(e) => setSemanticQuery(e.target.value)}
            />
          </div>
          <div className="kb-vault__semantic-actions">
            <Button type="submit" disabled={searching || semanticQuery.trim() === ''}>
              {searching ? 'Searching...' : 'Semantic Search'}
            </Button>
            {semanticMode && (
              <Button variant="ghost" onClick={clearSemantic}>
                Clear Results
              </Button>
            )}
          </div>
        </form>
      </div>

      <VaultTrends />

      {semanticMode ? (
        <SemanticResults
          results={semantic}
          onDownload={download}
          onOpen={(r) => {
            clearSemantic();
            openInBrowser(r.id);
          }}
        />
      ) : noDocuments ? (
        <div className="kb-vault__empty kb-frame" role="status">
          {filtered && libraryTotal !== 0 ? (
            <p>No documents match {filterWords}.</p>
          ) : (
            <p>No documents available.</p>
          )}
        </div>
      ) : (
        <div className="kb-vault__view" aria-busy={list.loading}>
          {view === 'table' && (
            <TableView
              docs={docs}
              sort={sort}
              onSort={onSort}
              onDownload={download}
              onOpen={(d) => openInBrowser(d.id)}
              selection={selection}
            />
          )}
          {view === 'grid' && (
            <GridView
              docs={docs}
              onOpen={(d) => openInBrowser(d.id)}
              onDownload={download}
              selection={selection}
            />
          )}
          {view === 'graph' && (
            <Suspense fallback={<p className="kb-muted">Loading the graph...</p>}>
              <GraphView docs={docs} onOpen={(d) => openInBrowser(d.id)} />
            </Suspense>
          )}
          {view === 'browser' && (
            <BrowserView
              docs={docs}
              selectedId={openId}
              onSelect={openInBrowser}
              onDownload={download}
              onSaved={onSaved}
            />
          )}
        </div>
      )}

      <AddToKaboodle selection={selection.refs} onClear={selection.clear} noun="selected" />

      {!semanticMode && (
        <footer className="kb-vault__footer">
          {list.loadingMore && (
            <p className="kb-vault__more" role="status">
              Loading more documents...
            </p>
          )}
          {view === 'graph' && list.hasMore && (
            <Button variant="ghost" size="sm" onClick={() => void loadMore()} disabled={loadingMore}>
              Add the next 20 documents to the graph
            </Button>
          )}
          {list.settled && filtered && list.items.length > 0 && (
            <p className="kb-vault__matches" role="status">
              {list.total ?? list.items.length} of {libraryTotal ?? '…'} documents match {filterWords}
            </p>
          )}
          {list.settled ? (
            <p className="kb-vault__total">
              Total Documents: {libraryTotal ?? (filtered ? '…' : list.items.length)}
            </p>
          ) : (
            <p className="kb-vault__more" role="status">
              Loading documents...
            </p>
          )}
        </footer>
      )}
    </section>
  );
}

export default DocumentVault;
