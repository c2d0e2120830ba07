// /dashboard (docs/product.md#dashboard): welcome header, the four clickable cards, the four metric cards
// from GET /api/stats and Recent Activity from GET /api/activity. useDashboardData owns the fetching and
// the refresh rhythm (use-dashboard-data.ts); the parts below only render.
import { useRef } from 'react';
import { Banner, Button, displayNameOf, type RemoteAppProps } from '@kaboodle/kit';
import { createDashboardApi, type DashboardApi } from '../lib/dashboard-api.ts';
import { Metrics } from './metrics.tsx';
import { NavCards, WelcomeHeader } from './nav-cards.tsx';
import { RecentActivity } from './recent-activity.tsx';
import { SampleLibrary } from './sample-library.tsx';
import { useDashboardData } from './use-dashboard-data.ts';

export {
  ACTIVITY_SHOWN,
  BUSY_REFRESH_MS,
  IDLE_REFRESH_MS,
  WATCH_AFTER_FOCUS_MS,
  filesInFlight,
  nextRefreshMs,
} from './use-dashboard-data.ts';
export { metricsOf, type MetricView } from './metrics.tsx';
export { EMPTY_ACTIVITY } from './recent-activity.tsx';

export default function DashboardHome({
  user,
  openHelp,
  dashboardApi,
}: RemoteAppProps & { dashboardApi?: DashboardApi }) {
  const calls = useRef(dashboardApi ?? createDashboardApi()).current;
  const { stats, activity, error, reload, watch } = useDashboardData(calls);

  return (
    <section className="kbd-page" aria-labelledby="kbd-dashboard-title">
      <WelcomeHeader name={displayNameOf(user, 'Digital Archivist')} />
      <NavCards openHelp={openHelp} />

      {/* Below the shortcuts: it shows once the figures say the library is empty, and there it moves
          nothing a newcomer is looking at (layout shift). */}
      <SampleLibrary calls={calls} filesTotal={stats ? stats.files_total : null} onChanged={watch} />

      {error && (
        <Banner tone="error">
          {error}{' '}
          <Button size="sm" variant="ghost" onClick={reload}>
            Try again
          </Button>
        </Banner>
      )}

      <Metrics stats={stats} />
      <RecentActivity activity={activity} failed={error !== null} />
    </section>
  );
}
