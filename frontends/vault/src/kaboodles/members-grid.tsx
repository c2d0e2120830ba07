// A kaboodle's members as a grid of cards (pictures for items, a first page for documents), in the
// kaboodle's order: drag a card onto another to move it; "Use as cover" picks the kaboodle's cover.
import { Link } from 'react-router-dom';
import { MemberActions } from './member-actions.tsx';
import type { MembersViewProps } from './members-table.tsx';
import type { KaboodleMember } from '@kaboodle/kit';

export function MembersGrid({
  members,
  drag,
  smart,
  onCover,
  ...actions
}: MembersViewProps & { onCover: (m: KaboodleMember) => void }) {
  return (
    <ul className="kb-member-grid">
      {members.map((m, i) => (
        <li
          key={`${m.type}:${m.id}`}
          className="kb-member-card kb-frame"
          data-testid="member-card"
          {...drag.props(i)}
        >
          {m.image_url ? (
            <img src={m.image_url} alt={m.title} className="kb-member-card__image" loading="lazy" />
          ) : (
            <div className="kb-member-card__page" aria-hidden="true">
              {m.summary || m.title}
            </div>
          )}
          <h3 className="kb-member-card__title">
            <span className="kb-num">{i + 1}.</span> <Link to={m.link}>{m.title || 'Untitled'}</Link>
          </h3>
          <p className="kb-member-card__meta">
            {[m.subtitle, m.category, m.year].filter(Boolean).join(' · ') ||
              (m.type === 'document' ? 'Document' : 'Item')}
          </p>
          {m.note && <p className="kb-member-card__note">“{m.note}”</p>}
          {smart && <p className="kb-member-card__meta">{Math.round((m.score ?? 0) * 100)}% match</p>}
          <div className="kb-member-card__foot">
            <MemberActions member={m} index={i} count={members.length} {...actions} />
            {actions.editable && (
              <button
                type="button"
                className="kb-vault-link"
                onClick={() => onCover(m)}
                aria-label={`Use ${m.title || 'Untitled'} as cover`}
              >
                Use as cover
              </button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
