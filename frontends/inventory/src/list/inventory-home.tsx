// /inventory (docs/product.md#inventory): the Inventory (table) and Product Images (gallery) as tabs over one
// filter, with selection actions, find by photo, CSV import and exports. Data lives in the hooks beside this
// file.
import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Banner, isApiError, type RemoteAppProps } from '@kaboodle/kit';
import { addedText } from '../inventory-text.ts';
import { useDebouncedValue } from '../common-debounce.ts';
import { bulkAction, exportUrl } from '../inventory-api.ts';
import type { InventoryItem, ListQuery, SortKey, SortState } from '../inventory-types.ts';
import { PhotoResults } from '../photo/photo-results.tsx';
import { ImportDialog } from './import-dialog.tsx';
import { InventoryTable } from './inventory-table.tsx';
import { InventoryToolbar } from './inventory-toolbar.tsx';
import { ItemModal } from './item-modal.tsx';
import { Pager } from './pager.tsx';
import { ProductGallery } from './product-gallery.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { useGalleryItems } from './use-gallery-items.ts';
import { useInventoryList } from './use-inventory-list.ts';
import { usePhotoSearch } from './use-photo-search.ts';

const nextSort = (s: SortState, key: SortKey): SortState =>
  s?.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' };

export function InventoryHome({ user }: RemoteAppProps) {
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'images' ? 'images' : 'table';
  const [text, setText] = useState('');
  const [category, setCategory] = useState('');
  const [sort, setSort] = useState<SortState>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [modal, setModal] = useState<InventoryItem | null>(null);
  const [importing, setImporting] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [generation, setGeneration] = useState(0);
  const debounced = useDebouncedValue(text);
  const query: ListQuery = useMemo(
    () => ({ text: debounced.trim(), category, sort }),
    [debounced, category, sort],
  );
  const list = useInventoryList(query, user?.id);
  const gallery = useGalleryItems(
    useMemo(() => ({ ...query, sort: null }), [query]),
    user?.id,
    generation,
  );
  const photo = usePhotoSearch();
  const filtered = query.text !== '' || query.category !== '';

  const refresh = useCallback(() => {
    list.reload();
    setGeneration((g) => g + 1);
  }, [list]);
  const act = async (action: Parameters<typeof bulkAction>[0], done: string) => {
    setBusy(true);
    try {
      await bulkAction(action);
      setNotice({ tone: 'success', text: done });
      setSelected(new Set());
      refresh();
    } catch (err) {
      setNotice({ tone: 'error', text: isApiError(err) ? (err.serverMessage ?? err.message) : String(err) });
    } finally {
      setBusy(false);
    }
  };
  const ids = [...selected];
  const setView = (v: 'table' | 'images') => setParams(v === 'table' ? {} : { view: v }, { replace: true });

  return (
    <section className="kb-inv" aria-labelledby="kb-inv-heading">
      <header className="kb-inv__header">
        <div>
          <p className="kb-eyebrow">Archive items</p>
          <h1 id="kb-inv-heading">Inventory</h1>
        </div>
        <div className="kb-inv-tabs" role="tablist" aria-label="Inventory views">
          {(['table', 'images'] as const).map((v) => (
            <button key={v} type="button" role="tab" aria-selected={view === v} onClick={() => setView(v)}>
              {v === 'table' ? 'Table' : 'Product Images'}
            </button>
          ))}
        </div>
      </header>
      <InventoryToolbar
        text={text}
        onText={setText}
        category={category}
        onCategory={setCategory}
        onPhoto={(f) => void photo.search(f)}
        photoBusy={photo.busy}
        onImport={() => setImporting(true)}
        exportHref={(format) => exportUrl(format, query)}
      />
      {notice && (
        <Banner tone={notice.tone} onDismiss={() => setNotice(null)}>
          {notice.text}
        </Banner>
      )}
      {photo.error && (
        <Banner tone="error" onDismiss={photo.clear}>
          {photo.error}
        </Banner>
      )}
      {photo.hits && <PhotoResults hits={photo.hits} onClear={photo.clear} />}
      <SelectionBar
        ids={ids}
        busy={busy}
        onAddedToKaboodle={(r) => {
          setNotice({ tone: 'success', text: addedText(r) });
          setSelected(new Set());
        }}
        onClear={() => setSelected(new Set())}
        exportHref={(format) => exportUrl(format, { text: '', category: '', sort }, ids)}
        onDelete={() =>
          void act({ action: 'delete', ids }, `Deleted ${ids.length} item${ids.length === 1 ? '' : 's'}`)
        }
        onCategorise={(c) =>
          void act(
            { action: 'categorise', ids, category: c },
            `Moved ${ids.length} item${ids.length === 1 ? '' : 's'} to ${c}`,
          )
        }
      />
      {list.error && <Banner tone="error">{list.error}</Banner>}
      {view === 'table' ? (
        list.settled && list.items.length === 0 ? (
          filtered && !list.error ? (
            <p className="kb-inv-empty">No items match these filters.</p>
          ) : (
            <div className="kb-inv-empty">
              <p>No inventory data available.</p>
              <p className="kb-muted">Upload some items to get started!</p>
              <Link className="kb-button kb-button--sm" to="/process">
                Add items
              </Link>
            </div>
          )
        ) : (
          <>
            <InventoryTable
              items={list.items}
              sort={sort}
              onSort={(k) => setSort((s) => nextSort(s, k))}
              selected={selected}
              onToggle={(id) =>
                setSelected((s) => {
                  const n = new Set(s);
                  if (!n.delete(id)) n.add(id);
                  return n;
                })
              }
              onToggleAll={(on) =>
                setSelected((s) => {
                  const n = new Set(s);
                  for (const i of list.items) {
                    if (on) n.add(i.id);
                    else n.delete(i.id);
                  }
                  return n;
                })
              }
            />
            <Pager
              page={list.page}
              pages={list.pages}
              total={list.total}
              onPage={list.setPage}
              loading={list.loading}
            />
          </>
        )
      ) : (
        <ProductGallery
          items={gallery.items}
          hasMore={gallery.hasMore}
          loading={gallery.loading}
          onMore={gallery.loadMore}
          onOpen={setModal}
        />
      )}
      <ItemModal item={modal} onClose={() => setModal(null)} />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        onImported={(n) => {
          setNotice({ tone: 'success', text: `Imported ${n} item${n === 1 ? '' : 's'}` });
          refresh();
        }}
      />
    </section>
  );
}
