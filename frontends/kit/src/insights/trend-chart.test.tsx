// The trend chart's text equivalents: the caption's words and a table of every count drawn.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import TrendChart from './trend-chart.tsx';
import type { Trends } from './insights-api.ts';

const series = (key: string, counts: number[], direction: 'rising' | 'falling' | 'steady') => ({
  key,
  counts,
  total: counts.reduce((a, b) => a + b, 0),
  documents: 0,
  items: 0,
  direction,
  change: 0,
});

const trends: Trends = {
  period: 'month',
  buckets: ['2026-09-01T00:00:00Z', '2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z'],
  hashtags: [series('dye', [1, 4, 9], 'rising'), series('ledger', [7, 2, 0], 'falling')],
  categories: [],
  rising: ['dye'],
  falling: ['ledger'],
};

describe('trend chart', () => {
  const html = renderToStaticMarkup(<TrendChart trends={trends} kind="hashtags" />);

  it('says each line in words', () => {
    expect(html).toContain('#dye');
    expect(html).toMatch(/14 in 3 months/);
    expect(html).toContain('rising');
  });

  it('holds every count in a table with headers, for screen readers', () => {
    const table = html.slice(html.indexOf('<table'), html.indexOf('</table>'));
    expect(table).toContain('<caption>Counts per month</caption>');
    expect(table).toContain('<th scope="col">#dye</th><th scope="col">#ledger</th>');
    const rows = [...table.matchAll(/<tr><th scope="row">[^<]+<\/th><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g)];
    expect(rows.map((r) => [Number(r[1]), Number(r[2])])).toEqual([
      [1, 7],
      [4, 2],
      [9, 0],
    ]);
  });
});
