// The "Add to kaboodle" dialog: put the selected documents and items in a new kaboodle or an
// existing one (smart kaboodles are not offered: their members are whatever their search finds).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../components/button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { kaboodleErrorText, kaboodlesApi, type KaboodleSummary, type MemberRef } from './kaboodles-api.ts';

/** What an add did: where to, how many were added and how many were there already. */
export type AddedToKaboodle = { id: string; name: string; added: number; already: number };

export function AddToKaboodleDialog({
  open,
  selection,
  onClose,
  onDone,
}: {
  open: boolean;
  selection: MemberRef[];
  onClose: () => void;
  onDone: (d: AddedToKaboodle) => void;
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

  const run = async (work: () => Promise<AddedToKaboodle>) => {
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
