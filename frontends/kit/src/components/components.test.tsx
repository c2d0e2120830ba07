// The kit's components render the accessible structure the spec and the shell rely on.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Banner } from './banner.tsx';
import { Button } from './button.tsx';
import { Progress } from './progress.tsx';
import { Table, compareValues, nextSort } from './table.tsx';

describe('kit components', () => {
  it('Button is a real button, type="button" unless told otherwise', () => {
    expect(renderToStaticMarkup(<Button>Go</Button>)).toBe(
      '<button type="button" class="kb-button">Go</button>',
    );
    expect(
      renderToStaticMarkup(
        <Button type="submit" variant="secondary" size="lg" block>
          Go
        </Button>,
      ),
    ).toBe(
      '<button type="submit" class="kb-button kb-button--secondary kb-button--lg kb-button--block">Go</button>',
    );
  });

  it('Banner announces errors as alerts and other tones as status', () => {
    expect(renderToStaticMarkup(<Banner tone="error">Login failed</Banner>)).toContain('role="alert"');
    expect(renderToStaticMarkup(<Banner tone="info">Saved</Banner>)).toContain('role="status"');
    expect(renderToStaticMarkup(<Banner onDismiss={() => undefined}>x</Banner>)).toContain(
      'aria-label="Dismiss message"',
    );
  });

  it('Progress exposes a clamped, rounded value to assistive technology', () => {
    const html = renderToStaticMarkup(<Progress value={142.4} label="Loading" />);
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="100"');
    expect(html).toContain('width:100%');
    expect(renderToStaticMarkup(<Progress value={Number.NaN} />)).toContain('aria-valuenow="0"');
  });

  it('Table sorts: first click ascending, again toggles, a new column starts ascending', () => {
    expect(nextSort(null, 'year')).toEqual({ key: 'year', dir: 'asc' });
    expect(nextSort({ key: 'year', dir: 'asc' }, 'year')).toEqual({ key: 'year', dir: 'desc' });
    expect(nextSort({ key: 'year', dir: 'desc' }, 'year')).toEqual({ key: 'year', dir: 'asc' });
    expect(nextSort({ key: 'year', dir: 'desc' }, 'title')).toEqual({ key: 'title', dir: 'asc' });
  });

  it('compares numbers numerically (missing as 0) and text case-insensitively (missing as empty)', () => {
    // null, not undefined: Array#sort always moves undefined to the end without asking the comparator.
    expect([10, 9, null, 100].sort(compareValues)).toEqual([null, 9, 10, 100]);
    expect(['b', 'A', null, 'c'].sort(compareValues)).toEqual([null, 'A', 'b', 'c']);
  });

  it('Table shows its empty text across all columns and sortable headers as buttons', () => {
    const empty = renderToStaticMarkup(
      <Table
        columns={[
          { key: 'name', header: 'Name', sortValue: (r: { name: string }) => r.name },
          { key: 'x', header: 'X' },
        ]}
        rows={[]}
        rowKey={(r) => r.name}
        emptyText="No inventory data available."
      />,
    );
    expect(empty).toContain('<td class="kb-table__empty" colSpan="2">No inventory data available.</td>');
    expect(empty).toContain('<th scope="col"><button type="button">Name</button></th>');
    expect(empty).toContain('<th scope="col">X</th>');
  });
});
