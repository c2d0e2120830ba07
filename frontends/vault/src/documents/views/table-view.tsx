// The 12-column table (spec 2): sortable headers with an arrow on the active column, truncated
// Summary/Thesis/Issue cells that expand on hover or focus, Download per row. Rows are windowed
// for long lists; aria-rowcount/aria-rowindex keep the full size known to assistive technology.
import { useRef } from 'react';
import { Button } from '@kaboodle/kit';
import { SORTABLE_COLUMNS } from '../document-list.ts';
import type { SortKey, SortState, VaultDocument } from '../document-types.ts';
import { TagChips } from '../tag-chips.tsx';
import { useWindowRange } from '../../common/use-window-range.ts';

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
}

export function TableView({ docs, sort, onSort, onDownload, onOpen }: TableViewProps) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const { start, end } = useWindowRange(bodyRef, docs.length, ROW_HEIGHT);
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
            <tr aria-hidden="true" className="kb-spacer" style={{ height: start * ROW_HEIGHT }}>
              <td colSpan={HEADERS.length} />
            </tr>
          )}
          {rows.map((d, i) => (
            <tr
              key={d.id}
              aria-rowindex={start + i + 2}
              style={{ height: ROW_HEIGHT }}
              data-testid="document-row"
            >
              <td className="kb-col-title">
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
            <tr aria-hidden="true" className="kb-spacer" style={{ height: (docs.length - end) * ROW_HEIGHT }}>
              <td colSpan={HEADERS.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
