// The vault table's header row: sortable columns are buttons, the active one marked with an arrow
// and aria-sort.
import { SORTABLE_COLUMNS } from '../../document-list.ts';
import type { SortKey, SortState } from '../../document-types.ts';
import type { TableHeader } from '../column-chooser.tsx';

const SORT_KEY_OF: Partial<Record<TableHeader, SortKey>> = Object.fromEntries(
  SORTABLE_COLUMNS.map((c) => [c.header, c.key]),
);

export const colClass = (h: TableHeader) => `kb-col-${h.toLowerCase().replace(/[^a-z]/g, '')}`;

export function TableHead({
  columns,
  sort,
  onSort,
}: {
  columns: readonly TableHeader[];
  sort: SortState;
  onSort: (key: SortKey) => void;
}) {
  return (
    <thead>
      <tr aria-rowindex={1}>
        {columns.map((h) => {
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
  );
}
