// Data table with optional click-to-sort headers (first click ascending, again toggles:
// docs/product.md#states).
import { useMemo, useState, type ReactNode } from 'react';

export interface TableColumn<Row> {
  key: string;
  header: string;
  render?: (row: Row) => ReactNode;
  /** Value used for sorting; omit to make the column unsortable. */
  sortValue?: (row: Row) => string | number | null | undefined;
}

export interface TableProps<Row> {
  columns: TableColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  caption?: string;
  emptyText?: string;
  className?: string;
}

export type SortState = { key: string; dir: 'asc' | 'desc' } | null;

/** Numbers compare numerically, anything else as case-insensitive text; missing sorts as 0 / ''. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' || typeof b === 'number') return (Number(a) || 0) - (Number(b) || 0);
  return String(a ?? '').localeCompare(String(b ?? ''), undefined, { sensitivity: 'base' });
}

export function nextSort(current: SortState, key: string): SortState {
  if (current?.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: 'asc' };
}

export function Table<Row>({
  columns,
  rows,
  rowKey,
  caption,
  emptyText = 'Nothing here yet.',
  className,
}: TableProps<Row>) {
  const [sort, setSort] = useState<SortState>(null);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.key === sort.key);
    if (!sort || !column?.sortValue) return rows;
    const get = column.sortValue;
    const factor = sort.dir === 'asc' ? 1 : -1;
    return [...rows].sort((a, b) => factor * compareValues(get(a), get(b)));
  }, [rows, columns, sort]);

  return (
    <div className={['kb-table-wrap', className].filter(Boolean).join(' ')}>
      <table className="kb-table">
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort?.key === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {c.sortValue ? (
                    <button type="button" onClick={() => setSort((s) => nextSort(s, c.key))}>
                      {c.header}
                      {active ? (sort.dir === 'asc' ? ' ↑' : ' ↓') : ''}
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.length === 0 ? (
            <tr>
              <td className="kb-table__empty" colSpan={columns.length}>
                {emptyText}
              </td>
            </tr>
          ) : (
            sorted.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c) => (
                  <td key={c.key}>
                    {c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? '')}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
