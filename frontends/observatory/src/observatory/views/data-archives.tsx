// "Data Archives": the inventory's figures (total, processed, pending) and its table, searchable by
// text and category, sortable (prices as numbers), loading 20 more while the last page was full.
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, listClient, Table, type LibraryCounts, type TableColumn } from '@kaboodle/kit';
import { StatRow } from './stat-row.tsx';

/** The inventory categories (docs/product.md#observatory). */
const CATEGORIES = ['Beads', 'Stools', 'Bowls', 'Fans', 'Totebags', 'Home Decor'];
const PAGE = 20;

interface Item {
  id: string;
  name: string;
  category: string;
  material: string;
  retail_price: number | null;
  status: string;
}

const price = (n: number | null) => (n === null || n === undefined ? '' : `$${Number(n).toFixed(2)}`);
const COLUMNS: TableColumn<Item>[] = [
  {
    key: 'name',
    header: 'Name',
    sortValue: (r) => r.name,
    render: (r) => <Link to={`/inventory/${r.id}`}>{r.name || 'Unnamed Product'}</Link>,
  },
  { key: 'category', header: 'Category', sortValue: (r) => r.category },
  { key: 'material', header: 'Material', sortValue: (r) => r.material },
  {
    key: 'retail_price',
    header: 'Retail Price',
    sortValue: (r) => r.retail_price ?? 0,
    render: (r) => price(r.retail_price),
  },
  { key: 'status', header: 'Status', sortValue: (r) => r.status },
];

export function DataArchives({ library }: { library: LibraryCounts }) {
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState('');
  const [items, setItems] = useState<Item[]>([]);
  const [page, setPage] = useState(1);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const ids = { q: useId(), c: useId() };

  // A new search or category starts again at page 1 (docs/product.md#states).
  useEffect(() => {
    const ctl = new AbortController();
    const filtered = query.trim() !== '' || category !== '';
    setLoading(true);
    // Typing waits for a pause (300 ms, docs/product.md#limits); the first page and "load more" go at once.
    const delay = filtered && page === 1 ? 300 : 0;
    const timer = setTimeout(() => {
      listClient
        .getList<Item>(filtered ? '/api/inventory/search' : '/api/inventory', {
          query: { query: query.trim() || undefined, category: category || undefined, page, limit: PAGE },
          signal: ctl.signal,
        })
        .then((p) => {
          setItems((prev) => (page === 1 ? p.items : [...prev, ...p.items]));
          setMore(p.items.length === PAGE);
        })
        .catch((err: unknown) => !ctl.signal.aborted && console.error('Inventory load failed', err))
        .finally(() => !ctl.signal.aborted && setLoading(false));
    }, delay);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [query, category, page]);

  const pending = library.files_waiting_images;
  return (
    <div className="kb-obs-view">
      <StatRow
        stats={[
          { label: 'Total', value: library.inventory_items + pending },
          { label: 'Processed', value: library.inventory_items },
          { label: 'Pending', value: pending },
        ]}
      />
      <div className="kb-obs-filters">
        <div className="kb-field">
          <label htmlFor={ids.q}>Search inventory</label>
          <input
            id={ids.q}
            type="search"
            value={query}
            placeholder="Name, material, origin..."
            onChange={(e) => {
              setQuery(e.target.value);
              setPage(1);
            }}
          />
        </div>
        <div className="kb-field">
          <label htmlFor={ids.c}>Category</label>
          <select
            id={ids.c}
            value={category}
            onChange={(e) => {
              setCategory(e.target.value);
              setPage(1);
            }}
          >
            <option value="">All Categories</option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Table
        columns={COLUMNS}
        rows={items}
        rowKey={(r) => r.id}
        emptyText={loading ? 'Loading inventory...' : 'No inventory data available.'}
        className="kb-obs-table"
      />
      {more && (
        <Button size="sm" variant="ghost" disabled={loading} onClick={() => setPage((p) => p + 1)}>
          {loading ? 'Loading...' : 'Load 20 more'}
        </Button>
      )}
    </div>
  );
}
