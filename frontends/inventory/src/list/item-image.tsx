// An item's picture at a given width, with the failure rule (docs/product.md#states): a failed image is
// retried once, then a placeholder (the table) or "Image not available" (the gallery) stands in.
import { useState } from 'react';
import { imageUrl } from '../inventory-api.ts';
import type { InventoryItem } from '../inventory-types.ts';

/** The thumbnail URL at another of the widths the server renders (160, 320, 640, 1280). */
export function thumbnailAt(
  item: Pick<InventoryItem, 'thumbnail_url'>,
  width: 160 | 320 | 640 | 1280,
): string | null {
  if (!item.thumbnail_url) return null;
  return imageUrl(item.thumbnail_url.replace(/([?&])w=\d+/, `$1w=${width}`));
}

export interface ItemImageProps {
  item: Pick<InventoryItem, 'thumbnail_url' | 'name'>;
  width: 160 | 320 | 640 | 1280;
  alt: string;
  className?: string;
  /** What shows instead of a picture that cannot load. */
  fallback: 'placeholder' | 'text';
  onLoad?: () => void;
}

export function ItemImage({ item, width, alt, className, fallback, onLoad }: ItemImageProps) {
  const [attempt, setAttempt] = useState(0);
  const src = thumbnailAt(item, width);
  if (!src || attempt > 1) {
    return fallback === 'text' ? (
      <div
        className={`kb-inv-noimage ${className ?? ''}`}
        role="img"
        aria-label={`${alt}: Image not available`}
      >
        Image not available
      </div>
    ) : (
      <div className={`kb-inv-placeholder ${className ?? ''}`} role="img" aria-label={`${alt}: no picture`}>
        <span aria-hidden="true">▦</span>
      </div>
    );
  }
  return (
    <img
      key={attempt}
      className={className}
      src={attempt === 0 ? src : `${src}&retry=1`}
      alt={alt}
      loading="lazy"
      decoding="async"
      onLoad={onLoad}
      onError={() => setAttempt((a) => a + 1)}
    />
  );
}
