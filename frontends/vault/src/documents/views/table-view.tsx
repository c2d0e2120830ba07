// The 12-column table (docs/product.md#document-vault): sortable headers with an arrow on the active column,
// truncated Summary/Thesis/Issue cells that expand on hover or focus, Download per row. Title and Actions
// stay in view while the table scrolls sideways; a column chooser hides the others. Rows are windowed for
// long lists; aria-rowcount/aria-rowindex keep the full size known to assistive technology.
import { useLayoutEffect, useRef, useState } from 'react';
import { Button, SampleBadge, type Selection } from '@kaboodle/kit';
import { SORTABLE_COLUMNS } from '../document-list.ts';
import type { SortKey, SortState, VaultDocument } from '../document-types.ts';
import { TagChips } from '../tag-chips.tsx';
import { useWindowRange } from '../../common/use-window-range.ts';
import { ColumnChooser, TABLE_HEADERS, useColumnChoice, type TableHeader } from './column-chooser.tsx';

/** A first guess; the real height is measured from the first rendered row. */
export const ROW_HEIGHT = 84;

const SORT_KEY_OF: Partial<Record<TableHeader, SortKey>> = Object.fromEntries(
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

const colClass = (h: TableHeader) => `kb-col-${h.toLowerCase().replace(/[^a-z]/g, '')}`;

/** One cell of a row, by column. */
function cell(h: TableHeader, d: VaultDocument, props: TableViewProps) {
  const title = d.title || d.file_name || 'Untitled';
  switch (h) {
    case 'Title':
      return (
        <>
          {props.selection && (
            <input
              type="checkbox"
              className="kb-select-box kb-row-select"
              aria-label={`Select ${title}`}
              checked={props.selection.has({ type: 'document', id: d.id })}
              onChange={() => props.selection?.toggle({ type: 'document', id: d.id })}
            />
          )}
          <button
            type="button"
            className="kb-vault-link"
            onClick={() => props.onOpen(d)}
            title="Open in the browser view"
          >
            {title}
          </button>
          {d.sample && <SampleBadge />}
          {d.corrected_fields && d.corrected_fields.length > 0 && (
            <span className="kb-corrected" title={`Corrected: ${d.corrected_fields.join(', ')}`}>
              ✎
            </span>
          )}
        </>
      );
    case 'Author':
      return d.author;
    case 'Category':
      return d.category;
    case 'Field':
      return d.field;
    case 'Year':
      return d.publication_year ?? '';
    case 'Summary':
      return <Expandable text={d.summary} />;
    case 'Thesis':
      return <Expandable text={d.thesis} />;
    case 'Issue':
      return <Expandable text={d.issue} />;
    case 'Journal/Publisher':
      return d.journal_publisher;
    case 'Influences':
      return d.influenced_by.join(', ');
    case 'Tags':
      return <TagChips tags={d.hashtags} max={3} />;
    case 'Actions':
      return (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => props.onDownload(d)}
          aria-label={`Download ${d.title || 'document'}`}
        >
          Download
        </Button>
      );
  }
}

const CELL_CLASS: Partial<Record<TableHeader, string>> = {
  Title: 'kb-col-title',
  Year: 'kb-num',
  Summary: 'kb-col-long',
  Thesis: 'kb-col-long',
  Issue: 'kb-col-long',
  Tags: 'kb-col-tags',
  Actions: 'kb-col-actions',
};

export function TableView(props: TableViewProps) {
  const { docs, sort, onSort } = props;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [rowHeight, setRowHeight] = useState(ROW_HEIGHT);
  const { start, end } = useWindowRange(bodyRef, docs.length, rowHeight);
  const columns = useColumnChoice();
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
  const span = columns.shown.length;

  return (
    <div className="kb-vault-table-block">
      <div className="kb-vault-table__bar">
        <ColumnChooser hidden={columns.hidden} onToggle={columns.toggle} />
      </div>
      <div className="kb-table-wrap kb-vault-table" data-testid="vault-table">
        <table className="kb-table" aria-rowcount={docs.length + 1}>
          <caption className="kb-visually-hidden">Documents</caption>
          <thead>
            <tr aria-rowindex={1}>
              {columns.shown.map((h) => {
                const key = SORT_KEY_OF[h];
                const active = key !== undefined && sort?.key === key;
                return (
                  <th
                    key={h}
                    scope="col"
                    className={colClass(h)}
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
                <td colSpan={span} />
              </tr>
            )}
            {rows.map((d, i) => (
              <tr key={d.id} aria-rowindex={start + i + 2} data-testid="document-row">
                {columns.shown.map((h) => (
                  <td key={h} className={CELL_CLASS[h]}>
                    {cell(h, d, props)}
                  </td>
                ))}
              </tr>
            ))}
            {windowed && end < docs.length && (
              <tr
                aria-hidden="true"
                className="kb-spacer"
                style={{ height: (docs.length - end) * rowHeight }}
              >
                <td colSpan={span} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export { TABLE_HEADERS };
