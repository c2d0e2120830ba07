// Create a kaboodle (plain, or smart from a saved search), or rename and describe one. The server's
// refusal ("Kaboodle name is required", "You already have a kaboodle named …") shows in the dialog.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button, Dialog } from '@kaboodle/kit';

export interface KaboodleFormValues {
  name: string;
  description: string;
  smart: { query: string; search_type: 'semantic' | 'keyword' } | null;
}

export interface KaboodleFormDialogProps {
  open: boolean;
  mode: 'create' | 'edit';
  initial?: { name: string; description: string };
  onClose: () => void;
  /** Resolves to an error text to show, or null when done. */
  onSubmit: (values: KaboodleFormValues) => Promise<string | null>;
}

export function KaboodleFormDialog({ open, mode, initial, onClose, onSubmit }: KaboodleFormDialogProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [smart, setSmart] = useState(false);
  const [query, setQuery] = useState('');
  const [searchType, setSearchType] = useState<'semantic' | 'keyword'>('semantic');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), description: useId(), query: useId(), type: useId() };

  useEffect(() => {
    if (!open) return;
    setName(initial?.name ?? '');
    setDescription(initial?.description ?? '');
    setSmart(false);
    setQuery('');
    setError(null);
  }, [open, initial?.name, initial?.description]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === '') return setError('Kaboodle name is required');
    if (smart && query.trim() === '') return setError('Search query is required');
    setBusy(true);
    const problem = await onSubmit({
      name: name.trim(),
      description: description.trim(),
      smart: smart ? { query: query.trim(), search_type: searchType } : null,
    });
    setBusy(false);
    if (problem) setError(problem);
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={mode === 'create' ? 'New kaboodle' : 'Rename and describe'}
      maxWidth={560}
    >
      <form onSubmit={submit} noValidate>
        {error && (
          <p role="alert" className="kb-error-text">
            {error}
          </p>
        )}
        <div className="kb-field">
          <label htmlFor={ids.name}>Name</label>
          <input
            id={ids.name}
            value={name}
            maxLength={100}
            required
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="kb-field">
          <label htmlFor={ids.description}>Description</label>
          <textarea
            id={ids.description}
            rows={3}
            value={description}
            maxLength={2000}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        {mode === 'create' && (
          <fieldset className="kb-kaboodle-form__smart">
            <legend>Smart kaboodle</legend>
            <label className="kb-kaboodle-form__check">
              <input type="checkbox" checked={smart} onChange={(e) => setSmart(e.target.checked)} />
              Fill it from a saved search: it always holds whatever matches now
            </label>
            {smart && (
              <div className="kb-kaboodle-form__row">
                <div className="kb-field">
                  <label htmlFor={ids.query}>Search for</label>
                  <input
                    id={ids.query}
                    value={query}
                    maxLength={1000}
                    placeholder="e.g. glass beads from the coast"
                    onChange={(e) => setQuery(e.target.value)}
                  />
                </div>
                <div className="kb-field">
                  <label htmlFor={ids.type}>Search type</label>
                  <select
                    id={ids.type}
                    value={searchType}
                    onChange={(e) => setSearchType(e.target.value as 'semantic' | 'keyword')}
                  >
                    <option value="semantic">Semantic Search</option>
                    <option value="keyword">Keyword Search</option>
                  </select>
                </div>
              </div>
            )}
          </fieldset>
        )}
        <div className="kb-kaboodle-form__actions">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : mode === 'create' ? 'Create kaboodle' : 'Save'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
