// Hashtag and category trends with a week/month switch: the chart (lazy, so Recharts loads only when
// a trend is shown) and what is rising and falling, in words.
import { lazy, Suspense, useEffect, useState } from 'react';
import { insightsApi, type Trends } from './insights-api.ts';
import './insights.css';

const TrendChart = lazy(() => import('./trend-chart.tsx'));

export interface TrendsPanelProps {
  /** Already loaded (the observatory's overview): shown until the period changes. */
  initial?: Trends | null;
  title?: string;
  /** Lines per chart. */
  max?: number;
}

const PERIODS = { week: 12, month: 12 } as const;

export function TrendsPanel({ initial = null, title = 'Trends', max = 5 }: TrendsPanelProps) {
  const [period, setPeriod] = useState<'week' | 'month'>(initial?.period ?? 'week');
  const [kind, setKind] = useState<'hashtags' | 'categories'>('hashtags');
  const [trends, setTrends] = useState<Trends | null>(initial);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (initial && initial.period === period) {
      setTrends(initial);
      return;
    }
    const ctl = new AbortController();
    setError(null);
    insightsApi
      .trends(period, PERIODS[period], ctl.signal)
      .then(setTrends)
      .catch((err: unknown) => {
        if (!ctl.signal.aborted) setError(err instanceof Error ? err.message : String(err));
      });
    return () => ctl.abort();
  }, [period, initial]);

  return (
    <section className="kb-trends" aria-label={title}>
      <div className="kb-trends__bar">
        <h3 className="kb-trends__title">{title}</h3>
        <div className="kb-seg" role="radiogroup" aria-label="Trend lines">
          {(['hashtags', 'categories'] as const).map((k) => (
            <button
              key={k}
              type="button"
              role="radio"
              aria-checked={kind === k}
              className={`kb-seg__option${kind === k ? ' is-active' : ''}`}
              onClick={() => setKind(k)}
            >
              {k === 'hashtags' ? 'Hashtags' : 'Categories'}
            </button>
          ))}
        </div>
        <div className="kb-seg" role="radiogroup" aria-label="Period">
          {(['week', 'month'] as const).map((p) => (
            <button
              key={p}
              type="button"
              role="radio"
              aria-checked={period === p}
              className={`kb-seg__option${period === p ? ' is-active' : ''}`}
              onClick={() => setPeriod(p)}
            >
              {p === 'week' ? 'Weekly' : 'Monthly'}
            </button>
          ))}
        </div>
      </div>
      {error ? (
        <p role="alert" className="kb-error-text">
          {error}
        </p>
      ) : !trends ? (
        <p className="kb-muted" role="status">
          Loading trends...
        </p>
      ) : (
        <>
          <Suspense fallback={<p className="kb-muted">Drawing the chart...</p>}>
            <TrendChart trends={trends} kind={kind} max={max} />
          </Suspense>
          {(trends.rising.length > 0 || trends.falling.length > 0) && (
            <p className="kb-trends__summary">
              {trends.rising.length > 0 && <>Rising: {trends.rising.join(', ')}. </>}
              {trends.falling.length > 0 && <>Falling: {trends.falling.join(', ')}.</>}
            </p>
          )}
        </>
      )}
    </section>
  );
}
