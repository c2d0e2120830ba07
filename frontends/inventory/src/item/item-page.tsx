// /inventory/:id: the photo with its recognised objects, colours, barcodes, every field editable with
// its confidence and provenance, related items and recommendations, add to a kaboodle, reprocess,
// delete and the source file; a 404 state
// for an id that is missing or someone else's (the server answers both alike).
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  AddToKaboodleButton,
  Banner,
  Button,
  Dialog,
  isApiError,
  Recommendations,
  SampleBadge,
} from '@kaboodle/kit';
import { addedText } from '../inventory-text.ts';
import { deleteItem, originalFileUrl, reprocess } from '../inventory-api.ts';
import { displayName } from '../inventory-format.ts';
import { Barcodes, ColourSwatches, Provenance } from './item-facts.tsx';
import { ItemEditor } from './item-editor.tsx';
import { ItemPhoto } from './item-photo.tsx';
import { RelatedItems } from './related-items.tsx';
import { useItem } from './use-item.ts';

export function ItemPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { state, reload, set } = useItem(id);
  const [work, setWork] = useState<{
    busy: boolean;
    text: string | null;
    tone: 'info' | 'error' | 'success';
  }>({ busy: false, text: null, tone: 'info' });
  const [confirm, setConfirm] = useState(false);

  if (state.kind === 'loading') return <p className="kb-muted kb-inv-page">Loading the item...</p>;
  if (state.kind === 'missing' || state.kind === 'failed') {
    return (
      <section className="kb-inv-page kb-inv-missing" aria-labelledby="kb-inv-missing">
        <p className="kb-eyebrow">{state.kind === 'missing' ? '404' : 'Error'}</p>
        <h1 id="kb-inv-missing">
          {state.kind === 'missing' ? 'Inventory item not found' : 'The item could not be loaded'}
        </h1>
        <p className="kb-muted">
          {state.kind === 'missing'
            ? 'It may have been deleted, or the link is not one of your items.'
            : state.message}
        </p>
        <Link className="kb-button" to="/inventory">
          Back to Inventory
        </Link>
      </section>
    );
  }
  const item = state.item;
  const run = async () => {
    if (!item.source_file_id) return;
    setWork({ busy: true, text: 'Processing the photo again...', tone: 'info' });
    try {
      await reprocess(item.source_file_id, (p) =>
        setWork({ busy: true, text: `Processing the photo again... ${p}%`, tone: 'info' }),
      );
      setWork({ busy: false, text: 'Processed again; your corrections were kept.', tone: 'success' });
      reload();
    } catch (err) {
      setWork({
        busy: false,
        text: isApiError(err) ? (err.serverMessage ?? err.message) : (err as Error).message,
        tone: 'error',
      });
    }
  };
  const remove = async () => {
    setConfirm(false);
    try {
      await deleteItem(item.id);
      void navigate('/inventory', { replace: true });
    } catch (err) {
      setWork({
        busy: false,
        text: isApiError(err) ? (err.serverMessage ?? err.message) : String(err),
        tone: 'error',
      });
    }
  };

  return (
    <article className="kb-inv-page" aria-labelledby="kb-inv-item-heading">
      <nav aria-label="Breadcrumb">
        <Link to="/inventory" className="kb-link-button">
          ← Inventory
        </Link>
      </nav>
      <header className="kb-inv-page__header">
        <div>
          <p className="kb-eyebrow">{item.category || 'Uncategorised'}</p>
          <h1 id="kb-inv-item-heading">
            {displayName(item.name)}
            {item.sample && <SampleBadge />}
          </h1>
        </div>
        <div className="kb-inv-actions">
          <AddToKaboodleButton
            selection={[{ type: 'inventory_item', id: item.id }]}
            onAdded={(r) => setWork({ busy: false, text: addedText(r), tone: 'success' })}
          />
          {item.source_file_id && (
            <>
              <Button variant="secondary" size="sm" disabled={work.busy} onClick={() => void run()}>
                Reprocess
              </Button>
              <a
                className="kb-button kb-button--ghost kb-button--sm"
                href={originalFileUrl(item.source_file_id)}
                target="_blank"
                rel="noopener"
              >
                Original file
              </a>
              <Link
                className="kb-button kb-button--ghost kb-button--sm"
                to={`/media-hub?file=${encodeURIComponent(item.source_file_id)}`}
              >
                Media Hub
              </Link>
            </>
          )}
          <Button variant="danger" size="sm" onClick={() => setConfirm(true)}>
            Delete
          </Button>
        </div>
      </header>
      {work.text && <Banner tone={work.tone}>{work.text}</Banner>}
      <div className="kb-inv-page__grid">
        <ItemPhoto item={item} />
        <div className="kb-inv-page__facts">
          <h2>Colours</h2>
          <ColourSwatches item={item} />
          <h2>Barcodes</h2>
          <Barcodes item={item} />
          {item.source_file_id && <p className="kb-muted">Source file: {item.file_name}</p>}
        </div>
      </div>
      <h2>Details</h2>
      <ItemEditor item={item} onSaved={set} />
      <Provenance item={item} />
      <h2>Related items</h2>
      <RelatedItems id={item.id} hasPhoto={item.image_model !== ''} />
      <Recommendations context={[{ type: 'inventory_item', id: item.id }]} limit={5} />
      <Dialog open={confirm} onClose={() => setConfirm(false)} title="Delete this item?" maxWidth={460}>
        <p>
          {displayName(item.name)} will be removed from your inventory and search. Its photo stays in the
          Media Hub.
        </p>
        <div className="kb-inv-actions">
          <Button variant="ghost" onClick={() => setConfirm(false)}>
            Keep it
          </Button>
          <Button variant="danger" onClick={() => void remove()}>
            Delete item
          </Button>
        </div>
      </Dialog>
    </article>
  );
}
