// The inventory's filters and actions: the search box (name, description, material, origin), the
// category dropdown, find by photo, CSV import, and exports of the filtered set.
import { useId } from 'react';
import { Button, PhotoPicker } from '@kaboodle/kit';
import { CategorySelect } from './category-select.tsx';

export interface InventoryToolbarProps {
  text: string;
  onText: (text: string) => void;
  category: string;
  onCategory: (category: string) => void;
  onPhoto: (photo: File) => void;
  photoBusy: boolean;
  onImport: () => void;
  exportHref: (format: 'csv' | 'json') => string;
}

export function InventoryToolbar(p: InventoryToolbarProps) {
  const searchId = useId();
  return (
    <div className="kb-inv-toolbar">
      <div className="kb-inv-toolbar__filters">
        <label htmlFor={searchId} className="kb-visually-hidden">
          Search inventory
        </label>
        <input
          id={searchId}
          className="kb-inv-search"
          type="search"
          placeholder="Search name, description, material, origin..."
          value={p.text}
          onChange={(e) => p.onText(e.target.value)}
        />
        <CategorySelect value={p.category} onChange={p.onCategory} />
        <PhotoPicker onPhoto={p.onPhoto} busy={p.photoBusy} hint="or drop a photo of an item here" />
      </div>
      <div className="kb-inv-toolbar__actions">
        <Button variant="secondary" size="sm" onClick={p.onImport}>
          Import CSV
        </Button>
        <a className="kb-button kb-button--ghost kb-button--sm" href={p.exportHref('csv')} download>
          Export CSV
        </a>
        <a className="kb-button kb-button--ghost kb-button--sm" href={p.exportHref('json')} download>
          Export JSON
        </a>
      </div>
    </div>
  );
}
