// /kaboodles/:id: one kaboodle, its members as a table or a grid in the kaboodle's order (drag and drop
// or Move up / Move down), notes, remove (after a confirmation), rename and describe, delete, export.
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button, countLabel, kaboodlesApi, type KaboodleMember } from '@kaboodle/kit';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { KaboodleFormDialog } from './kaboodle-form-dialog.tsx';
import { MembersGrid } from './members-grid.tsx';
import { MembersTable } from './members-table.tsx';
import { NoteDialog } from './note-dialog.tsx';
import { moveItem } from './reorder.ts';
import { useDragOrder } from './use-drag-order.ts';
import { useKaboodle } from './use-kaboodle.ts';
import './kaboodles.css';

const ref = (m: KaboodleMember) => ({ type: m.type, id: m.id });

export function KaboodleDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const state = useKaboodle(id);
  const k = state.kaboodle;
  const [view, setView] = useState<'table' | 'grid'>('table');
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [removing, setRemoving] = useState<KaboodleMember | null>(null);
  const [noting, setNoting] = useState<KaboodleMember | null>(null);
  const editable = k !== null && k.smart === null;
  const move = (from: number, to: number) => {
    if (!k || to < 0 || to >= k.members.length) return;
    void state.reorder(moveItem(k.members, from, to).map(ref));
  };
  const drag = useDragOrder(editable && !state.busy, move);

  if (state.status === 'loading')
    return (
      <p className="kb-muted" role="status">
        Loading the kaboodle...
      </p>
    );
  if (state.status === 'missing' || !k) {
    return (
      <section className="kb-kaboodles">
        <h1>Kaboodle not found</h1>
        <p className="kb-muted">{state.status === 'missing' ? 'It may have been deleted.' : state.error}</p>
        <Link to="/kaboodles">Back to your kaboodles</Link>
      </section>
    );
  }
  const actions = {
    editable,
    onMove: move,
    onNote: setNoting,
    onRemove: setRemoving,
  };
  return (
    <section className="kb-kaboodles" aria-labelledby="kb-kaboodle-heading">
      <p className="kb-kaboodle__back">
        <Link to="/kaboodles">← All kaboodles</Link>
      </p>
      <header className="kb-kaboodles__header">
        <div>
          <p className="kb-eyebrow">{k.smart ? 'Smart kaboodle' : 'Kaboodle'}</p>
          <h1 id="kb-kaboodle-heading">{k.name}</h1>
          {k.description && <p className="kb-kaboodle__description">{k.description}</p>}
          <p className="kb-muted">
            {countLabel(k.document_count, k.item_count)}
            {k.smart && ` · whatever matches “${k.smart.query}” now, best first`}
          </p>
        </div>
        <div className="kb-kaboodle__actions">
          <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
            Rename / describe
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setDeleting(true)}>
            Delete
          </Button>
        </div>
      </header>
      <div className="kb-kaboodle__toolbar">
        <div className="kb-views" role="radiogroup" aria-label="View">
          {(['table', 'grid'] as const).map((v) => (
            <button
              key={v}
              type="button"
              role="radio"
              aria-checked={view === v}
              className={`kb-views__option${view === v ? ' is-active' : ''}`}
              onClick={() => setView(v)}
            >
              {v === 'table' ? 'Table' : 'Grid'}
            </button>
          ))}
        </div>
        <div className="kb-kaboodle__export" role="group" aria-label="Export">
          {(['csv', 'json', 'bibtex'] as const).map((f) => (
            <a
              key={f}
              className="kb-button kb-button--ghost kb-button--sm"
              href={kaboodlesApi.exportUrl(k.id, f)}
              download
            >
              Export {f === 'bibtex' ? 'BibTeX' : f.toUpperCase()}
            </a>
          ))}
        </div>
      </div>
      {editable && k.members.length > 1 && (
        <p className="kb-muted kb-kaboodle__hint">Drag a row or card onto another to reorder, or use ↑ ↓.</p>
      )}
      {state.error && (
        <p role="alert" className="kb-error-text">
          {state.error}
        </p>
      )}
      {k.members.length === 0 ? (
        <div className="kb-kaboodles__empty kb-frame">
          <p>{k.smart ? 'Nothing matches this search yet.' : 'This kaboodle is empty.'}</p>
          {!k.smart && (
            <p className="kb-muted">
              Select documents in the <Link to="/documents">Document Vault</Link> or results in{' '}
              <Link to="/search">Search</Link>, then choose “Add to kaboodle”.
            </p>
          )}
        </div>
      ) : view === 'table' ? (
        <MembersTable members={k.members} drag={drag} smart={k.smart !== null} {...actions} />
      ) : (
        <MembersGrid
          members={k.members}
          drag={drag}
          smart={k.smart !== null}
          onCover={(m) => void state.update({ cover: ref(m) })}
          {...actions}
        />
      )}
      <KaboodleFormDialog
        open={editing}
        mode="edit"
        initial={{ name: k.name, description: k.description }}
        onClose={() => setEditing(false)}
        onSubmit={async (v) => {
          const problem = await state.update({ name: v.name, description: v.description });
          if (!problem) setEditing(false);
          return problem;
        }}
      />
      <ConfirmDialog
        open={deleting}
        title="Delete kaboodle?"
        confirmLabel="Delete"
        onCancel={() => setDeleting(false)}
        onConfirm={async () => {
          try {
            await kaboodlesApi.remove(k.id);
            void navigate('/kaboodles');
          } catch (err) {
            setDeleting(false);
            state.fail(err);
          }
        }}
      >
        <p>Delete “{k.name}”? Its documents and items stay in your library; only the collection goes.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={removing !== null}
        title="Remove from kaboodle?"
        confirmLabel="Remove"
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          if (removing) await state.removeMembers([ref(removing)]);
          setRemoving(null);
        }}
      >
        <p>
          Remove “{removing?.title || 'Untitled'}” from “{k.name}”? It stays in your library.
        </p>
      </ConfirmDialog>
      <NoteDialog
        member={noting}
        onClose={() => setNoting(null)}
        onSave={(m, note) => state.setNote(ref(m), note)}
      />
    </section>
  );
}
