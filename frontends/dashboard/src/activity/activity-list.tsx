// A list of activity entries (what happened to the user's files and entries), each with its icon,
// a link to what it names when that still exists, and how long ago. Used by the dashboard's Recent
// Activity and the full list at /activity.
import { Link } from 'react-router-dom';
import { DecoIcon, type DecoIconName } from '@kaboodle/kit';
import { activityLink, type Activity } from '../lib/dashboard-api.ts';
import { relativeTime } from '../lib/format.ts';

const ACTIVITY_ICONS: Record<string, DecoIconName> = {
  uploaded: 'upload',
  processed: 'prism',
  failed: 'shield',
  deleted: 'crate',
  edited: 'pen',
};

export function ActivityList({ activity }: { activity: Activity[] }) {
  const now = Date.now();
  return (
    <ul className="kbd-activity__list">
      {activity.map((a) => {
        const link = activityLink(a);
        return (
          <li key={a.id} className="kbd-activity__item" data-testid="activity-item">
            <span className="kbd-activity__dot" data-type={a.type} aria-hidden="true">
              <DecoIcon name={ACTIVITY_ICONS[a.type] ?? 'scroll'} size={16} />
            </span>
            <span>{link ? <Link to={link}>{a.message || a.file_name}</Link> : a.message || a.file_name}</span>
            <time className="kbd-activity__time" dateTime={a.at} title={new Date(a.at).toLocaleString()}>
              {relativeTime(a.at, now)}
            </time>
          </li>
        );
      })}
    </ul>
  );
}
