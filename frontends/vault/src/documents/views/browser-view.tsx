// Browser view (docs/product.md#document-vault): the list on the left, a reader pane on the right with the
// summary, metadata with confidence (editable), the original file, the extracted text, related items and
// near-duplicates (GET /api/documents/:id, /api/search/related, /api/search/duplicates).
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, Button, FilePreview, Recommendations, SampleBadge } from '@kaboodle/kit';
import type { DocumentDetail, SearchHit, VaultDocument } from '../document-types.ts';
import { fetchDocument, fetchDuplicates, fetchRelated, previewUrl } from '../documents-api.ts';
import { MetadataEditor } from '../metadata-editor.tsx';

export interface BrowserViewProps {
  docs: VaultDocument[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  onDownload: (doc: VaultDocument) => void;
  onSaved: (doc: VaultDocument) => void;
}

function OriginalFile({ doc }: { doc: DocumentDetail }) {
  const type = doc.content_type ?? '';
  const src = previewUrl(doc.source_file_id ?? doc.id);
  const name = doc.file_name || doc.title || 'the document';
  const open = (
    <a href={src} target="_blank" rel="noopener noreferrer">
      Open the original
    </a>
  );
  // Pictures and PDF pages are drawn here; a text's words are all under "Extracted text" below.
  if (type.startsWith('image/') || type === 'application/pdf') {
    return (
      <>
        <FilePreview src={src} contentType={type} name={name} />
        <p className="kb-muted kb-reader__open">{open} in a new tab</p>
      </>
    );
  }
  if (type.startsWith('text/')) {
    return <p className="kb-muted">Plain text: the whole of it is under “Extracted text” below. {open}</p>;
  }
  return (
    <p className="kb-muted">
      {doc.file_name || 'The original file'} ({type || 'unknown type'}) cannot be drawn here: its text is
      under “Extracted text” below. {open}
    </p>
  );
}

function HitList({
  hits,
  empty,
  onOpenDocument,
}: {
  hits: SearchHit[] | null;
  empty: string;
  onOpenDocument: (id: string) => void;
}) {
  const navigate = useNavigate();
  if (hits === null) return <p className="kb-muted">Loading...</p>;
  if (hits.length === 0) return <p className="kb-muted">{empty}</p>;
  return (
    <ul className="kb-hits">
      {hits.map((h) => (
        <li key={`${h.type}:${h.id}`}>
          <button
            type="button"
            className="kb-vault-link"
            onClick={() =>
              h.type === 'inventory_item'
                ? navigate(`/inventory/${encodeURIComponent(h.id)}`)
                : onOpenDocument(h.id)
            }
          >
            {h.title || h.name || 'Untitled'}
          </button>
          <span className="kb-hits__meta">
            {h.type === 'inventory_item' ? 'Inventory Item' : 'Document'}
            {typeof h.score === 'number' ? ` · ${Math.round(h.score * 100)}%` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function BrowserView({ docs, selectedId, onSelect, onDownload, onSaved }: BrowserViewProps) {
  const [detail, setDetail] = useState<DocumentDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [related, setRelated] = useState<SearchHit[] | null>(null);
  const [duplicates, setDuplicates] = useState<SearchHit[] | null>(null);
  const current = selectedId ?? docs[0]?.id ?? null;

  useEffect(() => {
    if (!current) return;
    let live = true;
    setError(null);
    setDetail((d) => (d?.id === current ? d : null));
    setRelated(null);
    setDuplicates(null);
    fetchDocument(current)
      .then((d) => live && setDetail(d))
      .catch((err: unknown) => {
        console.error('Loading the document failed', err);
        if (live) setError(err instanceof Error ? err.message : 'The document could not be loaded.');
      });
    fetchRelated(current)
      .then((r) => live && setRelated(r.filter((h) => !(h.type === 'document' && h.id === current))))
      .catch((err: unknown) => {
        console.warn('Loading related items failed', err);
        if (live) setRelated([]);
      });
    fetchDuplicates(current)
      .then((r) => live && setDuplicates(r))
      .catch((err: unknown) => {
        console.warn('Loading near-duplicates failed', err);
        if (live) setDuplicates([]);
      });
    return () => {
      live = false;
    };
  }, [current]);

  return (
    <div className="kb-browser">
      <nav className="kb-browser__list" aria-label="Documents">
        {docs.length === 0 && <p className="kb-browser__empty kb-muted">No documents available.</p>}
        <ul>
          {docs.map((d) => (
            <li key={d.id}>
              <button
                type="button"
                className={`kb-browser__item${d.id === current ? ' is-active' : ''}`}
                aria-current={d.id === current ? 'true' : undefined}
                onClick={() => onSelect(d.id)}
              >
                <span className="kb-browser__item-title">
                  {d.title || d.file_name || 'Untitled'}
                  {d.sample && <SampleBadge />}
                </span>
                <span className="kb-browser__item-meta">
                  {[d.author, d.publication_year].filter((v) => v !== '' && v != null).join(' · ')}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <article className="kb-reader kb-frame" aria-live="polite" data-testid="reader">
        {!current && <p className="kb-muted">Choose a document to read it here.</p>}
        {error && (
          <p role="alert" className="kb-error-text">
            {error}
          </p>
        )}
        {current && !detail && !error && <p className="kb-muted">Loading...</p>}
        {detail && (
          <>
            <header className="kb-reader__head">
              <div>
                <h2 className="kb-reader__title">
                  {detail.title || detail.file_name || 'Untitled'}
                  {detail.sample && <SampleBadge />}
                </h2>
                <p className="kb-reader__meta">
                  {[detail.author, detail.publication_year, detail.journal_publisher, detail.category]
                    .filter((v) => v !== '' && v != null)
                    .join(' · ')}
                </p>
              </div>
              <Button size="sm" variant="secondary" onClick={() => onDownload(detail)}>
                Download
              </Button>
            </header>
            <section aria-label="Summary">
              <h3>Summary</h3>
              <p className="kb-reader__summary">
                {detail.summary || <span className="kb-muted">No summary.</span>}
              </p>
            </section>
            <MetadataEditor
              doc={detail}
              onSaved={(saved) => {
                setDetail(saved);
                onSaved(saved);
              }}
            />
            <section aria-label="Original file">
              <h3>Original file</h3>
              <OriginalFile doc={detail} />
            </section>
            <details className="kb-reader__text">
              <summary>
                Extracted text
                {detail.page_count ? ` (${detail.page_count} page${detail.page_count === 1 ? '' : 's'})` : ''}
              </summary>
              <pre>{detail.text || 'No text was extracted.'}</pre>
            </details>
            <div className="kb-reader__insights">
              <section aria-label="Related items">
                <h3>Related items</h3>
                <HitList hits={related} empty="Nothing related yet." onOpenDocument={onSelect} />
              </section>
              <section aria-label="Near-duplicates">
                <h3>Near-duplicates</h3>
                <HitList hits={duplicates} empty="No near-duplicates found." onOpenDocument={onSelect} />
              </section>
              <Recommendations
                context={[{ type: 'document', id: detail.id }]}
                exclude={(related ?? []).map((h) => ({ type: h.type, id: h.id }))}
                limit={5}
              />
            </div>
            <p className="kb-muted kb-reader__file">
              {detail.file_name} {detail.size ? `· ${(detail.size / 1024).toFixed(1)} KB` : ''}{' '}
              <a href={api.url(detail.url ?? `/api/documents/${encodeURIComponent(detail.id)}/file`)}>
                Download original
              </a>
            </p>
          </>
        )}
      </article>
    </div>
  );
}
