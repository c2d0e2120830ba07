import { describe, expect, it } from 'vitest';
import { InputError } from '@kaboodle/platform';
import {
  parseDocumentSearchRequest,
  parseEntityRequest,
  parseNeighboursRequest,
  parseSearchRequest,
  QUERY_REQUIRED,
  QUERY_TOO_LONG,
} from './search-request.ts';

const rejects = (f: () => unknown, message: string | RegExp) => {
  expect(f).toThrow(InputError);
  expect(f).toThrow(message);
};

describe('POST /api/search body', () => {
  it('trims the query and defaults to semantic, limit 20, both types', () => {
    expect(parseSearchRequest({ query: '  red radio  ' })).toEqual({
      query: 'red radio',
      searchType: 'semantic',
      limit: 20,
      types: [],
    });
  });

  it.each([
    [{}, QUERY_REQUIRED],
    [{ query: '' }, QUERY_REQUIRED],
    [{ query: ' \t\n ' }, QUERY_REQUIRED],
    [{ query: null }, QUERY_REQUIRED],
    [{ query: ['a'] }, 'Search query must be text'],
    [{ query: { $ne: 1 } }, 'Search query must be text'],
    [{ query: 42 }, 'Search query must be text'],
    [{ query: 'x'.repeat(1001) }, QUERY_TOO_LONG],
    [{ query: 'x'.repeat(10_000) }, QUERY_TOO_LONG],
    [
      { query: 'q', search_type: 'fuzzy' },
      'Unknown search type "fuzzy": use semantic, keyword, hybrid or vector',
    ],
    [{ query: 'q', search_type: ['keyword'] }, /Unknown search type \["keyword"\]/],
    [{ query: 'q', limit: 'ten' }, 'limit must be a number'],
    [{ query: 'q', limit: [5] }, 'limit must be a number'],
    [{ query: 'q', limit: {} }, 'limit must be a number'],
    [{ query: 'q', types: 'documents' }, 'Unknown type "documents": use document or inventory_item'],
    [{ query: 'q', types: [1] }, /Unknown type missing/],
    [{ query: 'q', types: { a: 1 } }, 'types must be a list of document or inventory_item'],
    [{ query: 'q', category: ['Research'] }, 'category must be text'],
    [{ query: 'q', category: 'c'.repeat(201) }, /category is too long/],
  ])('rejects %j with a clear message', (body, message) => {
    rejects(() => parseSearchRequest(body), message);
  });

  it.each([null, undefined])('treats a missing body (%s) as a missing query', (body) => {
    rejects(() => parseSearchRequest(body), QUERY_REQUIRED);
  });

  it.each([[[]], ['text'], [7]])('rejects a body that is not an object: %j', (body) => {
    rejects(() => parseSearchRequest(body), 'The request body must be a JSON object');
  });

  it('accepts exactly 1000 characters, counting an emoji as one', () => {
    expect(parseSearchRequest({ query: 'x'.repeat(1000) }).query).toHaveLength(1000);
    expect(parseSearchRequest({ query: '🔥'.repeat(1000) }).query).toHaveLength(2000);
    rejects(() => parseSearchRequest({ query: '🔥'.repeat(1001) }), QUERY_TOO_LONG);
  });

  it.each([
    [0, 1],
    [-5, 1],
    [1, 1],
    [50.9, 50],
    [100, 100],
    [101, 100],
    [1e12, 100],
    ['30', 30],
    [' 7 ', 7],
  ])('clamps limit %j to %j', (limit, expected) => {
    expect(parseSearchRequest({ query: 'q', limit }).limit).toBe(expected);
  });

  it('accepts every search type (case-insensitive), types as one string or a list, and a category', () => {
    for (const t of ['semantic', 'keyword', 'hybrid', 'vector']) {
      expect(parseSearchRequest({ query: 'q', search_type: t.toUpperCase() }).searchType).toBe(t);
    }
    expect(parseSearchRequest({ query: 'q', types: 'document' }).types).toEqual(['document']);
    expect(
      parseSearchRequest({ query: 'q', types: ['inventory_item', 'document', 'document'] }).types,
    ).toEqual(['inventory_item', 'document']);
    expect(parseSearchRequest({ query: 'q', category: ' Beads ' }).category).toBe('Beads');
    expect(parseSearchRequest({ query: 'q', category: '  ' })).not.toHaveProperty('category');
  });

  it('passes metacharacters and unicode through untouched (they are text, not syntax)', () => {
    for (const q of [
      'title:"x" AND (a OR b)~2^3',
      "'; DROP TABLE documents; --",
      '.*[a-z]+$',
      'naïve café 東京 🔥',
    ]) {
      expect(parseSearchRequest({ query: q }).query).toBe(q);
    }
  });
});

describe('POST /api/documents/search body', () => {
  it('needs a query and clamps the limit', () => {
    expect(parseDocumentSearchRequest({ query: ' soil ', limit: 500 })).toEqual({
      query: 'soil',
      limit: 100,
    });
    rejects(() => parseDocumentSearchRequest({ query: '' }), QUERY_REQUIRED);
  });
});

describe('related and duplicates query strings', () => {
  it('needs a known type and an id; clamps the limit to 1..50', () => {
    expect(parseEntityRequest({ type: 'document', id: 'abc', limit: '999' }, 10)).toEqual({
      type: 'document',
      id: 'abc',
      limit: 50,
    });
    expect(parseEntityRequest({ type: 'inventory_item', id: 'abc' }, 10).limit).toBe(10);
    rejects(() => parseEntityRequest({ id: 'abc' }, 10), 'type is required: document or inventory_item');
    rejects(() => parseEntityRequest({ type: 'kaboodle', id: 'abc' }, 10), /Unknown type "kaboodle"/);
    rejects(() => parseEntityRequest({ type: 'document' }, 10), 'id is required');
    rejects(() => parseEntityRequest({ type: 'document', id: ['a', 'b'] }, 10), 'id must be text');
    rejects(() => parseEntityRequest({ type: ['document'], id: 'a' }, 10), /Unknown type missing/);
    rejects(() => parseEntityRequest({ type: 'document', id: 'a'.repeat(201) }, 10), /id is too long/);
    rejects(
      () => parseEntityRequest({ type: 'document', id: 'a', limit: 'x' }, 10),
      'limit must be a number',
    );
  });
});

describe('POST /api/search/neighbours body', () => {
  it('defaults k to 3 and min_similarity to 0.5, clamps them, and drops repeated ids', () => {
    expect(parseNeighboursRequest({ ids: ['a', 'b', 'a'] })).toEqual({
      ids: ['a', 'b'],
      k: 3,
      minSimilarity: 0.5,
    });
    expect(parseNeighboursRequest({ ids: [], k: 500, min_similarity: 2 })).toEqual({
      ids: [],
      k: 20,
      minSimilarity: 1,
    });
    expect(parseNeighboursRequest({ ids: ['a'], k: -1, min_similarity: -0.3 })).toMatchObject({
      k: 1,
      minSimilarity: 0,
    });
    expect(parseNeighboursRequest({ ids: ['a'], min_similarity: 0.75 }).minSimilarity).toBe(0.75);
  });

  it('rejects ids that are not a list of at most 500 texts', () => {
    rejects(() => parseNeighboursRequest({}), 'ids must be a list of document ids');
    rejects(() => parseNeighboursRequest({ ids: 'a' }), 'ids must be a list of document ids');
    rejects(() => parseNeighboursRequest({ ids: [1] }), 'ids[0] must be text');
    rejects(
      () => parseNeighboursRequest({ ids: Array.from({ length: 501 }, (_, i) => `d${i}`) }),
      'ids takes at most 500 document ids, got 501',
    );
    rejects(() => parseNeighboursRequest({ ids: ['a'], k: 'three' }), 'k must be a number');
  });
});
