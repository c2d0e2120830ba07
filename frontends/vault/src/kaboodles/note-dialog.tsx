// A member's note: why it is in this kaboodle ("bring two to the fair").
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button, Dialog, type KaboodleMember } from '@kaboodle/kit';

export function NoteDialog({
  member,
  onClose,
  onSave,
}: {
  member: KaboodleMember | null;
  onClose: () => void;
  onSave: (member: KaboodleMember, note: string) => Promise<void>;
}) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  useEffect(() => setNote(member?.note ?? ''), [member]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!member) return;
    setBusy(true);
    await onSave(member, note);
    setBusy(false);
    onClose();
  };
  return (
    <Dialog
      open={member !== null}
      onClose={onClose}
      title={`Note on “${member?.title || 'Untitled'}”`}
      maxWidth={520}
    >
      <form onSubmit={submit}>
        <div className="kb-field">
          <label htmlFor={id}>Note</label>
          <textarea
            id={id}
            rows={4}
            maxLength={1000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        <div className="kb-kaboodle-form__actions">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            Save note
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
