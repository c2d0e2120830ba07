// The metadata form: one labelled input per field with its hint or its problem, the save status,
// Save and Cancel.
import { useId, type FormEvent } from 'react';
import { Button } from '@kaboodle/kit';
import { EDITABLE_FIELDS, type EditableField, type MetadataForm as FormValues } from '../metadata-fields.ts';
import type { SaveStatus } from './use-metadata-editor.ts';

export interface MetadataFormProps {
  form: FormValues;
  errors: Partial<Record<EditableField, string>>;
  status: SaveStatus | null;
  corrected: ReadonlySet<string>;
  onChange: (key: EditableField, value: string) => void;
  onSave: (e: FormEvent) => void;
  onCancel: () => void;
}

export function MetadataForm({
  form,
  errors,
  status,
  corrected,
  onChange,
  onSave,
  onCancel,
}: MetadataFormProps) {
  const formId = useId();
  return (
    <form id={formId} onSubmit={onSave} noValidate className="kb-meta__form">
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
          onChange: (e: { target: { value: string } }) => onChange(f.key, e.target.value),
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
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
