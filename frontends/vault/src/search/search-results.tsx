// The search results (docs/product.md#search): image, type, match, category and highlighted title and
// description; weak matches say so (docs/product.md#search: calibrated percentages). A click opens the
// result. Each result can also be selected for "Add to kaboodle".
import { AddToKaboodle, api, useSelection } from '@kaboodle/kit';
import type { SearchHit } from '../documents/document-types.ts';
import { Highlighted } from './highlighted.tsx';
import { hitDescription, hitTitle, matchPercent, typeLabel } from './search-api.ts';

export interface SearchResultsProps {
  results: SearchHit[];
  query: string;
  onOpen: (hit: SearchHit) => void;
}

export function SearchResults({ results, query, onOpen }: SearchResultsProps) {
  const selection = useSelection();
  return (
    <>
      <p className="kb-search__count">Found {results.length} result(s)</p>
      {results[0]?.match === 'weak' && (
        <div className="kb-search__weak kb-frame" role="status">
          <h2>No good match</h2>
          <p>Nothing matched “{query}” well. The closest results are below.</p>
        </div>
      )}
      <ul className="kb-search__results">
        {results.map((hit) => {
          const pct = matchPercent(hit.score);
          const title = hitTitle(hit);
          const ref = { type: hit.type, id: hit.id };
          return (
            <li key={`${hit.type}:${hit.id}`} className="kb-frame kb-search__item">
              <button type="button" className="kb-search__result" onClick={() => onOpen(hit)}>
                {hit.image_url && (
                  <img className="kb-search__image" src={api.url(hit.image_url)} alt="" loading="lazy" />
                )}
                <span className="kb-search__result-body">
                  <span className="kb-search__result-head">
                    <span className={`kb-search__type kb-search__type--${hit.type}`}>{typeLabel(hit)}</span>
                    {pct !== null && (
                      <span
                        className={`kb-search__score${hit.match === 'weak' ? ' kb-search__score--weak' : ''}`}
                      >
                        {pct}% match{hit.match === 'weak' ? ' (weak)' : ''}
                      </span>
                    )}
                    {hit.category && <span className="kb-search__category">{hit.category}</span>}
                  </span>
                  <span className="kb-search__title">
                    <Highlighted text={title} query={query} />
                  </span>
                  <span className="kb-search__description">
                    <Highlighted text={hitDescription(hit)} query={query} />
                  </span>
                </span>
              </button>
              <label className="kb-search__select">
                <input
                  type="checkbox"
                  className="kb-select-box"
                  checked={selection.has(ref)}
                  onChange={() => selection.toggle(ref)}
                />
                <span className="kb-visually-hidden">Select {title}</span>
              </label>
            </li>
          );
        })}
      </ul>
      <AddToKaboodle selection={selection.refs} onClear={selection.clear} noun="selected" />
    </>
  );
}
