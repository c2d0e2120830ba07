// Small parts of the reader: the original file (drawn when it can be), and a list of search hits
// (related items, near-duplicates) whose documents open here and whose items open in the inventory.
import { useNavigate } from 'react-router-dom';
import { Banner, FilePreview } from '@kaboodle/kit';
import type { DocumentDetail } from '../../document-types.ts';
import { previewUrl } from '../../documents-api.ts';
import type { HitsState } from './use-document-detail.ts';

export function OriginalFile({ doc }: { doc: DocumentDetail }) {
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

export function HitList({
  state,
  empty,
  onOpenDocument,
}: {
  state: HitsState;
  empty: string;
  onOpenDocument: (id: string) => void;
}) {
  const navigate = useNavigate();
  const { hits, error } = state;
  if (error) return <Banner tone="error">{error}</Banner>;
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
