// "Add to kaboodle": the bar shown while documents or items are selected, and its dialog to put them
// in an existing kaboodle or a new one. Shared by the vault, the search results and the inventory.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../components/button.tsx';
import { AddToKaboodleDialog, type AddedToKaboodle } from './add-to-kaboodle-dialog.tsx';
import type { MemberRef } from './kaboodles-api.ts';
import './kaboodles.css';

export interface AddToKaboodleProps {
  selection: MemberRef[];
  onClear: () => void;
  /** After a successful add (the caller may clear its selection). */
  onAdded?: (result: { kaboodleId: string; name: string; added: number }) => void;
  /** What one selected thing is called here ("document", "item", "result"). */
  noun?: string;
}

type Done = AddedToKaboodle;

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

export interface AddToKaboodleButtonProps {
  selection: MemberRef[];
  /** After a successful add: where to and how many (the caller says so and clears its selection). */
  onAdded: (result: AddedToKaboodle) => void;
  size?: 'sm' | 'md';
  variant?: 'primary' | 'secondary' | 'ghost';
  label?: string;
}

/** The button and its dialog alone, for a screen that has its own selection bar (the inventory). */
export function AddToKaboodleButton({
  selection,
  onAdded,
  size = 'sm',
  variant = 'secondary',
  label = 'Add to kaboodle',
}: AddToKaboodleButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size={size} variant={variant} disabled={selection.length === 0} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <AddToKaboodleDialog
        open={open}
        selection={selection}
        onClose={() => setOpen(false)}
        onDone={(d) => {
          setOpen(false);
          onAdded(d);
        }}
      />
    </>
  );
}
