// "Add to kaboodle": the bar shown while documents or items are selected, and its dialog to put them
// in an existing kaboodle or a new one. Shared by the vault, the search results and the inventory.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../components/button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { kaboodleErrorText, kaboodlesApi, type KaboodleSummary, type MemberRef } from './kaboodles-api.ts';
import './kaboodles.css';

export interface AddToKaboodleProps {
  selection: MemberRef[];
  onClear: () => void;
  /** After a successful add (the caller may clear its selection). */
  onAdded?: (result: { kaboodleId: string; name: string; added: number }) => void;
  /** What one selected thing is called here ("document", "item", "result"). */
  noun?: string;
}

type Done = { id: string; name: string; added: number; already: number };

export function AddToKaboodle({ selection, onClear, onAdded, noun = 'selected' }: AddToKaboodleProps) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  const count = selection.length;
  useEffect(() => {
    if (count > 0) setDone(null);
  }, [count]);

  if (count === 0 && !done) return null;
  return (
    <div className="kb-add-bar kb-frame" role="region" aria-label="Selection">
      {count > 0 ? (
        <>
          <span className="kb-add-bar__count" aria-live="polite">
            {count} {noun}
          </span>
          <Button size="sm" onClick={() => setOpen(true)}>
            Add to kaboodle
          </Button>
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        </>
      ) : (
        done && (
          <p role="status" className="kb-add-bar__done">
            Added {done.added} to <Link to={`/kaboodles/${done.id}`}>{done.name}</Link>
            {done.already > 0 ? ` (${done.already} already there)` : ''}.
          </p>
        )
      )}
      <AddToKaboodleDialog
        open={open}
        selection={selection}
        onClose={() => setOpen(false)}
        onDone={(d) => {
          setOpen(false);
          setDone(d);
          onAdded?.({ kaboodleId: d.id, name: d.name, added: d.added });
          onClear();
        }}
      />
    </div>
  );
}

function AddToKaboodleDialog({
  open,
  selection,
  onClose,
  onDone,
}: {
  open: boolean;
  selection: MemberRef[];
  onClose: () => void;
  onDone: (d: Done) => void;
}) {
  const [list, setList] = useState<KaboodleSummary[] | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();

  useEffect(() => {
    if (!open) return;
    setError(null);
    setName('');
    const ctl = new AbortController();
    kaboodlesApi
      .list(ctl.signal)
      .then((all) => setList(all.filter((k) => !k.smart)))
      .catch((err: unknown) => {
        if (!ctl.signal.aborted) setError(kaboodleErrorText(err));
      });
    return () => ctl.abort();
  }, [open]);

  const run = async (work: () => Promise<Done>) => {
    setBusy(true);
    setError(null);
    try {
      onDone(await work());
    } catch (err) {
      setError(kaboodleErrorText(err));
    } finally {
      setBusy(false);
    }
  };
  const addTo = (k: KaboodleSummary) =>
    run(async () => {
      const r = await kaboodlesApi.addMembers(k.id, selection);
      return { id: k.id, name: k.name, added: r.added, already: r.already };
    });
  const createNew = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === '') return setError('Kaboodle name is required');
    void run(async () => {
      const k = await kaboodlesApi.create({ name: name.trim(), members: selection });
      return { id: k.id, name: k.name, added: k.member_count, already: 0 };
    });
  };

  return (
    <Dialog open={open} onClose={onClose} title="Add to kaboodle" maxWidth={520}>
      <p className="kb-muted">
        {selection.length} {selection.length === 1 ? 'document or item' : 'documents and items'} will be
        added.
      </p>
      {error && (
        <p role="alert" className="kb-error-text">
          {error}
        </p>
      )}
      <form className="kb-add-new" onSubmit={createNew}>
        <div className="kb-field">
          <label htmlFor={nameId}>New kaboodle</label>
          <input
            id={nameId}
            value={name}
            maxLength={100}
            placeholder="Name it, e.g. Summer fair"
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <Button type="submit" disabled={busy}>
          Create and add
        </Button>
      </form>
      <h3 className="kb-add-existing__title">Or add to an existing one</h3>
      {list === null && !error ? (
        <p className="kb-muted" role="status">
          Loading kaboodles...
        </p>
      ) : list && list.length === 0 ? (
        <p className="kb-muted">You have no kaboodles yet.</p>
      ) : (
        <ul className="kb-add-existing">
          {(list ?? []).map((k) => (
            <li key={k.id}>
              <button
                type="button"
                className="kb-add-existing__choice"
                disabled={busy}
                onClick={() => void addTo(k)}
              >
                <span className="kb-add-existing__name">{k.name}</span>
                <span className="kb-muted">{k.member_count} inside</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
