// The 12-column table (docs/product.md#document-vault): sortable headers with an arrow on the active column,
// truncated Summary/Thesis/Issue cells that expand on hover or focus, Download per row. Title and Actions
// stay in view while the table scrolls sideways; a column chooser hides the others. Rows are windowed for
// long lists; aria-rowcount/aria-rowindex keep the full size known to assistive technology.
import { useLayoutEffect, useRef, useState } from 'react';
import type { Selection } from '@kaboodle/kit';
import type { SortKey, SortState, VaultDocument } from '../document-types.ts';
import { useWindowRange } from '../../common/use-window-range.ts';
import { ColumnChooser, TABLE_HEADERS, useColumnChoice } from './column-chooser.tsx';
import { cell, CELL_CLASS } from './table/table-cells.tsx';
import { TableHead } from './table/table-head.tsx';

/** A first guess; the real height is measured from the first rendered row. */
export const ROW_HEIGHT = 84;

export interface TableViewProps {
  docs: VaultDocument[];
  sort: SortState;
  onSort: (key: SortKey) => void;
  onDownload: (doc: VaultDocument) => void;
  onOpen: (doc: VaultDocument) => void;
  /** Multi-select for "Add to kaboodle": a box before each title. */
  selection?: Selection;
}

/** The average rendered row's height (rows differ a little: titles wrap, a hovered cell expands). */
function averageRowHeight(body: HTMLTableSectionElement | null): number | null {
  const rows = body?.querySelectorAll<HTMLElement>('tr[data-testid="document-row"]') ?? [];
  if (rows.length === 0) return null;
  let sum = 0;
  for (const row of rows) sum += row.getBoundingClientRect().height;
  return Math.round(sum / rows.length);
}

/** A spacer row standing for `count` rows outside the window. */
function Spacer({ count, rowHeight, span }: { count: number; rowHeight: number; span: number }) {
  return (
    <tr aria-hidden="true" className="kb-spacer" style={{ height: count * rowHeight }}>
      <td colSpan={span} />
    </tr>
  );
}

export function TableView(props: TableViewProps) {
  const { docs, sort, onSort } = props;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [rowHeight, setRowHeight] = useState(ROW_HEIGHT);
  const { start, end } = useWindowRange(bodyRef, docs.length, rowHeight);
  const columns = useColumnChoice();
  // Measured again whenever other rows or other columns are on screen.
  useLayoutEffect(() => {
    const h = averageRowHeight(bodyRef.current);
    if (h !== null && Math.abs(h - rowHeight) > 2) setRowHeight(h);
  }, [docs, start, end, columns.hidden, rowHeight]);
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
          <TableHead columns={columns.shown} sort={sort} onSort={onSort} />
          <tbody ref={bodyRef}>
            {windowed && start > 0 && <Spacer count={start} rowHeight={rowHeight} span={span} />}
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
              <Spacer count={docs.length - end} rowHeight={rowHeight} span={span} />
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export { TABLE_HEADERS };
