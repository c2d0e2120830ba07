// The Search screen (/search, "AI-Powered Search"): docs/product.md#search, #states
// (idle/loading/results/empty/error), #validation (trimmed query; blank clears with no request) and #limits
// (300 ms debounce, 5-minute cache).
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { Button, PhotoPicker, readStoredUser, type RemoteAppProps } from '@kaboodle/kit';
import { useDebouncedValue } from '../common/debounce.ts';
import type { SearchHit } from '../documents/document-types.ts';
import { photoSearch, SearchFailed, unifiedSearch, type SearchMode } from './search-api.ts';
import { SearchResults } from './search-results.tsx';

export const EXAMPLE_QUERIES = [
  'red electronics',
  'items in storage room',
  'office supplies',
  'broken or damaged items',
];

type Phase = 'idle' | 'loading' | 'results' | 'empty' | 'error';

export function SearchScreen({ user }: RemoteAppProps) {
  const navigate = useNavigate();
  const storedUser = user ?? readStoredUser();
  const [text, setText] = useState('');
  const [mode, setMode] = useState<SearchMode>('semantic');
  const [phase, setPhase] = useState<Phase>('idle');
  const [results, setResults] = useState<SearchHit[]>([]);
  const [ranQuery, setRanQuery] = useState('');
  const debounced = useDebouncedValue(text);
  const runId = useRef(0);
  const inputId = useId();
  const userId = storedUser?.id;

  const run = useCallback(
    async (raw: string, searchMode: SearchMode) => {
      const query = raw.trim();
      const id = ++runId.current;
      if (query === '') {
        setResults([]);
        setRanQuery('');
        setPhase('idle');
        return;
      }
      setPhase('loading');
      try {
        const hits = await unifiedSearch(query, searchMode, userId ? { userId } : {});
        if (id !== runId.current) return;
        setResults(hits);
        setRanQuery(query);
        setPhase(hits.length > 0 ? 'results' : 'empty');
      } catch (err) {
        if (id !== runId.current) return;
        console.error(err instanceof SearchFailed ? err.message : 'Search failed', err);
        setResults([]);
        setPhase('error');
      }
    },
    [userId],
  );

  // Typing searches after the pause; a mode change searches at once when there is text.
  const lastRun = useRef<{ q: string; mode: SearchMode } | null>(null);
  const runOnce = useCallback(
    (q: string, m: SearchMode, force = false) => {
      if (!force && lastRun.current && lastRun.current.q === q.trim() && lastRun.current.mode === m) return;
      lastRun.current = { q: q.trim(), mode: m };
      void run(q, m);
    },
    [run],
  );
  useEffect(() => runOnce(debounced, mode), [debounced]);
  const changeMode = (m: SearchMode) => {
    setMode(m);
    if (text.trim() !== '') runOnce(text, m);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() === '' || phase === 'loading') return;
    runOnce(text, mode, true);
  };
  // Find by photo: the same results list, ranked by how alike the photos look.
  const byPhoto = async (photo: File) => {
    const id = ++runId.current;
    lastRun.current = null;
    setPhase('loading');
    try {
      const hits = await photoSearch(photo);
      if (id !== runId.current) return;
      setResults(hits);
      setRanQuery('');
      setPhase(hits.length > 0 ? 'results' : 'empty');
    } catch (err) {
      if (id !== runId.current) return;
      console.error('Search failed', err);
      setResults([]);
      setPhase('error');
    }
  };
  const example = (q: string) => {
    setText(q);
    runOnce(q, mode, true);
  };

  if (!storedUser) return <Navigate to="/" replace />;

  // decisions.md: a document opens its page in the vault (its original file one click away there),
  // in a new tab so the results stay; an inventory item opens here.
  const open = (hit: SearchHit) => {
    if (hit.type === 'inventory_item') navigate(`/inventory/${encodeURIComponent(hit.id)}`);
    else window.open(`/documents?open=${encodeURIComponent(hit.id)}`, '_blank', 'noopener');
  };

  return (
    <section className="kb-search" aria-labelledby="kb-search-heading">
      <div className="kb-search__top">
        <Button variant="ghost" size="sm" onClick={() => navigate('/dashboard')}>
          ← Back to Dashboard
        </Button>
      </div>
      <header className="kb-search__header">
        <p className="kb-eyebrow">Ask in your own words</p>
        <h1 id="kb-search-heading">AI-Powered Search</h1>
      </header>

      <form className="kb-search__form kb-frame" onSubmit={submit} role="search">
        <label htmlFor={inputId} className="kb-visually-hidden">
          Search your documents and inventory
        </label>
        <div className="kb-search__row">
          <input
            id={inputId}
            className="kb-input kb-search__input"
            type="search"
            value={text}
            maxLength={1000}
            placeholder="Describe what you're looking for, e.g. “red electronics in the storage room”"
            onChange={(e) => {
              setText(e.target.value);
              // A blank box clears the results at once, with no request (docs/product.md#validation).
              if (e.target.value.trim() === '') runOnce('', mode);
            }}
          />
          <Button type="submit" disabled={text.trim() === '' || phase === 'loading'}>
            Search
          </Button>
        </div>
        <fieldset className="kb-search__modes">
          <legend className="kb-visually-hidden">Search mode</legend>
          <label className={`kb-search__mode${mode === 'semantic' ? ' is-active' : ''}`}>
            <input
              type="radio"
              name="search-mode"
              value="semantic"
              checked={mode === 'semantic'}
              onChange={() => changeMode('semantic')}
            />
            <span>
              <strong>Semantic Search</strong>
              <small>Find items by meaning and context</small>
            </span>
          </label>
          <label className={`kb-search__mode${mode === 'keyword' ? ' is-active' : ''}`}>
            <input
              type="radio"
              name="search-mode"
              value="keyword"
              checked={mode === 'keyword'}
              onChange={() => changeMode('keyword')}
            />
            <span>
              <strong>Keyword Search</strong>
              <small>Find exact word matches</small>
            </span>
          </label>
        </fieldset>
        <PhotoPicker
          onPhoto={(f) => void byPhoto(f)}
          busy={phase === 'loading'}
          hint="or find an item by a photo of it"
        />
      </form>

      <div className="kb-search__body" aria-live="polite">
        {phase === 'idle' && (
          <div className="kb-search__prompt">
            <p>Try one of these:</p>
            <ul className="kb-search__examples">
              {EXAMPLE_QUERIES.map((q) => (
                <li key={q}>
                  <button type="button" className="kb-chip-button" onClick={() => example(q)}>
                    {q}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        {phase === 'loading' && (
          <div className="kb-search__loading" role="status">
            <span className="kb-spinner" aria-hidden="true" />
            Searching your inventory...
          </div>
        )}
        {phase === 'error' && (
          <div className="kb-search__error kb-frame" role="alert">
            <h2>Search Error</h2>
            <p>Failed to search inventory. Please try again.</p>
            <Button variant="secondary" onClick={() => runOnce(text, mode, true)}>
              Try Again
            </Button>
          </div>
        )}
        {phase === 'empty' && (
          <div className="kb-search__empty kb-frame">
            <h2>No results found</h2>
            <p>Nothing matched “{ranQuery}”. Some tips:</p>
            <ul>
              <li>Check the spelling, or use fewer or more general words.</li>
              <li>
                Switch to{' '}
                {mode === 'semantic'
                  ? 'Keyword Search for exact words'
                  : 'Semantic Search to search by meaning'}
                .
              </li>
              <li>Describe what the item is for or looks like, e.g. “something to carry groceries”.</li>
              <li>Upload more documents and photos in the Processing Hub.</li>
            </ul>
          </div>
        )}
        {phase === 'results' && <SearchResults results={results} query={ranQuery} onOpen={open} />}
      </div>
    </section>
  );
}

export default SearchScreen;
