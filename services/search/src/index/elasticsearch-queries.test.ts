// The Elasticsearch BM25 query's proximity evidence: the query's adjacent words as phrase clauses,
// as the embedded index scores its word pairs (search-scoring.ts PAIR_BOOST).
import { describe, expect, it } from 'vitest';
import { bm25Body } from './elasticsearch-queries.ts';
import { PAIR_BOOST } from './search-scoring.ts';

type Bool = { must: unknown[]; should?: Array<Record<string, unknown>>; filter: unknown[] };
const boolOf = (body: Record<string, unknown>) => (body.query as { bool: Bool }).bool;
const filter = { term: { owner_id: 'u1' } };

describe('bm25Body', () => {
  it('adds each adjacent pair of the query’s words (stop words skipped) as an optional phrase', () => {
    const bool = boolOf(bm25Body('Open and possibly create a file', 10, filter));
    expect(bool.should).toEqual(
      ['open possibly', 'possibly create', 'create file'].map((query) => ({
        match_phrase: { content: { query, slop: 2, boost: PAIR_BOOST } },
      })),
    );
    expect(bool.must).toHaveLength(1);
  });

  it('has no phrase for a one-word query, and keeps the excerpts clause beside the phrases', () => {
    expect(boolOf(bm25Body('file', 10, filter)).should).toBeUndefined();
    const should = boolOf(bm25Body('create file', 10, filter, { excerpts: true })).should!;
    expect(should.map((c) => Object.keys(c)[0])).toEqual(['match_phrase', 'nested']);
  });
});
