// /dashboard (docs/product.md#dashboard): welcome header, the four clickable cards, the four metric cards
// from GET /api/stats and Recent Activity from GET /api/activity. While files are still in flight it
// refreshes every few seconds, and whenever the tab comes back into view, so the metrics follow
// files as they complete.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  Banner,
  Button,
  DecoIcon,
  Gears,
  displayNameOf,
  type DecoIconName,
  type RemoteAppProps,
} from '@kaboodle/kit';
import { ActivityList } from '../activity/activity-list.tsx';
import { SampleLibrary } from './sample-library.tsx';
import {
  createDashboardApi,
  reasonOf,
  type Activity,
  type DashboardApi,
  type Stats,
} from '../lib/dashboard-api.ts';
import { formatBytes, formatPercent } from '../lib/format.ts';

/** Refresh period while some file is still queued or processing. */
export const BUSY_REFRESH_MS = 4000;
/**
 * After the dashboard opens or its tab comes back into view, it refreshes at the busy rate for this
 * long even if nothing is in flight yet: uploads made elsewhere reach the catalogue's counts through
 * the event bus, which over Kafka takes a moment.
 */
export const WATCH_AFTER_FOCUS_MS = 20_000;
/** Refresh period otherwise (visible tab only), so files finished elsewhere show up in time. */
export const IDLE_REFRESH_MS = 30_000;

/** How long until the next refresh, from the latest stats and the end of the watch window. */
export function nextRefreshMs(stats: Stats | null, now: number, watchUntil: number): number {
  if ((stats !== null && filesInFlight(stats) > 0) || now < watchUntil) return BUSY_REFRESH_MS;
  return IDLE_REFRESH_MS;
}
export const EMPTY_ACTIVITY = 'No recent activity. Start by processing some files!';
/** Recent Activity shows this many; the rest is one link away (/activity), so the page stays short. */
export const ACTIVITY_SHOWN = 6;

/** Files neither completed nor failed yet (cancelled ones are not counted by the catalogue). */
export const filesInFlight = (s: Stats): number =>
  Math.max(0, s.files_total - s.files_completed - s.files_failed);

export interface MetricView {
  label: string;
  value: string;
  hint: string;
}

/** The four metric cards (docs/product.md#dashboard: the values are real). */
export function metricsOf(s: Stats | null): MetricView[] {
  const finished = s ? s.files_completed + s.files_failed : 0;
  return [
    {
      label: 'Documents Processed',
      value: s ? String(s.documents_processed) : '…',
      hint: 'in your Document Library',
    },
    { label: 'Archive Items', value: s ? String(s.inventory_items) : '…', hint: 'catalogued in the vault' },
    {
      label: 'Processing Efficiency',
      value: s ? formatPercent(s.processing_efficiency) : '…',
      hint:
        s && finished > 0 ? `${s.files_completed} of ${finished} files completed` : 'no file finished yet',
    },
    {
      label: 'Storage Utilized',
      value: s ? formatBytes(s.storage_bytes) : '…',
      hint: s ? `${s.files_total} file${s.files_total === 1 ? '' : 's'} stored` : 'of your uploads',
    },
  ];
}

interface CardProps {
  icon: DecoIconName;
  title: string;
  text: string;
  to?: string;
  onClick?: () => void;
}

function NavCard({ icon, title, text, to, onClick }: CardProps) {
  const body: ReactNode = (
    <>
      <span className="kbd-card__icon" aria-hidden="true">
        <DecoIcon name={icon} size={24} />
      </span>
      <span className="kbd-card__title">{title}</span>
      <span className="kbd-card__text">{text}</span>
      <span className="kbd-card__go" aria-hidden="true">
        {to ? 'Open →' : 'Show me →'}
      </span>
    </>
  );
  return to ? (
    <Link to={to} className="kbd-card kb-frame" data-testid="dashboard-card">
      {body}
    </Link>
  ) : (
    <button type="button" className="kbd-card kb-frame" onClick={onClick} data-testid="dashboard-card">
      {body}
    </button>
  );
}

export default function DashboardHome({
  user,
  openHelp,
  dashboardApi,
}: RemoteAppProps & { dashboardApi?: DashboardApi }) {
  const calls = useRef(dashboardApi ?? createDashboardApi()).current;
  const [stats, setStats] = useState<Stats | null>(null);
  const [activity, setActivity] = useState<Activity[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const watchUntil = useRef(0);
  // Bumped after every refresh, answered or not, so the next one is always scheduled.
  const [refreshes, setRefreshes] = useState(0);

  const load = useCallback(async () => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    const [s, a] = await Promise.allSettled([
      calls.stats(controller.signal),
      calls.activity(ACTIVITY_SHOWN + 1, controller.signal),
    ]);
    if (controller.signal.aborted) return;
    if (s.status === 'fulfilled') setStats(s.value);
    if (a.status === 'fulfilled') setActivity(a.value);
    const failed = [s, a].find((r): r is PromiseRejectedResult => r.status === 'rejected');
    setError(failed ? reasonOf(failed.reason) : null);
    setRefreshes((n) => n + 1);
  }, [calls]);

  useEffect(() => {
    const watch = () => {
      watchUntil.current = Date.now() + WATCH_AFTER_FOCUS_MS;
      void load();
    };
    watch();
    const onVisible = () => {
      if (document.visibilityState === 'visible') watch();
    };
    window.addEventListener('focus', onVisible);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('focus', onVisible);
      document.removeEventListener('visibilitychange', onVisible);
      inFlight.current?.abort();
    };
  }, [load]);

  // Quickly while something is being processed or just after the user came back, slowly otherwise;
  // never in a hidden tab (coming back refreshes at once).
  useEffect(() => {
    if (refreshes === 0) return;
    const timer = setTimeout(
      () => {
        if (document.visibilityState === 'visible') void load();
      },
      nextRefreshMs(stats, Date.now(), watchUntil.current),
    );
    return () => clearTimeout(timer);
  }, [refreshes, stats, load]);

  const name = displayNameOf(user, 'Digital Archivist');

  return (
    <section className="kbd-page" aria-labelledby="kbd-dashboard-title">
      <header className="kbd-welcome kb-frame">
        <div className="kbd-welcome__bg" aria-hidden="true" />
        <div className="kbd-welcome__text">
          <p className="kb-eyebrow">Command deck</p>
          <h1 id="kbd-dashboard-title">Dashboard</h1>
          <p className="kbd-welcome__greeting" data-testid="welcome-name">
            Welcome, <span className="kbd-welcome__name">{name}</span>
          </p>
          <p>
            <span className="kb-badge">System Active &amp; Ready</span>
          </p>
        </div>
        <span className="kbd-welcome__art" aria-hidden="true">
          <Gears size={150} speed={24} />
        </span>
      </header>

      <nav aria-label="Dashboard shortcuts" className="kbd-cards">
        <NavCard
          icon="prism"
          title="Process Intelligence"
          text="Upload files or paste links; Tick reads, summarises and tags them."
          to="/process"
        />
        <NavCard
          icon="crate"
          title="Archive Vault"
          text="Your catalogued inventory: photos, materials, prices and barcodes."
          to="/inventory"
        />
        <NavCard
          icon="book"
          title="Document Library"
          text="Every processed document: table, grid, graph and reader views."
          to="/documents"
        />
        <NavCard
          icon="compass"
          title="Guidance Portal"
          text="How to use Kaboodle, step by step."
          onClick={openHelp}
        />
      </nav>

      {/* Below the shortcuts: it shows once the figures say the library is empty, and there it moves
          nothing a newcomer is looking at (layout shift). */}
      <SampleLibrary
        calls={calls}
        filesTotal={stats ? stats.files_total : null}
        onChanged={() => {
          watchUntil.current = Date.now() + WATCH_AFTER_FOCUS_MS;
          void load();
        }}
      />

      {error && (
        <Banner tone="error">
          {error}{' '}
          <Button size="sm" variant="ghost" onClick={() => void load()}>
            Try again
          </Button>
        </Banner>
      )}

      <section aria-labelledby="kbd-metrics-title">
        <h2 id="kbd-metrics-title" className="kb-visually-hidden">
          Metrics
        </h2>
        <div className="kbd-metrics">
          {metricsOf(stats).map((m) => (
            <div
              key={m.label}
              className="kbd-metric kb-frame"
              aria-busy={stats === null}
              data-testid="metric"
              role="group"
              aria-label={m.label}
            >
              <span className="kbd-metric__label">{m.label}</span>
              <span className="kbd-metric__value" data-testid="metric-value">
                {m.value}
              </span>
              <span className="kbd-metric__hint">{m.hint}</span>
            </div>
          ))}
        </div>
      </section>

      <section className="kbd-activity kb-frame" aria-labelledby="kbd-activity-title">
        <h2 id="kbd-activity-title" className="kbd-section-title">
          Recent Activity
        </h2>
        {activity === null ? (
          <p className="kbd-muted" role="status">
            {error ? 'Recent activity is unavailable right now.' : 'Loading recent activity…'}
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
    </section>
  );
}
