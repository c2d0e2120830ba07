// Grid view: one card per document (title, author, year, category, summary, tags) and
// "Save as image", which draws the loaded cards into a PNG.
import { useState } from 'react';
import { Button, SampleBadge, type Selection } from '@kaboodle/kit';
import type { VaultDocument } from '../document-types.ts';
import { TagChips } from '../tag-chips.tsx';
import { saveGridImage } from './grid-image.ts';

export interface GridViewProps {
  docs: VaultDocument[];
  onOpen: (doc: VaultDocument) => void;
  onDownload: (doc: VaultDocument) => void;
  selection?: Selection;
}

export function GridView({ docs, onOpen, onDownload, selection }: GridViewProps) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await saveGridImage(docs, 'Kaboodle · Document Vault');
    } catch (err) {
      console.error('Saving the grid as an image failed', err);
      setError('The image could not be created in this browser.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="kb-grid-view">
      <div className="kb-grid-view__bar">
        <Button variant="secondary" size="sm" onClick={save} disabled={saving || docs.length === 0}>
          {saving ? 'Saving...' : 'Save as image'}
        </Button>
        {error && (
          <span role="alert" className="kb-error-text">
            {error}
          </span>
        )}
      </div>
      <ul className="kb-cards">
        {docs.map((d) => (
          <li key={d.id} className="kb-card kb-frame" data-testid="document-card">
            <h3 className="kb-card__title">
              <button type="button" className="kb-vault-link" onClick={() => onOpen(d)}>
                {d.title || d.file_name || 'Untitled'}
              </button>
              {d.sample && <SampleBadge />}
            </h3>
            <p className="kb-card__meta">
              {[d.author, d.publication_year, d.category].filter((v) => v !== '' && v != null).join(' · ')}
            </p>
            <p className="kb-card__summary">{d.summary || <span className="kb-muted">No summary.</span>}</p>
            <TagChips tags={d.hashtags} max={4} />
            <div className="kb-card__actions">
              {selection && (
                <label className="kb-card__select">
                  <input
                    type="checkbox"
                    className="kb-select-box"
                    checked={selection.has({ type: 'document', id: d.id })}
                    onChange={() => selection.toggle({ type: 'document', id: d.id })}
                  />
                  Select<span className="kb-visually-hidden"> {d.title || d.file_name || 'Untitled'}</span>
                </label>
              )}
              <Button
                size="sm"
                variant="ghost"
                onClick={() => onDownload(d)}
                aria-label={`Download ${d.title || 'document'}`}
              >
                Download
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
