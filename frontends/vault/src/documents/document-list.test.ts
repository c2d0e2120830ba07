// The list rules of docs/product.md#states, #validation: sorting, filtering, categories and paging.
import { describe, expect, it } from 'vitest';
import {
  appendPage,
  distinctCategories,
  filterDocuments,
  hasMorePages,
  matchesFilters,
  nearBottom,
  nextSort,
  sortDocuments,
  sortParams,
} from './document-list.ts';
import { asDocument } from './document-types.ts';
import { doc } from './test-documents.ts';

const ids = (docs: { id: string }[]) => docs.map((d) => d.id);

describe('vault sorting', () => {
  it('first click sorts ascending, a repeat click toggles, a new column resets to ascending', () => {
    expect(nextSort(null, 'title')).toEqual({ key: 'title', dir: 'asc' });
    expect(nextSort({ key: 'title', dir: 'asc' }, 'title')).toEqual({ key: 'title', dir: 'desc' });
    expect(nextSort({ key: 'title', dir: 'desc' }, 'title')).toEqual({ key: 'title', dir: 'asc' });
    expect(nextSort({ key: 'title', dir: 'desc' }, 'author')).toEqual({ key: 'author', dir: 'asc' });
  });

  it('sorts text case-insensitively with missing values first', () => {
    const docs = [
      doc('b', { title: 'beta' }),
      doc('a', { title: 'Alpha' }),
      doc('none'),
      doc('c', { title: 'Gamma' }),
    ];
    expect(ids(sortDocuments(docs, { key: 'title', dir: 'asc' }))).toEqual(['none', 'a', 'b', 'c']);
    expect(ids(sortDocuments(docs, { key: 'title', dir: 'desc' }))).toEqual(['c', 'b', 'a', 'none']);
  });

  it('sorts the year numerically, a missing year counting as 0', () => {
    const docs = [
      doc('y2001', { publication_year: 2001 }),
      doc('y999', { publication_year: 999 }),
      doc('missing'),
      doc('y10', { publication_year: 10 }),
    ];
    expect(ids(sortDocuments(docs, { key: 'publication_year', dir: 'asc' }))).toEqual([
      'missing',
      'y10',
      'y999',
      'y2001',
    ]);
  });

  it('keeps the server order for ties and without a sort, and never mutates its input', () => {
    const docs = [doc('1', { author: 'Same' }), doc('2', { author: 'same' }), doc('3', { author: 'SAME' })];
    const frozen = Object.freeze([...docs]);
    expect(ids(sortDocuments(frozen, { key: 'author', dir: 'desc' }))).toEqual(['1', '2', '3']);
    expect(ids(sortDocuments(frozen, null))).toEqual(['1', '2', '3']);
  });

  it('asks the server for the same order so later pages continue the first', () => {
    expect(sortParams({ key: 'publication_year', dir: 'desc' })).toEqual({
      sort: 'publication_year',
      order: 'desc',
    });
    expect(sortParams(null)).toEqual({});
  });
});

describe('vault filtering', () => {
  const a = doc('a', {
    title: 'On Liberty',
    author: 'John Stuart Mill',
    category: 'Philosophy',
    hashtags: [{ tag: 'freedom', relevancy: 0.9 }],
    influenced_by: ['Bentham'],
    publication_year: 1859,
  });
  const b = doc('b', { title: 'Leviathan', author: 'Hobbes', category: 'Politics' });

  it('matches a keyword as a case-insensitive substring of any field, tags and influences included', () => {
    expect(matchesFilters(a, 'LIBERTY', '')).toBe(true);
    expect(matchesFilters(a, 'freedom', '')).toBe(true);
    expect(matchesFilters(a, 'bentham', '')).toBe(true);
    expect(matchesFilters(a, '1859', '')).toBe(true);
    expect(matchesFilters(a, 'hobbes', '')).toBe(false);
    expect(matchesFilters(a, '   ', '')).toBe(true);
  });

  it('matches the category exactly, and combines it with the keyword', () => {
    expect(ids(filterDocuments([a, b], '', 'Politics'))).toEqual(['b']);
    expect(ids(filterDocuments([a, b], '', 'politics'))).toEqual([]);
    expect(ids(filterDocuments([a, b], 'mill', 'Politics'))).toEqual([]);
    expect(ids(filterDocuments([a, b], 'mill', 'Philosophy'))).toEqual(['a']);
  });

  it('lists each category once, from the server and the loaded documents, sorted', () => {
    expect(distinctCategories(['Politics', ''], [a, b, doc('c', { category: 'Art' })])).toEqual([
      'Art',
      'Philosophy',
      'Politics',
    ]);
  });
});

describe('vault paging', () => {
  it('a full page of 20 means more may exist; the total decides when it is known', () => {
    expect(hasMorePages(20, 20, null)).toBe(true);
    expect(hasMorePages(39, 19, null)).toBe(false);
    expect(hasMorePages(20, 20, 20)).toBe(false);
    expect(hasMorePages(20, 20, 21)).toBe(true);
  });

  it('appends a page without repeating documents already shown', () => {
    expect(ids(appendPage([doc('1'), doc('2')], [doc('2'), doc('3')]))).toEqual(['1', '2', '3']);
  });

  it('loads more within 100 px of the bottom', () => {
    expect(nearBottom(1000, 800, 1900)).toBe(true);
    expect(nearBottom(1000, 800, 1901)).toBe(false);
  });

  it('reads server documents defensively (bare tags, missing text, bad years)', () => {
    const d = asDocument({
      id: 7,
      title: null,
      hashtags: ['a', { tag: 'b', relevancy: 3 }],
      publication_year: 'x',
    });
    expect(d).toMatchObject({ id: '7', title: '', publication_year: null });
    expect(d?.hashtags).toEqual([
      { tag: 'a', relevancy: 1 },
      { tag: 'b', relevancy: 1 },
    ]);
    expect(asDocument('nope')).toBeNull();
  });
});

describe('windowing', () => {
  it('renders the rows in view plus the overscan, clamped to the list', async () => {
    const { visibleRange } = await import('../common/use-window-range.ts');
    // List starts 1000 px below the top of the viewport: only the overscan rows past its start.
    expect(visibleRange(500, 50, 1000, 800, 10)).toEqual({ start: 0, end: 6 });
    expect(visibleRange(500, 50, 0, 800, 10)).toEqual({ start: 0, end: 26 });
    // Scrolled 5000 px into the list: rows 100..116 are visible.
    expect(visibleRange(500, 50, -5000, 800, 10)).toEqual({ start: 90, end: 126 });
    expect(visibleRange(500, 50, -24500, 800, 10)).toEqual({ start: 480, end: 500 });
    expect(visibleRange(500, 50, -30000, 800, 10)).toEqual({ start: 500, end: 500 });
  });
});
