// The dashboard's figures (docs/product.md#dashboard): GET /api/stats and GET /api/activity, refreshed every
// few seconds while files are still in flight, and whenever the tab comes back into view, so the metrics
// follow files as they complete.
import { useCallback, useEffect, useRef, useState } from 'react';
import { reasonOf, type Activity, type DashboardApi, type Stats } from '../lib/dashboard-api.ts';

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
/** Recent Activity shows this many; the rest is one link away (/activity), so the page stays short. */
export const ACTIVITY_SHOWN = 6;

/** Files neither completed nor failed yet (cancelled ones are not counted by the catalogue). */
export const filesInFlight = (s: Stats): number =>
  Math.max(0, s.files_total - s.files_completed - s.files_failed);

/** How long until the next refresh, from the latest stats and the end of the watch window. */
export function nextRefreshMs(stats: Stats | null, now: number, watchUntil: number): number {
  if ((stats !== null && filesInFlight(stats) > 0) || now < watchUntil) return BUSY_REFRESH_MS;
  return IDLE_REFRESH_MS;
}

export interface DashboardData {
  stats: Stats | null;
  /** One more than shown, so the page knows whether there is more; null until the first answer. */
  activity: Activity[] | null;
  /** Why the last refresh failed (shown in the error banner), or null. */
  error: string | null;
  /** Refreshes now. */
  reload(): void;
  /** Refreshes now and at the busy rate for a while (after the user changed something). */
  watch(): void;
}

export function useDashboardData(calls: DashboardApi): DashboardData {
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

  const watch = useCallback(() => {
    watchUntil.current = Date.now() + WATCH_AFTER_FOCUS_MS;
    void load();
  }, [load]);

  useEffect(() => {
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
  }, [watch]);

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

  return { stats, activity, error, reload: () => void load(), watch };
}
