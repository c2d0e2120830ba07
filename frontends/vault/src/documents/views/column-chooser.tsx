// The table's column chooser: every spec column is shown unless the person hides it here (remembered
// in this browser). Title and Actions always stay: they are the row's name and what to do with it.
import { useCallback, useState } from 'react';

export const TABLE_HEADERS = [
  'Title',
  'Author',
  'Category',
  'Field',
  'Year',
  'Summary',
  'Thesis',
  'Issue',
  'Journal/Publisher',
  'Influences',
  'Tags',
  'Actions',
] as const;
export type TableHeader = (typeof TABLE_HEADERS)[number];

const ALWAYS: readonly TableHeader[] = ['Title', 'Actions'];
const STORAGE_KEY = 'kaboodle:vault:hidden-columns';

function storedHidden(): Set<TableHeader> {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    if (!Array.isArray(raw)) return new Set();
    return new Set(raw.filter((h): h is TableHeader => TABLE_HEADERS.includes(h) && !ALWAYS.includes(h)));
  } catch {
    return new Set();
  }
}

export function useColumnChoice() {
  const [hidden, setHidden] = useState<Set<TableHeader>>(storedHidden);
  const toggle = useCallback((header: TableHeader) => {
    if (ALWAYS.includes(header)) return;
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(header)) next.delete(header);
      else next.add(header);
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify([...next]));
      } catch {
        // remembering the choice is a nicety
      }
      return next;
    });
  }, []);
  const shown = TABLE_HEADERS.filter((h) => !hidden.has(h));
  return { shown, hidden, toggle };
}

export function ColumnChooser({
  hidden,
  onToggle,
}: {
  hidden: ReadonlySet<TableHeader>;
  onToggle: (header: TableHeader) => void;
}) {
  const choosable = TABLE_HEADERS.filter((h) => !ALWAYS.includes(h));
  return (
    <details className="kb-columns">
      <summary className="kb-button kb-button--ghost kb-button--sm">
        Columns ({TABLE_HEADERS.length - hidden.size} of {TABLE_HEADERS.length})
      </summary>
      <fieldset className="kb-columns__menu kb-frame">
        <legend>Columns shown</legend>
        {choosable.map((h) => (
          <label key={h} className="kb-columns__option">
            <input type="checkbox" checked={!hidden.has(h)} onChange={() => onToggle(h)} />
            {h}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
