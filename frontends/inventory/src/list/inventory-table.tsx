// The inventory table (docs/product.md#inventory): Name, Description, Image, Category, Material, Color,
// Dimensions, Origin, Import Cost, Retail Price; a header click sorts ascending, again toggles, an arrow
// marks the column (the server sorts: the list is paged). A checkbox per row builds the selection.
import { Link } from 'react-router-dom';
import { SampleBadge } from '@kaboodle/kit';
import { displayDescription, displayName, formatPrice } from '../inventory-format.ts';
import type { InventoryItem, SortKey, SortState } from '../inventory-types.ts';
import { ItemImage } from './item-image.tsx';

const COLUMNS: { key: SortKey | 'image'; header: string }[] = [
  { key: 'name', header: 'Name' },
  { key: 'description', header: 'Description' },
  { key: 'image', header: 'Image' },
  { key: 'category', header: 'Category' },
  { key: 'material', header: 'Material' },
  { key: 'color', header: 'Color' },
  { key: 'dimensions', header: 'Dimensions' },
  { key: 'origin_source', header: 'Origin' },
  { key: 'import_cost', header: 'Import Cost' },
  { key: 'retail_price', header: 'Retail Price' },
];

export interface InventoryTableProps {
  items: InventoryItem[];
  sort: SortState;
  onSort: (key: SortKey) => void;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: (select: boolean) => void;
}

function cell(item: InventoryItem, key: SortKey | 'image') {
  switch (key) {
    case 'name':
      return (
        <Link className="kb-inv-name" to={`/inventory/${encodeURIComponent(item.id)}`}>
          {displayName(item.name)}
          {item.sample && <SampleBadge />}
        </Link>
      );
    case 'description':
      return <span className="kb-inv-clamp">{displayDescription(item.description)}</span>;
    case 'image':
      return (
        <ItemImage
          item={item}
          width={160}
          alt={displayName(item.name)}
          className="kb-inv-thumb"
          fallback="placeholder"
        />
      );
    case 'import_cost':
    case 'retail_price':
      return <span className="kb-inv-num">{formatPrice(item[key], '')}</span>;
    case 'origin_source':
      return item.origin_source;
    default:
      return item[key];
  }
}

export function InventoryTable({
  items,
  sort,
  onSort,
  selected,
  onToggle,
  onToggleAll,
}: InventoryTableProps) {
  const all = items.length > 0 && items.every((i) => selected.has(i.id));
  return (
    // scrolls sideways on narrow screens: focusable so a keyboard can scroll it too
    <div className="kb-table-wrap kb-inv-table-wrap" tabIndex={0} role="region" aria-label="Inventory table">
      <table className="kb-table kb-inv-table">
        <caption className="kb-visually-hidden">Inventory</caption>
        <thead>
          <tr>
            <th scope="col" className="kb-inv-check">
              <input
                type="checkbox"
                aria-label="Select every item on this page"
                checked={all}
                onChange={(e) => onToggleAll(e.target.checked)}
              />
            </th>
            {COLUMNS.map((c) => {
              if (c.key === 'image')
                return (
                  <th key={c.key} scope="col">
                    {c.header}
                  </th>
                );
              const active = sort?.key === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  <button type="button" onClick={() => onSort(c.key as SortKey)}>
                    {c.header}
                    {active ? (sort.dir === 'asc' ? ' ↑' : ' ↓') : ''}
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} className={selected.has(item.id) ? 'is-selected' : undefined}>
              <td className="kb-inv-check">
                <input
                  type="checkbox"
                  aria-label={`Select ${displayName(item.name)}`}
                  checked={selected.has(item.id)}
                  onChange={() => onToggle(item.id)}
                />
              </td>
              {COLUMNS.map((c) => (
                <td key={c.key} data-label={c.header}>
                  {cell(item, c.key)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
