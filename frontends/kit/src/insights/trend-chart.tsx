// One line per hashtag or category over the weeks or months of a trend window, drawn with Recharts
// (SVG). The figure's caption says the same in words (total and direction of each line) for anyone
// who does not read charts, and a table for screen readers holds every count the lines are drawn from.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TrendSeries, Trends } from './insights-api.ts';

const COLOURS = ['#2ee6d6', '#f5c542', '#ff4fd8', '#8b5cf6', '#4ef0a0', '#ffb347', '#ff5a7a', '#e8d8a8'];
const ARROW = { rising: '▲', falling: '▼', steady: '▶' } as const;

export function bucketLabel(iso: string, period: Trends['period']): string {
  const d = new Date(iso);
  return period === 'month'
    ? d.toLocaleDateString(undefined, { month: 'short', year: '2-digit', timeZone: 'UTC' })
    : d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

export interface TrendChartProps {
  trends: Trends;
  kind: 'hashtags' | 'categories';
  /** Lines drawn (the busiest first). */
  max?: number;
  height?: number;
}

export default function TrendChart({ trends, kind, max = 5, height = 220 }: TrendChartProps) {
  const series: TrendSeries[] = trends[kind].slice(0, max);
  const name = (s: TrendSeries) => (kind === 'hashtags' ? `#${s.key}` : s.key);
  const data = trends.buckets.map((b, i) => {
    const row: Record<string, string | number> = { bucket: bucketLabel(b, trends.period) };
    for (const s of series) row[name(s)] = s.counts[i] ?? 0;
    return row;
  });
  const span = `${trends.buckets.length} ${trends.period === 'week' ? 'weeks' : 'months'}`;
  if (series.length === 0) {
    return (
      <p className="kb-muted">
        No {kind === 'hashtags' ? 'hashtags' : 'categories'} in the last {span} yet.
      </p>
    );
  }
  return (
    <figure className="kb-trend-chart">
      <div className="kb-trend-chart__plot" style={{ height }} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            data={data}
            margin={{ top: 8, right: 12, bottom: 4, left: -16 }}
            accessibilityLayer={false}
          >
            <CartesianGrid stroke="rgba(245,197,66,0.12)" vertical={false} />
            <XAxis dataKey="bucket" stroke="#a3a8c3" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} stroke="#a3a8c3" tick={{ fontSize: 11 }} width={44} />
            <Tooltip
              contentStyle={{
                background: '#151936',
                border: '1px solid rgba(245,197,66,0.4)',
                color: '#efeadb',
              }}
            />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {series.map((s, i) => (
              <Line
                key={s.key}
                type="monotone"
                dataKey={name(s)}
                stroke={COLOURS[i % COLOURS.length]}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption>
        <ul className="kb-trend-chart__list">
          {series.map((s, i) => (
            <li key={s.key} data-direction={s.direction}>
              <span
                className="kb-trend-chart__swatch"
                style={{ background: COLOURS[i % COLOURS.length] }}
                aria-hidden="true"
              />
              <span className="kb-trend-chart__key">{name(s)}</span>{' '}
              <span className="kb-muted">
                {s.total} in {span},{' '}
              </span>
              <span className={`kb-trend-chart__dir kb-trend-chart__dir--${s.direction}`}>
                <span aria-hidden="true">{ARROW[s.direction]} </span>
                {s.direction}
              </span>
            </li>
          ))}
        </ul>
        <table className="kb-visually-hidden">
          <caption>Counts per {trends.period === 'week' ? 'week' : 'month'}</caption>
          <thead>
            <tr>
              <th scope="col">{trends.period === 'week' ? 'Week of' : 'Month'}</th>
              {series.map((s) => (
                <th key={s.key} scope="col">
                  {name(s)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((row, i) => (
              <tr key={trends.buckets[i]}>
                <th scope="row">{row.bucket}</th>
                {series.map((s) => (
                  <td key={s.key}>{row[name(s)]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
