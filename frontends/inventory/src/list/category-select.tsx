// The category dropdown (docs/product.md#inventory): "All Categories" plus Beads, Stools, Bowls, Fans,
// Totebags, Home Decor; it closes 200 ms after losing focus (docs/product.md#limits), so a click on an option
// still lands.
import { useEffect, useId, useRef, useState } from 'react';
import { INVENTORY_CATEGORIES } from '../inventory-types.ts';

export const CLOSE_DELAY_MS = 200;

export interface CategorySelectProps {
  value: string;
  onChange: (category: string) => void;
  label?: string;
}

export function CategorySelect({ value, onChange, label = 'Filter by Category' }: CategorySelectProps) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const listId = useId();
  useEffect(() => () => clearTimeout(timer.current), []);
  const options = ['', ...INVENTORY_CATEGORIES];
  const choose = (c: string) => {
    onChange(c);
    setOpen(false);
  };
  return (
    <div
      className="kb-inv-dropdown"
      onBlur={() => {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setOpen(false), CLOSE_DELAY_MS);
      }}
      onFocus={() => clearTimeout(timer.current)}
    >
      <button
        type="button"
        className="kb-inv-dropdown__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={`${label}: ${value || 'All Categories'}`}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
        }}
      >
        {value || 'All Categories'} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="kb-inv-dropdown__list" role="menu" id={listId} aria-label={label}>
          {options.map((c) => (
            <button
              key={c || 'all'}
              type="button"
              role="menuitemradio"
              aria-checked={c === value}
              onClick={() => choose(c)}
            >
              {c || 'All Categories'}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
