// The vault's documents in the chosen view (Table, Grid, Graph, Browser); the graph's code loads only
// when it is chosen.
import { lazy, Suspense } from 'react';
import type { Selection } from '@kaboodle/kit';
import type { SortKey, SortState, VaultDocument, VaultView } from '../document-types.ts';
import { BrowserView } from '../views/browser-view.tsx';
import { GridView } from '../views/grid-view.tsx';
import { TableView } from '../views/table-view.tsx';

const GraphView = lazy(() => import('../views/graph-view.tsx'));

export interface VaultDocumentsProps {
  view: VaultView;
  docs: VaultDocument[];
  loading: boolean;
  sort: SortState;
  onSort: (key: SortKey) => void;
  openId: string | null;
  onOpen: (id: string) => void;
  onDownload: (doc: VaultDocument) => void;
  onSaved: (doc: VaultDocument) => void;
  selection: Selection;
}

export function VaultDocuments(props: VaultDocumentsProps) {
  const { view, docs, onOpen, onDownload, selection } = props;
  return (
    <div className="kb-vault__view" aria-busy={props.loading}>
      {view === 'table' && (
        <TableView
          docs={docs}
          sort={props.sort}
          onSort={props.onSort}
          onDownload={onDownload}
          onOpen={(d) => onOpen(d.id)}
          selection={selection}
        />
      )}
      {view === 'grid' && (
        <GridView docs={docs} onOpen={(d) => onOpen(d.id)} onDownload={onDownload} selection={selection} />
      )}
      {view === 'graph' && (
        <Suspense fallback={<p className="kb-muted">Loading the graph...</p>}>
          <GraphView docs={docs} onOpen={(d) => onOpen(d.id)} />
        </Suspense>
      )}
      {view === 'browser' && (
        <BrowserView
          docs={docs}
          selectedId={props.openId}
          onSelect={onOpen}
          onDownload={onDownload}
          onSaved={props.onSaved}
        />
      )}
    </div>
  );
}
