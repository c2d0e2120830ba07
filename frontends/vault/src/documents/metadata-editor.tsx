// The reader's metadata: each field with the AI's confidence (provenance) and a mark on corrected
// fields; "Edit metadata" turns it into a form that PATCHes only what changed.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button, isApiError } from '@kaboodle/kit';
import type { DocumentDetail, FieldProvenance } from './document-types.ts';
import { updateDocument } from './documents-api.ts';
import {
  EDITABLE_FIELDS,
  formFrom,
  patchFrom,
  validateForm,
  type EditableField,
  type MetadataForm,
} from './metadata-fields.ts';
import { TagChips } from './tag-chips.tsx';

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

export function MetadataEditor({
  doc,
  onSaved,
}: {
  doc: DocumentDetail;
  onSaved: (doc: DocumentDetail) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<MetadataForm>(() => formFrom(doc));
  const [errors, setErrors] = useState<Partial<Record<EditableField, string>>>({});
  const [status, setStatus] = useState<{
    kind: 'saving' | 'saved' | 'error' | 'unchanged';
    text?: string;
  } | null>(null);
  const formId = useId();

  useEffect(() => {
    setEditing(false);
    setForm(formFrom(doc));
    setErrors({});
    setStatus(null);
  }, [doc.id]);

  const corrected = new Set(doc.corrected_fields ?? []);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const problems = validateForm(form);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      setStatus({ kind: 'error', text: 'Please fix the highlighted fields.' });
      return;
    }
    const patch = patchFrom(doc, form);
    if (Object.keys(patch).length === 0) {
      setEditing(false);
      setStatus({ kind: 'unchanged', text: 'Nothing changed.' });
      return;
    }
    setStatus({ kind: 'saving' });
    try {
      const saved = await updateDocument(doc.id, patch);
      onSaved(saved);
      setForm(formFrom(saved));
      setEditing(false);
      setStatus({ kind: 'saved', text: 'Saved. Search results update in a moment.' });
    } catch (err) {
      console.error('Saving the metadata failed', err);
      setStatus({ kind: 'error', text: isApiError(err) ? err.message : 'Saving failed. Please try again.' });
    }
  };

  if (!editing) {
    return (
      <section className="kb-meta" aria-label="Metadata">
        <div className="kb-meta__head">
          <h3>Metadata</h3>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              setEditing(true);
              setStatus(null);
            }}
          >
            Edit metadata
          </Button>
        </div>
        {status && (
          <p role="status" className={`kb-meta__status kb-meta__status--${status.kind}`}>
            {status.text}
          </p>
        )}
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
      </section>
    );
  }

  return (
    <section className="kb-meta" aria-label="Edit metadata">
      <form id={formId} onSubmit={save} noValidate className="kb-meta__form">
        <div className="kb-meta__head">
          <h3>Edit metadata</h3>
        </div>
        {EDITABLE_FIELDS.map((f) => {
          const id = `${formId}-${f.key}`;
          const error = errors[f.key];
          const common = {
            id,
            value: form[f.key],
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error ? `${id}-error` : f.hint ? `${id}-hint` : undefined,
            onChange: (e: { target: { value: string } }) =>
              setForm((prev) => ({ ...prev, [f.key]: e.target.value })),
          };
          return (
            <div key={f.key} className={`kb-field${corrected.has(f.key) ? ' is-corrected' : ''}`}>
              <label htmlFor={id}>
                {f.label}
                {corrected.has(f.key) && <span className="kb-corrected-badge">corrected</span>}
              </label>
              {f.multiline ? (
                <textarea rows={3} {...common} />
              ) : (
                <input
                  type="text"
                  inputMode={f.key === 'publication_year' ? 'numeric' : undefined}
                  {...common}
                />
              )}
              {f.hint && !error && (
                <small id={`${id}-hint`} className="kb-muted">
                  {f.hint}
                </small>
              )}
              {error && (
                <small id={`${id}-error`} className="kb-error-text">
                  {error}
                </small>
              )}
            </div>
          );
        })}
        {status && (
          <p
            role={status.kind === 'error' ? 'alert' : 'status'}
            className={`kb-meta__status kb-meta__status--${status.kind}`}
          >
            {status.kind === 'saving' ? 'Saving...' : status.text}
          </p>
        )}
        <div className="kb-meta__actions">
          <Button type="submit" disabled={status?.kind === 'saving'}>
            Save
          </Button>
          <Button
            variant="ghost"
            onClick={() => {
              setEditing(false);
              setForm(formFrom(doc));
              setErrors({});
              setStatus(null);
            }}
          >
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}
