// /activity: everything that happened to the user's files and entries, newest first, a page of 50
// at a time (the dashboard's Recent Activity shows only the latest few and links here).
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Banner, Button } from '@kaboodle/kit';
import { createDashboardApi, reasonOf, type Activity, type DashboardApi } from '../lib/dashboard-api.ts';
import { ActivityList } from './activity-list.tsx';

export const ACTIVITY_PAGE_SIZE = 50;

export default function ActivityPage({ dashboardApi }: { dashboardApi?: DashboardApi }) {
  const calls = useRef(dashboardApi ?? createDashboardApi()).current;
  const [entries, setEntries] = useState<Activity[] | null>(null);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nextPage = useRef(1);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const page = await calls.activity(ACTIVITY_PAGE_SIZE, undefined, nextPage.current);
      nextPage.current += 1;
      setEntries((current) => {
        const seen = new Set((current ?? []).map((a) => a.id));
        return [...(current ?? []), ...page.filter((a) => !seen.has(a.id))];
      });
      setMore(page.length === ACTIVITY_PAGE_SIZE);
      setError(null);
    } catch (err) {
      setError(reasonOf(err));
    } finally {
      setLoading(false);
    }
  }, [calls]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="kbd-page" aria-labelledby="kbd-activity-page-title">
      <header className="kbd-header">
        <div>
          <p className="kb-eyebrow">Everything so far</p>
          <h1 id="kbd-activity-page-title">Activity</h1>
          <p className="kbd-muted">
            What happened to your files, documents, items and kaboodles, newest first.
          </p>
        </div>
        <Link className="kb-button kb-button--ghost kb-button--sm" to="/dashboard">
          ← Back to Dashboard
        </Link>
      </header>
      {error && (
        <Banner tone="error">
          {error}{' '}
          <Button size="sm" variant="ghost" onClick={() => void load()}>
            Try again
          </Button>
        </Banner>
      )}
      <div className="kbd-activity kb-frame">
        {entries === null ? (
          <p className="kbd-muted" role="status">
            {error ? 'The activity list is unavailable right now.' : 'Loading the activity…'}
          </p>
        ) : entries.length === 0 ? (
          <p className="kbd-muted">No activity yet. Start by processing some files!</p>
        ) : (
          <ActivityList activity={entries} />
        )}
        {more && (
          <p className="kbd-activity__more">
            <Button variant="ghost" onClick={() => void load()} disabled={loading}>
              {loading ? 'Loading more…' : 'Show older activity'}
            </Button>
          </p>
        )}
      </div>
    </section>
  );
}
