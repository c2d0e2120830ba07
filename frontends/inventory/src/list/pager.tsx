// Paging by 20 (docs/product.md#limits): where you are, how many there are, previous and next.
import { Button } from '@kaboodle/kit';
import { PAGE_SIZE } from '../inventory-types.ts';

export function Pager({
  page,
  pages,
  total,
  onPage,
  loading,
}: {
  page: number;
  pages: number;
  total: number;
  onPage: (p: number) => void;
  loading: boolean;
}) {
  const from = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const to = Math.min(total, page * PAGE_SIZE);
  return (
    <nav className="kb-inv-pager" aria-label="Inventory pages">
      <span role="status">
        {loading ? 'Loading...' : `Showing ${from}–${to} of ${total} item${total === 1 ? '' : 's'}`}
      </span>
      <Button size="sm" variant="ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        Page {page} of {pages}
      </span>
      <Button size="sm" variant="ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
