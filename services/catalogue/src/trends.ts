// Hashtag and category trends: counts per week or month turned into series over a fixed window of
// periods, each with its direction (rising, falling, steady) from its recent buckets. Pure.
import type { BucketCount, Period } from './insights.repository.ts';

export interface TrendSeries {
  key: string;
  total: number;
  /** One count per bucket of the window, oldest first. */
  counts: number[];
  documents: number;
  items: number;
  direction: 'rising' | 'falling' | 'steady';
  /** Recent buckets against the earlier ones, in [-1, 1] (see recentChange). */
  change: number;
}

export interface Trends {
  period: Period;
  /** Start of each bucket (UTC), oldest first. */
  buckets: string[];
  hashtags: TrendSeries[];
  categories: TrendSeries[];
  /** The steepest climbers and fallers across both. */
  rising: string[];
  falling: string[];
}

/** The start (UTC) of the week (Monday, as Postgres date_trunc) or month holding `d`. */
export function bucketStart(d: Date, period: Period): Date {
  if (period === 'month') return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const day = (d.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day));
}

/** `periods` bucket starts ending with the one holding `now`. */
export function bucketWindow(now: Date, period: Period, periods: number): Date[] {
  const last = bucketStart(now, period);
  return Array.from({ length: periods }, (_, i) => {
    const back = periods - 1 - i;
    return period === 'month'
      ? new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - back, 1))
      : new Date(last.getTime() - back * 7 * 86_400_000);
  });
}

/**
 * How a series moved lately: the mean of its recent buckets (the last quarter of the window, at
 * least two) against the mean of the buckets before them since it first appeared, relative to the
 * larger of the two (so in [-1, 1]). A tag first seen in the recent buckets is rising (1).
 */
export function recentChange(counts: readonly number[]): number {
  const n = counts.length;
  const recentLength = Math.min(n, Math.max(2, Math.ceil(n / 4)));
  const first = counts.findIndex((c) => c > 0);
  if (first === -1) return 0;
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const recent = mean(counts.slice(n - recentLength));
  const before = counts.slice(first, n - recentLength);
  if (before.length === 0) return recent > 0 ? 1 : 0;
  const earlier = mean(before);
  const scale = Math.max(recent, earlier);
  return scale === 0 ? 0 : (recent - earlier) / scale;
}

/** Within ±this a series is "steady". */
const STEADY = 0.2;

export function series(rows: readonly BucketCount[], window: readonly Date[], top: number): TrendSeries[] {
  const index = new Map(window.map((d, i) => [d.getTime(), i]));
  const byKey = new Map<string, TrendSeries>();
  for (const r of rows) {
    const i = index.get(r.bucket.getTime());
    if (i === undefined) continue;
    const id = r.key.toLowerCase();
    let s = byKey.get(id);
    if (!s) {
      s = {
        key: r.key,
        total: 0,
        counts: window.map(() => 0),
        documents: 0,
        items: 0,
        direction: 'steady',
        change: 0,
      };
      byKey.set(id, s);
    }
    s.counts[i]! += r.n;
    s.total += r.n;
    if (r.kind === 'document') s.documents += r.n;
    else s.items += r.n;
  }
  const list = [...byKey.values()]
    .sort((a, b) => b.total - a.total || a.key.localeCompare(b.key))
    .slice(0, top);
  for (const s of list) {
    s.change = Math.round(recentChange(s.counts) * 1000) / 1000;
    s.direction = s.change > STEADY ? 'rising' : s.change < -STEADY ? 'falling' : 'steady';
  }
  return list;
}

export function buildTrends(
  period: Period,
  window: readonly Date[],
  hashtags: readonly BucketCount[],
  categories: readonly BucketCount[],
  top = 8,
): Trends {
  const h = series(hashtags, window, top);
  const c = series(categories, window, top);
  const all = [...h.map((s) => ({ ...s, key: `#${s.key}` })), ...c];
  return {
    period,
    buckets: window.map((d) => d.toISOString()),
    hashtags: h,
    categories: c,
    rising: all
      .filter((s) => s.direction === 'rising')
      .sort((a, b) => b.change - a.change || b.total - a.total)
      .slice(0, 3)
      .map((s) => s.key),
    falling: all
      .filter((s) => s.direction === 'falling')
      .sort((a, b) => a.change - b.change || b.total - a.total)
      .slice(0, 3)
      .map((s) => s.key),
  };
}
