// The dashboard's Recent Activity (GET /api/activity): the latest few, a link to the whole list, and a way
// to start when there is nothing yet.
import { Link } from 'react-router-dom';
import { ActivityList } from '../activity/activity-list.tsx';
import type { Activity } from '../lib/dashboard-api.ts';
import { ACTIVITY_SHOWN } from './use-dashboard-data.ts';

export const EMPTY_ACTIVITY = 'No recent activity. Start by processing some files!';

export function RecentActivity({ activity, failed }: { activity: Activity[] | null; failed: boolean }) {
  return (
    <section className="kbd-activity kb-frame" aria-labelledby="kbd-activity-title">
      <h2 id="kbd-activity-title" className="kbd-section-title">
        Recent Activity
      </h2>
      {activity === null ? (
        <p className="kbd-muted" role="status">
          {failed ? 'Recent activity is unavailable right now.' : 'Loading recent activity…'}
        </p>
      ) : activity.length === 0 ? (
        <div className="kbd-empty">
          <p>{EMPTY_ACTIVITY}</p>
          <Link className="kb-button" to="/process">
            Process Files Now
          </Link>
        </div>
      ) : (
        <>
          <ActivityList activity={activity.slice(0, ACTIVITY_SHOWN)} />
          <p className="kbd-activity__more">
            <Link to="/activity">
              {activity.length > ACTIVITY_SHOWN ? 'See all activity' : 'Open the activity list'}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
