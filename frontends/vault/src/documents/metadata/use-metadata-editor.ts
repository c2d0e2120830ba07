// The metadata editor's state: reading or editing, the form's values and problems, and the save
// (PATCH /api/documents/:id with only what changed), whose outcome is told in a status line.
import { useState, type FormEvent } from 'react';
import { isApiError } from '@kaboodle/kit';
import type { DocumentDetail } from '../document-types.ts';
import { updateDocument } from '../documents-api.ts';
import {
  formFrom,
  patchFrom,
  validateForm,
  type EditableField,
  type MetadataForm,
} from '../metadata-fields.ts';

export interface SaveStatus {
  kind: 'saving' | 'saved' | 'error' | 'unchanged';
  text?: string;
}

export function useMetadataEditor(doc: DocumentDetail, onSaved: (doc: DocumentDetail) => void) {
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<MetadataForm>(() => formFrom(doc));
  const [errors, setErrors] = useState<Partial<Record<EditableField, string>>>({});
  const [status, setStatus] = useState<SaveStatus | null>(null);
  const [shownId, setShownId] = useState(doc.id);

  // Another document: back to reading it (set while rendering, so the old form never shows for it).
  if (shownId !== doc.id) {
    setShownId(doc.id);
    setEditing(false);
    setForm(formFrom(doc));
    setErrors({});
    setStatus(null);
  }

  const edit = () => {
    setEditing(true);
    setStatus(null);
  };
  const cancel = () => {
    setEditing(false);
    setForm(formFrom(doc));
    setErrors({});
    setStatus(null);
  };
  const change = (key: EditableField, value: string) => setForm((prev) => ({ ...prev, [key]: value }));

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
      setStatus({ kind: 'error', text: isApiError(err) ? err.message : 'Saving failed. Please try again.' });
    }
  };

  return { editing, form, errors, status, edit, cancel, change, save };
}
