// The items a photo looks like, best first: picture, name, how alike (the cosine similarity as a
// percentage; below 60 % the match says it is weak) and category. A click opens the item page.
import { Link } from 'react-router-dom';
import { imageUrl } from '../inventory-api.ts';
import { displayName, percent } from '../inventory-format.ts';
import type { SearchHit } from '../inventory-types.ts';

export function PhotoResults({ hits, onClear }: { hits: SearchHit[]; onClear: () => void }) {
  return (
    <section className="kb-inv-photo-results" aria-labelledby="kb-inv-photo-heading">
      <header>
        <h2 id="kb-inv-photo-heading">Items that look like your photo</h2>
        <button type="button" className="kb-link-button" onClick={onClear}>
          Clear photo results
        </button>
      </header>
      {hits.length === 0 ? (
        <p className="kb-muted">No item of yours looks like this photo yet.</p>
      ) : (
        <ol>
          {hits.map((hit) => {
            const match = percent(hit.score);
            return (
              <li key={hit.id}>
                <Link to={`/inventory/${encodeURIComponent(hit.id)}`}>
                  {hit.image_url ? (
                    <img src={imageUrl(hit.image_url)} alt="" loading="lazy" />
                  ) : (
                    <span className="kb-inv-placeholder" />
                  )}
                  <span className="kb-inv-photo-results__name">{displayName(hit.name ?? hit.title)}</span>
                  {match !== null && (
                    <span className={`kb-inv-match${match < 60 ? ' is-weak' : ''}`}>
                      {match}% alike{match < 60 ? ' (weak)' : ''}
                    </span>
                  )}
                  {hit.category && <span className="kb-muted">{hit.category}</span>}
                </Link>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
