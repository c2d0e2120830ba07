// The table's accessible structure: 12 columns, sortable ones as buttons, the active one marked.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { doc } from '../test-documents.ts';
import { fitView } from './graph/graph-layout.ts';
import { TableView } from './table-view.tsx';

const noop = () => undefined;

describe('table view', () => {
  const docs = [
    doc('a', {
      title: 'On Liberty',
      summary: 'A long summary',
      hashtags: [{ tag: 'freedom', relevancy: 0.876 }],
    }),
  ];

  it('renders the 12 columns with the six sortable ones as buttons and an arrow on the active one', () => {
    const html = renderToStaticMarkup(
      <TableView
        docs={docs}
        sort={{ key: 'publication_year', dir: 'desc' }}
        onSort={noop}
        onDownload={noop}
        onOpen={noop}
      />,
    );
    const headers = [...html.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) =>
      m[1]!.replace(/<[^>]+>/g, '').trim(),
    );
    expect(headers).toEqual([
      'Title',
      'Author',
      'Category',
      'Field',
      'Year ▼',
      'Summary',
      'Thesis',
      'Issue',
      'Journal/Publisher',
      'Influences',
      'Tags',
      'Actions',
    ]);
    expect(html.match(/<th[^>]*><button/g)).toHaveLength(6);
    expect(html).toContain('aria-sort="descending"');
    expect(html.match(/aria-sort=/g)).toHaveLength(1);
    expect(html).toContain('aria-rowcount="2"');
    expect(html).toContain('#freedom');
    expect(html).toContain('88%');
    expect(html).toContain('>Download</button>');
  });
});

describe('graph framing', () => {
  it('centres the nodes and zooms at most 1.5×', () => {
    expect(fitView([])).toEqual({ x: 0, y: 0, k: 1 });
    const v = fitView([
      { x: 100, y: 100, r: 5 },
      { x: 120, y: 110, r: 5 },
    ]);
    expect(v.k).toBe(1.5);
    const spread = fitView([
      { x: -2000, y: 0, r: 5 },
      { x: 2000, y: 0, r: 5 },
    ]);
    expect(spread.k).toBeLessThan(0.25);
    // The midpoint lands at the canvas centre (500, 320).
    expect(spread.x + 0 * spread.k).toBeCloseTo(500);
  });

  it('magnifies a small graph more on a phone, up to the width of the canvas', () => {
    const small = [
      { x: 300, y: 600, r: 5 },
      { x: 700, y: 700, r: 5 },
    ];
    expect(fitView(small, 1300).k).toBe(1.5);
    // 410 units wide in a 1000-unit canvas with 40 of padding each side: 920 / 410
    expect(fitView(small, 1300, 3).k).toBeCloseTo(920 / 410, 5);
    expect(fitView([{ x: 500, y: 600, r: 5 }], 1300, 3).k).toBe(3);
  });
});
