// The Document Vault (/documents): docs/product.md#document-vault, #states, #validation, #messages, #limits —
// keyword and category filters, semantic search, four views (Table, Grid, Graph, Browser), infinite scroll,
// export. State lives in hooks (use-document-list.ts, vault/use-vault-state.ts); this file composes the
// parts, and a failed request shows in the kit's error banner.
import { useMemo, useState } from 'react';
import { AddToKaboodle, useSelection, type RemoteAppProps } from '@kaboodle/kit';
import { FetchErrors } from '../common/fetch-errors.tsx';
import { useDebouncedValue } from '../common/debounce.ts';
import { distinctCategories, nextSort, sortDocuments } from './document-list.ts';
import type { SortKey, SortState, VaultDocument } from './document-types.ts';
import { openDownload, type ListQuery } from './documents-api.ts';
import { SemanticResults } from './semantic-results.tsx';
import { useDocumentList, useLibraryTotal } from './use-document-list.ts';
import { VaultControls } from './vault/vault-controls.tsx';
import { VaultDocuments } from './vault/vault-documents.tsx';
import { VaultFooter } from './vault/vault-footer.tsx';
import { VaultHeader } from './vault/vault-header.tsx';
import {
  useInfiniteScroll,
  useSemanticSearch,
  useServerCategories,
  useVaultView,
} from './vault/use-vault-state.ts';
import { VaultTrends } from './vault-trends.tsx';

/** "“word” in the category “X”": what the filters ask for, in the vault's messages. */
function filterWordsOf(query: ListQuery): string {
  return [
    query.keyword ? `“${query.keyword}”` : '',
    query.category ? `in the category “${query.category}”` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export function DocumentVault({ user }: RemoteAppProps) {
  const userId = user?.id;
  const { view, setView, openId, openInBrowser } = useVaultView();
  const [keyword, setKeyword] = useState('');
  const [category, setCategory] = useState('');
  const [sort, setSort] = useState<SortState>(null);
  const debouncedKeyword = useDebouncedValue(keyword);
  const query: ListQuery = useMemo(
    () => ({ keyword: debouncedKeyword.trim(), category, sort }),
    [debouncedKeyword, category, sort],
  );
  const list = useDocumentList(query, userId);
  const docs = useMemo(() => sortDocuments(list.items, sort), [list.items, sort]);
  const server = useServerCategories(userId);
  const categories = useMemo(
    () => distinctCategories(server.categories, list.items),
    [server.categories, list.items],
  );
  const semantic = useSemanticSearch(userId);
  const semanticMode = semantic.results !== null;
  const selection = useSelection();
  const filtered = query.keyword !== '' || query.category !== '';
  const library = useLibraryTotal(filtered, list.total);
  useInfiniteScroll(!semanticMode && view !== 'graph', { ...list, count: list.items.length });

  const download = (doc: { id: string; url?: string | undefined }) => openDownload(doc.id, doc.url);
  const onSaved = (doc: VaultDocument) => {
    list.replace(doc);
    server.refresh();
  };
  // A deep link (?open=<id>) still opens the reader, which explains a missing document itself.
  const noDocuments =
    list.settled && list.items.length === 0 && !semanticMode && !(openId && view === 'browser');
  const filterWords = filterWordsOf(query);

  return (
    <section className="kb-vault" aria-labelledby="kb-vault-heading">
      <VaultHeader view={view} onView={setView} query={query} />
      <VaultControls
        keyword={keyword}
        onKeyword={setKeyword}
        category={category}
        onCategory={setCategory}
        categories={categories}
        semantic={semantic}
      />
      <FetchErrors sources={[list, semantic, server, library]} />

      <VaultTrends />

      {semantic.results !== null ? (
        <SemanticResults
          results={semantic.results}
          onDownload={download}
          onOpen={(r) => {
            semantic.clear();
            openInBrowser(r.id);
          }}
        />
      ) : noDocuments ? (
        <div className="kb-vault__empty kb-frame" role="status">
          {filtered && library.total !== 0 ? (
            <p>No documents match {filterWords}.</p>
          ) : (
            <p>No documents available.</p>
          )}
        </div>
      ) : (
        <VaultDocuments
          view={view}
          docs={docs}
          loading={list.loading}
          sort={sort}
          onSort={(key: SortKey) => setSort((s) => nextSort(s, key))}
          openId={openId}
          onOpen={openInBrowser}
          onDownload={download}
          onSaved={onSaved}
          selection={selection}
        />
      )}

      <AddToKaboodle selection={selection.refs} onClear={selection.clear} noun="selected" />

      {!semanticMode && (
        <VaultFooter
          view={view}
          list={list}
          filtered={filtered}
          filterWords={filterWords}
          libraryTotal={library.total}
        />
      )}
    </section>
  );
}

export default DocumentVault;
