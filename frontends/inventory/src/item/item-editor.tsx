// Every AI-generated field of an item, editable. Only the changed fields are sent; the server keeps
// them as corrections (a reprocess does not overwrite them) and re-indexes the item at once.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Banner, Button, isApiError } from '@kaboodle/kit';
import { updateItem } from '../inventory-api.ts';
import { INVENTORY_CATEGORIES, type InventoryDetail, type InventoryPatch } from '../inventory-types.ts';

type Draft = Record<
  | 'name'
  | 'description'
  | 'category'
  | 'material'
  | 'color'
  | 'dimensions'
  | 'origin_source'
  | 'import_cost'
  | 'retail_price'
  | 'currency'
  | 'hashtags',
  string
>;

const LABELS: [keyof Draft, string][] = [
  ['name', 'Name'],
  ['category', 'Category'],
  ['material', 'Material'],
  ['color', 'Color'],
  ['dimensions', 'Dimensions'],
  ['origin_source', 'Origin'],
  ['import_cost', 'Import Cost'],
  ['retail_price', 'Retail Price'],
  ['currency', 'Currency'],
  ['hashtags', 'Tags (comma-separated)'],
  ['description', 'Description'],
];

export function draftOf(item: InventoryDetail): Draft {
  const money = (v: number | null) => (v === null ? '' : String(v));
  return {
    name: item.name,
    description: item.description,
    category: item.category,
    material: item.material,
    color: item.color,
    dimensions: item.dimensions,
    origin_source: item.origin_source,
    import_cost: money(item.import_cost),
    retail_price: money(item.retail_price),
    currency: item.currency,
    hashtags: item.hashtags.map((h) => h.tag).join(', '),
  };
}

/** The fields that differ from the item, as the PATCH body; a bad amount is reported, not sent. */
export function patchOf(item: InventoryDetail, draft: Draft): { patch: InventoryPatch; problem?: string } {
  const before = draftOf(item);
  const patch: InventoryPatch = {};
  for (const [key] of LABELS) {
    if (draft[key] === before[key]) continue;
    if (key === 'import_cost' || key === 'retail_price') {
      const t = draft[key].trim().replace(/^\$/, '');
      const n = t === '' ? null : Number(t);
      if (n !== null && (!Number.isFinite(n) || n < 0))
        return {
          patch,
          problem: `${key === 'import_cost' ? 'Import Cost' : 'Retail Price'} must be an amount of 0 or more`,
        };
      patch[key] = n;
    } else if (key === 'hashtags') {
      patch.hashtags = draft.hashtags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
    } else {
      patch[key] = draft[key];
    }
  }
  return { patch };
}

export function ItemEditor({
  item,
  onSaved,
}: {
  item: InventoryDetail;
  onSaved: (item: InventoryDetail) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(item));
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const categoriesId = useId();
  useEffect(() => setDraft(draftOf(item)), [item]);
  const { patch, problem } = patchOf(item, draft);
  const dirty = Object.keys(patch).length > 0;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (problem) return setStatus({ tone: 'error', text: problem });
    if (!dirty) return;
    setSaving(true);
    try {
      const saved = await updateItem(item.id, patch);
      onSaved(saved);
      setStatus({
        tone: 'success',
        text: 'Saved. Your corrections are kept when the photo is processed again.',
      });
    } catch (err) {
      setStatus({ tone: 'error', text: isApiError(err) ? (err.serverMessage ?? err.message) : String(err) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="kb-inv-editor" onSubmit={(e) => void save(e)} aria-label="Edit item">
      {LABELS.map(([key, label]) => (
        <label key={key} className={`kb-field${key === 'description' ? ' kb-inv-editor__wide' : ''}`}>
          <span>
            {label}
            {item.corrected_fields.includes(key) && <em className="kb-inv-corrected"> corrected</em>}
          </span>
          {key === 'description' ? (
            <textarea
              rows={4}
              value={draft[key]}
              onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
            />
          ) : (
            <input
              value={draft[key]}
              inputMode={key === 'import_cost' || key === 'retail_price' ? 'decimal' : undefined}
              list={key === 'category' ? categoriesId : undefined}
              onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
            />
          )}
        </label>
      ))}
      <datalist id={categoriesId}>
        {[...INVENTORY_CATEGORIES, 'Other'].map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      {status && (
        <Banner tone={status.tone} onDismiss={() => setStatus(null)}>
          {status.text}
        </Banner>
      )}
      <div className="kb-inv-actions">
        <Button variant="ghost" disabled={!dirty || saving} onClick={() => setDraft(draftOf(item))}>
          Undo changes
        </Button>
        <Button type="submit" disabled={!dirty || saving}>
          {saving ? 'Saving...' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
