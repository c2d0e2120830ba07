import { describe, expect, it } from 'vitest';
import { InputError, validateInput } from '@kaboodle/platform';
import {
  documentFilterOf,
  documentPatchSchema,
  listDocuments,
  searchDocumentsByKeyword,
} from './documents.api.ts';

const listQuery = (q: Record<string, unknown>) => validateInput(listDocuments.query!, q, 'query');
const patch = (body: unknown) => validateInput(documentPatchSchema, body, 'body');

describe('document list query', () => {
  it('pages default to 1 and 20; a chosen sort column starts ascending, none means newest first', () => {
    const q = listQuery({});
    expect([q.page, q.limit]).toEqual([1, 20]);
    expect(documentFilterOf(q)).toEqual({
      query: undefined,
      category: undefined,
      hashtag: undefined,
      sort: 'created_at',
      order: 'desc',
    });
    expect(documentFilterOf(listQuery({ sort: 'title' }))).toMatchObject({ sort: 'title', order: 'asc' });
    expect(documentFilterOf(listQuery({ sort: ' publication_year ', order: 'DESC' }))).toMatchObject({
      sort: 'publication_year',
      order: 'desc',
    });
  });

  it.each([
    [{ sort: 'owner_id' }, /^sort must be one of title, author/],
    [{ page: ['1', '2'] }, 'page must be given once'],
    [{ limit: '1e2' }, 'limit must be a whole number from 1 to 100'],
    [{ tag: '!!' }, 'hashtag needs at least one letter or digit'],
    [{ q: 'x'.repeat(501) }, 'Search query is too long (max 500 characters)'],
  ])('refuses case %# with a message naming the rule', (q, message) => {
    expect(() => listQuery(q)).toThrow(InputError);
    expect(() => listQuery(q)).toThrow(message);
  });

  it('reads the keyword from query (even empty) before q, and the tag from hashtag or tag', () => {
    expect(documentFilterOf(listQuery({ q: ' beads ' })).query).toBe('beads');
    expect(documentFilterOf(listQuery({ query: '', q: 'beads' })).query).toBeUndefined();
    expect(documentFilterOf(listQuery({ tag: '#Glass Beads' })).hashtag).toBe('glass-beads');
  });

  it('search needs a keyword', () => {
    const search = (q: Record<string, unknown>) => validateInput(searchDocumentsByKeyword.query!, q, 'query');
    expect(() => search({ query: '   ' })).toThrow('Search query is required');
    expect(() => search({})).toThrow('Search query is required');
    expect(documentFilterOf(search({ q: 'x' })).query).toBe('x');
  });
});

describe('document edit', () => {
  it('trims text, dedupes influences and tags, keeps null years', () => {
    expect(
      patch({
        title: ' New ',
        publication_year: null,
        influenced_by: ['A', ' A', '', 'B'],
        hashtags: ['x', '#X', { tag: 'y', relevancy: 0.25 }],
      }),
    ).toEqual({
      title: 'New',
      publication_year: null,
      influenced_by: ['A', 'B'],
      hashtags: [
        { tag: 'x', relevancy: 1 },
        { tag: 'y', relevancy: 0.25 },
      ],
    });
  });

  it('takes control characters out (Postgres cannot store NUL), keeping tabs and newlines', () => {
    expect(
      patch({ title: 'Bead\u0000 ledger\u0007', summary: 'a\tb\nc', influenced_by: ['\u0000'] }),
    ).toEqual({
      title: 'Bead ledger',
      summary: 'a\tb\nc',
      influenced_by: [],
    });
    expect(documentFilterOf(listQuery({ category: 'Crafts\u0000', q: '\u0000' }))).toMatchObject({
      category: 'Crafts',
      query: undefined,
    });
  });

  it.each([
    [null, 'Send the fields to change as a JSON object'],
    [undefined, 'Send the fields to change as a JSON object'],
    [{ hashtags: new Array(51).fill('a') }, 'hashtags takes at most 50 tags'],
    [{ hashtags: [5] }, 'hashtags must be a list of tags or {tag, relevancy} objects'],
    [{ hashtags: [{ tag: 5 }] }, 'hashtags must be a list of tags or {tag, relevancy} objects'],
    [{ hashtags: [{ tag: 'a', relevancy: '1' }] }, 'A tag relevancy must be a number from 0 to 1'],
    [{ influenced_by: ['x'.repeat(301)] }, 'An influence is too long (max 300 characters)'],
    [{ influenced_by: new Array(101).fill('a') }, 'influenced_by must be a list of up to 100 names'],
    [{ summary: 'x'.repeat(10_001) }, 'summary is too long (max 10000 characters)'],
    [{ publication_year: 10_000 }, 'publication_year must be a whole year from 0 to 9999, or null'],
  ])('refuses edit %# with: %s', (body, message) => {
    expect(() => patch(body)).toThrow(message);
  });
});
