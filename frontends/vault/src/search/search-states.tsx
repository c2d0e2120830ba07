// What the Search screen shows under the form, by phase (docs/product.md#states): example queries
// when idle, a spinner, the error with "Try Again", tips when nothing matched, or the results.
import { Button } from '@kaboodle/kit';
import type { SearchHit } from '../documents/document-types.ts';
import type { SearchMode } from './search-api.ts';
import { SearchResults } from './search-results.tsx';
import type { Phase } from './use-search.ts';

export const EXAMPLE_QUERIES = [
  'red electronics',
  'items in storage room',
  'office supplies',
  'broken or damaged items',
];

function NoResults({ query, mode }: { query: string; mode: SearchMode }) {
  return (
    <div className="kb-search__empty kb-frame">
      <h2>No results found</h2>
      <p>Nothing matched “{query}”. Some tips:</p>
      <ul>
        <li>Check the spelling, or use fewer or more general words.</li>
        <li>
          Switch to{' '}
          {mode === 'semantic' ? 'Keyword Search for exact words' : 'Semantic Search to search by meaning'}.
        </li>
        <li>Describe what the item is for or looks like, e.g. “something to carry groceries”.</li>
        <li>Upload more documents and photos in the Processing Hub.</li>
      </ul>
    </div>
  );
}

export interface SearchStatesProps {
  phase: Phase;
  mode: SearchMode;
  results: SearchHit[];
  ranQuery: string;
  onExample: (query: string) => void;
  onRetry: () => void;
  onOpen: (hit: SearchHit) => void;
}

export function SearchStates({
  phase,
  mode,
  results,
  ranQuery,
  onExample,
  onRetry,
  onOpen,
}: SearchStatesProps) {
  return (
    <div className="kb-search__body" aria-live="polite">
      {phase === 'idle' && (
        <div className="kb-search__prompt">
          <p>Try one of these:</p>
          <ul className="kb-search__examples">
            {EXAMPLE_QUERIES.map((q) => (
              <li key={q}>
                <button type="button" className="kb-chip-button" onClick={() => onExample(q)}>
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
          <Button variant="secondary" onClick={onRetry}>
            Try Again
          </Button>
        </div>
      )}
      {phase === 'empty' && <NoResults query={ranQuery} mode={mode} />}
      {phase === 'results' && <SearchResults results={results} query={ranQuery} onOpen={onOpen} />}
    </div>
  );
}
