// The reader pane's content for one loaded document: title and byline, summary, the metadata
// (editable), the original file, the extracted text, related items, near-duplicates and
// recommendations, and the download link.
import { api, Button, Recommendations, SampleBadge } from '@kaboodle/kit';
import type { DocumentDetail, VaultDocument } from '../../document-types.ts';
import { MetadataEditor } from '../../metadata-editor.tsx';
import { HitList, OriginalFile } from './reader-parts.tsx';
import type { HitsState } from './use-document-detail.ts';

export interface DocumentReaderProps {
  detail: DocumentDetail;
  related: HitsState;
  duplicates: HitsState;
  onSelect: (id: string) => void;
  onDownload: (doc: VaultDocument) => void;
  onSaved: (doc: DocumentDetail) => void;
}

export function DocumentReader({
  detail,
  related,
  duplicates,
  onSelect,
  onDownload,
  onSaved,
}: DocumentReaderProps) {
  return (
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
      <MetadataEditor doc={detail} onSaved={onSaved} />
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
          <HitList state={related} empty="Nothing related yet." onOpenDocument={onSelect} />
        </section>
        <section aria-label="Near-duplicates">
          <h3>Near-duplicates</h3>
          <HitList state={duplicates} empty="No near-duplicates found." onOpenDocument={onSelect} />
        </section>
        <Recommendations
          context={[{ type: 'document', id: detail.id }]}
          exclude={(related.hits ?? []).map((h) => ({ type: h.type, id: h.id }))}
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
  );
}
