// The vault's controls: the keyword and category filters, and the search by meaning with its
// "Semantic Search" and "Clear Results" buttons.
import { useId } from 'react';
import { Button } from '@kaboodle/kit';
import type { useSemanticSearch } from './use-vault-state.ts';

export interface VaultControlsProps {
  keyword: string;
  onKeyword: (keyword: string) => void;
  category: string;
  onCategory: (category: string) => void;
  categories: readonly string[];
  semantic: ReturnType<typeof useSemanticSearch>;
}

export function VaultControls({
  keyword,
  onKeyword,
  category,
  onCategory,
  categories,
  semantic,
}: VaultControlsProps) {
  const ids = { keyword: useId(), category: useId(), semantic: useId() };
  const semanticMode = semantic.results !== null;
  return (
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
            onChange={(e) => onKeyword(e.target.value)}
          />
        </div>
        <div className="kb-field">
          <label htmlFor={ids.category}>Filter by Category</label>
          <select
            id={ids.category}
            value={category}
            disabled={semanticMode}
            onChange={(e) => onCategory(e.target.value)}
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
      <form className="kb-vault__semantic" onSubmit={semantic.run} role="search" aria-label="Semantic search">
        <div className="kb-field">
          <label htmlFor={ids.semantic}>Search by meaning</label>
          <input
            id={ids.semantic}
            type="search"
            placeholder="Enter semantic search query..."
            value={semantic.query}
            maxLength={1000}
            onChange={(e) => semantic.setQuery(e.target.value)}
          />
        </div>
        <div className="kb-vault__semantic-actions">
          <Button type="submit" disabled={semantic.searching || semantic.query.trim() === ''}>
            {semantic.searching ? 'Searching...' : 'Semantic Search'}
          </Button>
          {semanticMode && (
            <Button variant="ghost" onClick={semantic.clear}>
              Clear Results
            </Button>
          )}
        </div>
      </form>
    </div>
  );
}
