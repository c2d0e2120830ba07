// Related items two ways: by meaning (the text index's neighbours, documents included) and by look
// (the photo index's neighbours). Each list loads on its own; a failure only empties that list.
import { useEffect, useEffectEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { imageNeighbours, imageUrl, relatedByText } from '../inventory-api.ts';
import { displayName, percent } from '../inventory-format.ts';
import type { SearchHit } from '../inventory-types.ts';

/** Loads once per `key`; `load` is read when the key changes. */
function useHits(load: () => Promise<SearchHit[]>, key: string) {
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const loadLatest = useEffectEvent(load);
  useEffect(() => {
    let live = true;
    setHits(null);
    loadLatest().then(
      (h) => live && setHits(h),
      (err: unknown) => {
        console.warn('Loading related items failed', err);
        if (live) setHits([]);
      },
    );
    return () => {
      live = false;
    };
  }, [key]);
  return hits;
}

function HitList({ hits, empty }: { hits: SearchHit[] | null; empty: string }) {
  if (hits === null) return <p className="kb-muted">Looking...</p>;
  if (hits.length === 0) return <p className="kb-muted">{empty}</p>;
  return (
    <ul className="kb-inv-related">
      {hits.map((h) => (
        <li key={`${h.type}-${h.id}`}>
          {h.type === 'inventory_item' ? (
            <Link to={`/inventory/${encodeURIComponent(h.id)}`}>
              {h.image_url ? (
                <img src={imageUrl(h.image_url)} alt="" loading="lazy" />
              ) : (
                <span className="kb-inv-placeholder" />
              )}
              <span>{displayName(h.name ?? h.title)}</span>
            </Link>
          ) : (
            <a href={`/documents?open=${encodeURIComponent(h.id)}`} target="_blank" rel="noopener">
              <span className="kb-inv-placeholder" aria-hidden="true">
                📄
              </span>
              <span>{h.title || 'Untitled'}</span>
            </a>
          )}
          {percent(h.score) !== null && <span className="kb-muted">{percent(h.score)}%</span>}
        </li>
      ))}
    </ul>
  );
}

export function RelatedItems({ id, hasPhoto }: { id: string; hasPhoto: boolean }) {
  const byText = useHits(() => relatedByText(id), `text:${id}`);
  const byLook = useHits(
    () => (hasPhoto ? imageNeighbours(id) : Promise.resolve([])),
    `look:${id}:${hasPhoto}`,
  );
  return (
    <div className="kb-inv-related-grid">
      <section aria-labelledby="kb-rel-text">
        <h3 id="kb-rel-text">Related by description</h3>
        <HitList hits={byText} empty="Nothing related yet." />
      </section>
      <section aria-labelledby="kb-rel-look">
        <h3 id="kb-rel-look">Looks like</h3>
        <HitList
          hits={byLook}
          empty={hasPhoto ? 'No other item looks like this one yet.' : 'This item has no photo.'}
        />
      </section>
    </div>
  );
}
