// A kaboodle's members as a table, in the kaboodle's order: drag a row onto another to move it.
import type { KaboodleMember } from '@kaboodle/kit';
import { Link } from 'react-router-dom';
import { MemberActions, type MemberActionsProps } from './member-actions.tsx';
import type { DragOrder } from './use-drag-order.ts';

const TYPE = { document: 'Document', inventory_item: 'Item' } as const;

export interface MembersViewProps extends Omit<MemberActionsProps, 'member' | 'index' | 'count'> {
  members: KaboodleMember[];
  drag: DragOrder;
  smart: boolean;
}

export function MembersTable({ members, drag, smart, ...actions }: MembersViewProps) {
  return (
    <div className="kb-table-wrap kb-members-table">
      <table className="kb-table">
        <caption className="kb-visually-hidden">Members, in order</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Title</th>
            <th scope="col">Type</th>
            <th scope="col">Author / Material</th>
            <th scope="col">Category</th>
            <th scope="col">{smart ? 'Match' : 'Note'}</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {members.map((m, i) => (
            <tr
              key={`${m.type}:${m.id}`}
              data-testid="member-row"
              className="kb-member-row"
              {...drag.props(i)}
            >
              <td className="kb-num">
                {actions.editable && (
                  <span className="kb-drag-handle" aria-hidden="true">
                    ⠿
                  </span>
                )}
                {i + 1}
              </td>
              <td>
                <span className="kb-member-row__title">
                  {m.image_url && (
                    <img src={m.image_url} alt="" className="kb-member-row__thumb" loading="lazy" />
                  )}
                  <Link to={m.link}>{m.title || 'Untitled'}</Link>
                </span>
              </td>
              <td>{TYPE[m.type]}</td>
              <td>{m.subtitle || <span className="kb-muted">—</span>}</td>
              <td>{m.category || <span className="kb-muted">—</span>}</td>
              <td className="kb-member-row__note">
                {smart
                  ? `${Math.round((m.score ?? 0) * 100)}%`
                  : m.note || <span className="kb-muted">—</span>}
              </td>
              <td>
                <MemberActions member={m} index={i} count={members.length} {...actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
