// The Search screen (/search, "AI-Powered Search"): docs/product.md#search, #states
// (idle/loading/results/empty/error), #validation (trimmed query; blank clears with no request) and #limits
// (300 ms debounce, 5-minute cache). State in use-search.ts; the form and the states are their own views.
import { Navigate, useNavigate } from 'react-router-dom';
import { Button, readStoredUser, type RemoteAppProps } from '@kaboodle/kit';
import type { SearchHit } from '../documents/document-types.ts';
import { SearchForm } from './search-form.tsx';
import { SearchStates } from './search-states.tsx';
import { useSearch } from './use-search.ts';

export function SearchScreen({ user }: RemoteAppProps) {
  const navigate = useNavigate();
  const storedUser = user ?? readStoredUser();
  const search = useSearch(storedUser?.id);

  if (!storedUser) return <Navigate to="/" replace />;

  // decisions.md: a document opens its page in the vault (its original file one click away there),
  // in a new tab so the results stay; an inventory item opens here.
  const open = (hit: SearchHit) => {
    if (hit.type === 'inventory_item') void navigate(`/inventory/${encodeURIComponent(hit.id)}`);
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
      <SearchForm
        text={search.text}
        mode={search.mode}
        busy={search.phase === 'loading'}
        onText={search.changeText}
        onMode={search.changeMode}
        onSubmit={search.submit}
        onPhoto={search.byPhoto}
      />
      <SearchStates
        phase={search.phase}
        mode={search.mode}
        results={search.results}
        ranQuery={search.ranQuery}
        onExample={search.example}
        onRetry={search.retry}
        onOpen={open}
      />
    </section>
  );
}

export default SearchScreen;
