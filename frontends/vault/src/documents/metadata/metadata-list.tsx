// The metadata as read: each field's value with the AI's confidence (its provenance in the tooltip),
// or a "corrected" mark on the fields a person has corrected.
import type { DocumentDetail, FieldProvenance } from '../document-types.ts';
import { EDITABLE_FIELDS, type EditableField } from '../metadata-fields.ts';
import { TagChips } from '../tag-chips.tsx';

function Confidence({ p }: { p: FieldProvenance | undefined }) {
  if (!p || typeof p.confidence !== 'number') return null;
  const pct = Math.round(p.confidence * 100);
  const level = pct >= 75 ? 'high' : pct >= 45 ? 'mid' : 'low';
  const how = [p.method, p.source].filter(Boolean).join(', ');
  return (
    <span
      className={`kb-confidence kb-confidence--${level}`}
      title={[how && `From ${how}`, p.evidence && `“${p.evidence}”`].filter(Boolean).join(' · ') || undefined}
    >
      {pct}% confidence
    </span>
  );
}

function valueText(doc: DocumentDetail, key: EditableField): string {
  switch (key) {
    case 'publication_year':
      return doc.publication_year == null ? '' : String(doc.publication_year);
    case 'influenced_by':
      return doc.influenced_by.join(', ');
    case 'hashtags':
      return '';
    default:
      return doc[key];
  }
}

export function MetadataList({ doc, corrected }: { doc: DocumentDetail; corrected: ReadonlySet<string> }) {
  return (
    <dl className="kb-meta__list">
      {EDITABLE_FIELDS.map((f) => (
        <div key={f.key} className={`kb-meta__item${corrected.has(f.key) ? ' is-corrected' : ''}`}>
          <dt>
            {f.label}
            {corrected.has(f.key) && <span className="kb-corrected-badge">corrected</span>}
            {!corrected.has(f.key) && <Confidence p={doc.provenance?.[f.key]} />}
          </dt>
          <dd>
            {f.key === 'hashtags' ? (
              doc.hashtags.length > 0 ? (
                <TagChips tags={doc.hashtags} max={20} />
              ) : (
                <span className="kb-muted">—</span>
              )
            ) : (
              valueText(doc, f.key) || <span className="kb-muted">—</span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
