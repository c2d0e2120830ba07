// The item's photo with what the detector recognised outlined and labelled with its score. Boxes are
// in the photo's own pixels (image_width × image_height), so an SVG with that viewBox over the
// picture lines them up at any displayed size.
import { useState } from 'react';
import { displayName, percent } from '../inventory-format.ts';
import type { InventoryDetail } from '../inventory-types.ts';
import { ItemImage } from '../list/item-image.tsx';

export function ItemPhoto({ item }: { item: InventoryDetail }) {
  const [shown, setShown] = useState(true);
  const boxes = item.objects.filter((o) => o.box);
  const w = item.image_width;
  const h = item.image_height;
  if (!item.thumbnail_url) {
    return (
      <div className="kb-inv-photo kb-inv-photo--none">
        No photo: this item was imported from a spreadsheet.
      </div>
    );
  }
  const stroke = Math.max(2, Math.round(Math.max(w, h) / 250));
  return (
    <figure className="kb-inv-photo">
      <div className="kb-inv-photo__frame">
        <ItemImage item={item} width={1280} alt={displayName(item.name)} fallback="text" />
        {shown && w > 0 && h > 0 && boxes.length > 0 && (
          <svg
            className="kb-inv-photo__boxes"
            viewBox={`0 0 ${w} ${h}`}
            preserveAspectRatio="none"
            aria-hidden="true"
          >
            {boxes.map((o, i) => (
              <g key={`${o.label}-${i}`}>
                <rect
                  x={o.box!.x}
                  y={o.box!.y}
                  width={o.box!.width}
                  height={o.box!.height}
                  strokeWidth={stroke}
                />
                <text x={o.box!.x + stroke * 2} y={o.box!.y + stroke * 9} fontSize={stroke * 7}>
                  {o.label} {percent(o.score)}%
                </text>
              </g>
            ))}
          </svg>
        )}
      </div>
      <figcaption>
        {item.objects.length === 0 ? (
          'No objects recognised in this photo.'
        ) : (
          <>
            Recognised: {item.objects.map((o) => `${o.label} (${percent(o.score)}%)`).join(', ')}
            {boxes.length > 0 && (
              <button type="button" className="kb-link-button" onClick={() => setShown((s) => !s)}>
                {shown ? 'Hide outlines' : 'Show outlines'}
              </button>
            )}
          </>
        )}
      </figcaption>
    </figure>
  );
}
