// /kaboodles: the user's collections as cards (cover, name, counts, last change), with New kaboodle,
// Rename/describe and Delete (after a confirmation) on each card; a card opens the kaboodle.
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, countLabel, kaboodleErrorText, kaboodlesApi, type KaboodleSummary } from '@kaboodle/kit';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { KaboodleCover } from './kaboodle-cover.tsx';
import { KaboodleFormDialog, type KaboodleFormValues } from './kaboodle-form-dialog.tsx';
import { changedAgo } from './reorder.ts';
import './kaboodles.css';

export function KaboodlesScreen() {
  const [list, setList] = useState<KaboodleSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<KaboodleSummary | null>(null);
  const [deleting, setDeleting] = useState<KaboodleSummary | null>(null);
  const navigate = useNavigate();

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      setList(await kaboodlesApi.list(signal));
    } catch (err) {
      if (!signal?.aborted) setError(kaboodleErrorText(err));
    }
  }, []);
  useEffect(() => {
    const ctl = new AbortController();
    void load(ctl.signal);
    return () => ctl.abort();
  }, [load]);

  const create = async (v: KaboodleFormValues) => {
    try {
      const k = await kaboodlesApi.create({
        name: v.name,
        description: v.description,
        ...(v.smart ? { smart: v.smart } : {}),
      });
      setCreating(false);
      void navigate(`/kaboodles/${k.id}`);
      return null;
    } catch (err) {
      return kaboodleErrorText(err);
    }
  };
  const save = async (v: KaboodleFormValues) => {
    if (!editing) return null;
    try {
      await kaboodlesApi.update(editing.id, { name: v.name, description: v.description });
      setEditing(null);
      await load();
      return null;
    } catch (err) {
      return kaboodleErrorText(err);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await kaboodlesApi.remove(deleting.id);
      setDeleting(null);
      await load();
    } catch (err) {
      setDeleting(null);
      setError(kaboodleErrorText(err));
    }
  };

  return (
    <section className="kb-kaboodles" aria-labelledby="kb-kaboodles-heading">
      <header className="kb-kaboodles__header">
        <div>
          <p className="kb-eyebrow">Collections</p>
          <h1 id="kb-kaboodles-heading">Kaboodles</h1>
          <p className="kb-muted">
            Gather documents and inventory items into named collections; open one to order, note and export
            it.
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>New kaboodle</Button>
      </header>
      {error && (
        <p role="alert" className="kb-error-text">
          {error}
        </p>
      )}
      {list === null && !error ? (
        <p className="kb-muted" role="status">
          Loading kaboodles...
        </p>
      ) : list && list.length === 0 ? (
        <div className="kb-kaboodles__empty kb-frame">
          <p>No kaboodles yet.</p>
          <p className="kb-muted">
            Create one here, or select documents in the <Link to="/documents">Document Vault</Link> or results
            in <Link to="/search">Search</Link> and choose “Add to kaboodle”.
          </p>
        </div>
      ) : (
        <ul className="kb-kaboodle-cards">
          {(list ?? []).map((k) => (
            <li key={k.id} className="kb-kaboodle-card kb-frame" data-testid="kaboodle-card">
              <Link
                to={`/kaboodles/${k.id}`}
                className="kb-kaboodle-card__open"
                aria-label={`Open ${k.name}`}
              >
                <KaboodleCover cover={k.cover} smart={k.smart !== null} />
              </Link>
              <div className="kb-kaboodle-card__body">
                <h2 className="kb-kaboodle-card__name">
                  <Link to={`/kaboodles/${k.id}`}>{k.name}</Link>
                  {k.smart && <span className="kb-kaboodle-card__smart">Smart</span>}
                </h2>
                {k.description && <p className="kb-kaboodle-card__description">{k.description}</p>}
                <p className="kb-kaboodle-card__meta">
                  {countLabel(k.document_count, k.item_count)} · updated {changedAgo(k.updated_at)}
                </p>
                <div className="kb-kaboodle-card__actions">
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setEditing(k)}
                    aria-label={`Rename or describe ${k.name}`}
                  >
                    Rename
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setDeleting(k)}
                    aria-label={`Delete ${k.name}`}
                  >
                    Delete
                  </Button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <KaboodleFormDialog
        open={creating}
        mode="create"
        onClose={() => setCreating(false)}
        onSubmit={create}
      />
      <KaboodleFormDialog
        open={editing !== null}
        mode="edit"
        initial={editing ?? undefined}
        onClose={() => setEditing(null)}
        onSubmit={save}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete kaboodle?"
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={remove}
      >
        <p>
          {deleting && deleting.member_count > 0
            ? `Delete “${deleting.name}”? Its ${countLabel(deleting.document_count, deleting.item_count)} stay in your library; only the collection goes.`
            : `Delete “${deleting?.name ?? ''}”? It holds nothing.`}
        </p>
      </ConfirmDialog>
    </section>
  );
}
