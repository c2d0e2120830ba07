// The Product Images (docs/product.md#inventory): a masonry grid (4 columns, 3 up to 1400 px, 2 up to 1000, 1
// up to 700, in CSS), name and price on hover, a click opens the item's modal; "No images available." when
// nothing has a picture. Pictures load in batches (preload.ts); more items load on scroll.
import { useEffect, useMemo, useRef, useState } from 'react';
import { SampleBadge } from '@kaboodle/kit';
import { displayName, formatPrice } from '../inventory-format.ts';
import type { InventoryItem } from '../inventory-types.ts';
import { ItemImage } from './item-image.tsx';
import { preloadCount } from './preload.ts';

export interface ProductGalleryProps {
  items: InventoryItem[];
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
  onOpen: (item: InventoryItem) => void;
}

export function ProductGallery({ items, hasMore, loading, onMore, onOpen }: ProductGalleryProps) {
  const withImages = useMemo(() => items.filter((i) => i.thumbnail_url), [items]);
  const [seen, setSeen] = useState(-1);
  const [loaded, setLoaded] = useState(0);
  const grid = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const ready = preloadCount(loaded, withImages.length, seen);

  useEffect(() => {
    if (ready !== loaded) setLoaded(ready);
  }, [ready, loaded]);

  // which cards the person has reached
  useEffect(() => {
    const root = grid.current;
    if (!root || typeof IntersectionObserver === 'undefined') {
      setSeen(withImages.length - 1);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      let furthest = -1;
      for (const e of entries)
        if (e.isIntersecting) furthest = Math.max(furthest, Number((e.target as HTMLElement).dataset.index));
      if (furthest >= 0) setSeen((s) => Math.max(s, furthest));
    });
    root.querySelectorAll('[data-index]').forEach((el) => observer.observe(el));
    return () => observer.disconnect();
  }, [withImages.length]);

  // the next page when the end comes into view
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) onMore();
      },
      { rootMargin: '100px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, onMore, items.length]);

  if (!loading && withImages.length === 0) {
    return <p className="kb-inv-empty">No images available.</p>;
  }
  return (
    <>
      <div className="kb-inv-masonry" ref={grid}>
        {withImages.map((item, i) => (
          <button
            key={item.id}
            type="button"
            className="kb-inv-card"
            data-index={i}
            onClick={() => onOpen(item)}
            aria-label={`${displayName(item.name)}${item.sample ? ' (sample)' : ''}, ${formatPrice(item.retail_price)}`}
          >
            {i < loaded ? (
              <ItemImage item={item} width={320} alt={displayName(item.name)} fallback="text" />
            ) : (
              <div className="kb-inv-card__waiting" aria-hidden="true" />
            )}
            <span className="kb-inv-card__hover" aria-hidden="true">
              <strong>{displayName(item.name)}</strong>
              <span>{formatPrice(item.retail_price)}</span>
            </span>
            {item.sample && <SampleBadge className="kb-inv-card__sample" />}
          </button>
        ))}
      </div>
      <div ref={sentinel} className="kb-inv-sentinel">
        {loading && <span className="kb-muted">Loading more items...</span>}
      </div>
    </>
  );
}
