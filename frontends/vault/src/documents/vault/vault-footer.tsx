// The vault's footer: loading notes, the graph's "Add the next 20 documents" button, how many
// documents match the filters, and the library's total.
import { Button } from '@kaboodle/kit';
import type { VaultView } from '../document-types.ts';

export interface VaultFooterProps {
  view: VaultView;
  list: {
    items: readonly unknown[];
    total: number | null;
    settled: boolean;
    hasMore: boolean;
    loadingMore: boolean;
    loadMore: () => Promise<void>;
  };
  filtered: boolean;
  filterWords: string;
  libraryTotal: number | null;
}

export function VaultFooter({ view, list, filtered, filterWords, libraryTotal }: VaultFooterProps) {
  return (
    <footer className="kb-vault__footer">
      {list.loadingMore && (
        <p className="kb-vault__more" role="status">
          Loading more documents...
        </p>
      )}
      {view === 'graph' && list.hasMore && (
        <Button variant="ghost" size="sm" onClick={() => void list.loadMore()} disabled={list.loadingMore}>
          Add the next 20 documents to the graph
        </Button>
      )}
      {list.settled && filtered && list.items.length > 0 && (
        <p className="kb-vault__matches" role="status">
          {list.total ?? list.items.length} of {libraryTotal ?? '…'} documents match {filterWords}
        </p>
      )}
      {list.settled ? (
        <p className="kb-vault__total">
          Total Documents: {libraryTotal ?? (filtered ? '…' : list.items.length)}
        </p>
      ) : (
        <p className="kb-vault__more" role="status">
          Loading documents...
        </p>
      )}
    </footer>
  );
}
