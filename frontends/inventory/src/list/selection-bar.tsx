// What a selection can do: add to a kaboodle, delete (after a confirmation), move to a category,
// export as CSV or JSON.
import { useState } from 'react';
import { AddToKaboodleButton, Button, Dialog, type AddedToKaboodle } from '@kaboodle/kit';
import { INVENTORY_CATEGORIES } from '../inventory-types.ts';

export interface SelectionBarProps {
  /** The selected items' ids, in the order they were picked. */
  ids: string[];
  busy: boolean;
  onAddedToKaboodle: (result: AddedToKaboodle) => void;
  onDelete: () => void;
  onCategorise: (category: string) => void;
  exportHref: (format: 'csv' | 'json') => string;
  onClear: () => void;
}

export function SelectionBar({
  ids,
  busy,
  onAddedToKaboodle,
  onDelete,
  onCategorise,
  exportHref,
  onClear,
}: SelectionBarProps) {
  const [confirm, setConfirm] = useState(false);
  const [category, setCategory] = useState('');
  const count = ids.length;
  if (count === 0) return null;
  return (
    <div className="kb-inv-selection" role="region" aria-label="Selected items">
      <strong>
        {count} item{count === 1 ? '' : 's'} selected
      </strong>
      <AddToKaboodleButton
        selection={ids.map((id) => ({ type: 'inventory_item' as const, id }))}
        onAdded={onAddedToKaboodle}
      />
      <label className="kb-inv-inline">
        <span>Move to</span>
        <select
          value={category}
          onChange={(e) => setCategory(e.target.value)}
          aria-label="Category for the selected items"
        >
          <option value="">Choose a category</option>
          {[...INVENTORY_CATEGORIES, 'Other'].map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <Button
        size="sm"
        variant="secondary"
        disabled={!category || busy}
        onClick={() => onCategorise(category)}
      >
        Apply
      </Button>
      <a className="kb-button kb-button--ghost kb-button--sm" href={exportHref('csv')} download>
        Export CSV
      </a>
      <a className="kb-button kb-button--ghost kb-button--sm" href={exportHref('json')} download>
        Export JSON
      </a>
      <Button size="sm" variant="danger" disabled={busy} onClick={() => setConfirm(true)}>
        Delete
      </Button>
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      <Dialog
        open={confirm}
        onClose={() => setConfirm(false)}
        title="Delete the selected items?"
        maxWidth={460}
      >
        <p>
          {count} item{count === 1 ? '' : 's'} will be removed from your inventory and search. Their photos
          stay in the Media Hub.
        </p>
        <div className="kb-inv-actions">
          <Button variant="ghost" onClick={() => setConfirm(false)}>
            Keep them
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setConfirm(false);
              onDelete();
            }}
          >
            Delete {count} item{count === 1 ? '' : 's'}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
