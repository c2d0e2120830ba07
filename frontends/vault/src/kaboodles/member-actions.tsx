// What each member offers wherever it is shown (table row or grid card): move up and down (the
// keyboard's drag and drop), a note, and remove from the kaboodle.
import type { KaboodleMember } from '@kaboodle/kit';

export interface MemberActionsProps {
  member: KaboodleMember;
  index: number;
  count: number;
  /** False for a smart kaboodle: its search decides members and order. */
  editable: boolean;
  onMove: (from: number, to: number) => void;
  onNote: (member: KaboodleMember) => void;
  onRemove: (member: KaboodleMember) => void;
}

export function MemberActions({
  member,
  index,
  count,
  editable,
  onMove,
  onNote,
  onRemove,
}: MemberActionsProps) {
  if (!editable) return null;
  const title = member.title || 'Untitled';
  return (
    <div className="kb-member-actions">
      <button
        type="button"
        className="kb-member-actions__icon"
        aria-label={`Move ${title} up`}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="kb-member-actions__icon"
        aria-label={`Move ${title} down`}
        disabled={index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        ↓
      </button>
      <button
        type="button"
        className="kb-vault-link"
        onClick={() => onNote(member)}
        aria-label={`Note on ${title}`}
      >
        Note
      </button>
      <button
        type="button"
        className="kb-vault-link kb-member-actions__remove"
        onClick={() => onRemove(member)}
        aria-label={`Remove ${title}`}
      >
        Remove
      </button>
    </div>
  );
}
