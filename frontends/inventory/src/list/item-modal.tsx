// The gallery modal (docs/product.md#inventory): the large picture, the description and the details grid
// (Material, Color, Dimensions, Origin, Import Cost, Retail Price; missing values "N/A"). The close mark, a
// backdrop click or Escape close it (kit Dialog); the item page is one link away.
import { Link } from 'react-router-dom';
import { Dialog } from '@kaboodle/kit';
import { displayDescription, displayName, formatPrice, orNA } from '../inventory-format.ts';
import type { InventoryItem } from '../inventory-types.ts';
import { ItemImage } from './item-image.tsx';

export function ItemModal({ item, onClose }: { item: InventoryItem | null; onClose: () => void }) {
  if (!item) return null;
  const details: [string, string][] = [
    ['Material', orNA(item.material)],
    ['Color', orNA(item.color)],
    ['Dimensions', orNA(item.dimensions)],
    ['Origin', orNA(item.origin_source)],
    ['Import Cost', formatPrice(item.import_cost)],
    ['Retail Price', formatPrice(item.retail_price)],
  ];
  return (
    <Dialog open onClose={onClose} title={displayName(item.name)} maxWidth={880} className="kb-inv-modal">
      <div className="kb-inv-modal__body">
        <ItemImage
          item={item}
          width={1280}
          alt={displayName(item.name)}
          className="kb-inv-modal__image"
          fallback="text"
        />
        <div>
          <p>{displayDescription(item.description)}</p>
          <dl className="kb-inv-details">
            {details.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <Link className="kb-button kb-button--secondary" to={`/inventory/${encodeURIComponent(item.id)}`}>
            Open item page
          </Link>
        </div>
      </div>
    </Dialog>
  );
}
