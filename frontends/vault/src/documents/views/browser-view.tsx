// Browser view (docs/product.md#document-vault): the list on the left, a reader pane on the right with the
// summary, metadata with confidence (editable), the original file, the extracted text, related items and
// near-duplicates. The reader's data comes from browser/use-document-detail.ts.
import { SampleBadge } from '@kaboodle/kit';
import type { VaultDocument } from '../document-types.ts';
import { DocumentReader } from './browser/document-reader.tsx';
import { useDocumentDetail } from './browser/use-document-detail.ts';

export interface BrowserViewProps {
  docs: VaultDocument[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  onDownload: (doc: VaultDocument) => void;
  onSaved: (doc: VaultDocument) => void;
}

export function BrowserView({ docs, selectedId, onSelect, onDownload, onSaved }: BrowserViewProps) {
  const current = selectedId ?? docs[0]?.id ?? null;
  const { detail, setDetail, error, related, duplicates } = useDocumentDetail(current);

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
          <DocumentReader
            detail={detail}
            related={related}
            duplicates={duplicates}
            onSelect={onSelect}
            onDownload={onDownload}
            onSaved={(saved) => {
              setDetail(saved);
              onSaved(saved);
            }}
          />
        )}
      </article>
    </div>
  );
}
