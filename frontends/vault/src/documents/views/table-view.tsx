// The 12-column table (docs/product.md#document-vault): sortable headers with an arrow on the active column,
// truncated Summary/Thesis/Issue cells that expand on hover or focus, Download per row. Rows are windowed for
// long lists; aria-rowcount/aria-rowindex keep the full size known to assistive technology.
import { useLayoutEffect, useRef, useState } from 'react';
import { Button, type Selection } from '@kaboodle/kit';
import { SORTABLE_COLUMNS } from '../document-list.ts';
import type { SortKey, SortState, VaultDocument } from '../document-types.ts';
import { TagChips } from '../tag-chips.tsx';
import { useWindowRange } from '../../common/use-window-range.ts';

/** A first guess; the real height is measured from the first rendered row. */
export const ROW_HEIGHT = 84;

const HEADERS = [
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

const SORT_KEY_OF: Partial<Record<(typeof HEADERS)[number], SortKey>> = Object.fromEntries(
  SORTABLE_COLUMNS.map((c) => [c.header, c.key]),
);

/** Clamped to three lines; the whole text shows in place on hover or keyboard focus. */
function Expandable({ text }: { text: string }) {
  if (!text) return <span className="kb-muted">—</span>;
  return (
    <div className="kb-expand" tabIndex={0}>
      {text}
    </div>
  );
}

export interface TableViewProps {
  docs: VaultDocument[];
  sort: SortState;
  onSort: (key: SortKey) => void;
  onDownload: (doc: VaultDocument) => void;
  onOpen: (doc: VaultDocument) => void;
  /** Multi-select for "Add to kaboodle": a box before each title. */
  selection?: Selection;
}

export function TableView({ docs, sort, onSort, onDownload, onOpen, selection }: TableViewProps) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [rowHeight, setRowHeight] = useState(ROW_HEIGHT);
  const { start, end } = useWindowRange(bodyRef, docs.length, rowHeight);
  useLayoutEffect(() => {
    // The spacers use the average rendered row (rows differ a little: titles wrap, a hovered cell expands).
    const rows = bodyRef.current?.querySelectorAll<HTMLElement>('tr[data-testid="document-row"]') ?? [];
    if (rows.length === 0) return;
    let sum = 0;
    for (const row of rows) sum += row.getBoundingClientRect().height;
    const h = Math.round(sum / rows.length);
    if (Math.abs(h - rowHeight) > 2) setRowHeight(h);
  });
  const rows = docs.slice(start, end);
  const windowed = start > 0 || end < docs.length;

  return (
    <div className="kb-table-wrap kb-vault-table">
      <table className="kb-table" aria-rowcount={docs.length + 1}>
        <caption className="kb-visually-hidden">Documents</caption>
        <thead>
          <tr aria-rowindex={1}>
            {HEADERS.map((h) => {
              const key = SORT_KEY_OF[h];
              const active = key !== undefined && sort?.key === key;
              return (
                <th
                  key={h}
                  scope="col"
                  className={`kb-col-${h.toLowerCase().replace(/[^a-z]/g, '')}`}
                  aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {key ? (
                    <button
                      type="button"
                      onClick={() => onSort(key)}
                      className={active ? 'is-active' : undefined}
                    >
                      {h}
                      <span className="kb-sort-arrow" aria-hidden="true">
                        {active ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                      </span>
                    </button>
                  ) : (
                    h
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody ref={bodyRef}>
          {windowed && start > 0 && (
            <tr aria-hidden="true" className="kb-spacer" style={{ height: start * rowHeight }}>
              <td colSpan={HEADERS.length} />
            </tr>
          )}
          {rows.map((d, i) => (
            <tr key={d.id} aria-rowindex={start + i + 2} data-testid="document-row">
              <td className="kb-col-title">
                {selection && (
                  <input
                    type="checkbox"
                    className="kb-select-box kb-row-select"
                    aria-label={`Select ${d.title || d.file_name || 'Untitled'}`}
                    checked={selection.has({ type: 'document', id: d.id })}
                    onChange={() => selection.toggle({ type: 'document', id: d.id })}
                  />
                )}
                <button
                  type="button"
                  className="kb-link-button"
                  onClick={() => onOpen(d)}
                  title="Open in the browser view"
                >
                  {d.title || d.file_name || 'Untitled'}
                </button>
                {d.corrected_fields && d.corrected_fields.length > 0 && (
                  <span className="kb-corrected" title={`Corrected: ${d.corrected_fields.join(', ')}`}>
                    ✎
                  </span>
                )}
              </td>
              <td>{d.author}</td>
              <td>{d.category}</td>
              <td>{d.field}</td>
              <td className="kb-num">{d.publication_year ?? ''}</td>
              <td className="kb-col-long">
                <Expandable text={d.summary} />
              </td>
              <td className="kb-col-long">
                <Expandable text={d.thesis} />
              </td>
              <td className="kb-col-long">
                <Expandable text={d.issue} />
              </td>
              <td>{d.journal_publisher}</td>
              <td>{d.influenced_by.join(', ')}</td>
              <td className="kb-col-tags">
                <TagChips tags={d.hashtags} max={3} />
              </td>
              <td>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => onDownload(d)}
                  aria-label={`Download ${d.title || 'document'}`}
                >
                  Download
                </Button>
              </td>
            </tr>
          ))}
          {windowed && end < docs.length && (
            <tr aria-hidden="true" className="kb-spacer" style={{ height: (docs.length - end) * rowHeight }}>
              <td colSpan={HEADERS.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
