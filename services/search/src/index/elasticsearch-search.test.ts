// The Elasticsearch adapter's search against @elastic/elasticsearch-mock: the _msearch bodies it
// sends (kNN, BM25, passages) and how it fuses canned hits (RRF) and scores them. No query semantics
// here: the contract suite runs those against a real cluster.
import { InputError } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import { hitsAnswer } from './elasticsearch-test-cluster.ts';
import {
  ALIAS,
  vec,
  opened,
  msearchBodies,
  liveOwner,
  hit,
  innerPassages as inner,
} from './elasticsearch-index-fixtures.ts';
import type { Body } from './elasticsearch-index-fixtures.ts';
import { reciprocalRankFusion } from './search-scoring.ts';

describe('elasticsearch search index: search', () => {
  const query = {
    ownerId: 'owner-1',
    text: 'budget "report" AND (title:x OR y*) \\ / ~ ^ ! [a TO b] {c} <script>',
    vector: vec(0.5, 0.5, 0, 0),
  };

  it('sends kNN and BM25 in one _msearch, the owner and the filters inside the kNN filter and the BM25 bool filter', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) =>
      r.path.endsWith('/_msearch') ? { responses: [hitsAnswer([]), hitsAnswer([])] } : undefined,
    );
    await index.search({
      ...query,
      mode: 'hybrid',
      limit: 10,
      entityTypes: ['document'],
      category: 'Finance',
      hashtags: ['#Budget', 'budget', 'Planning'],
    });
    const [req] = cluster.find('/_msearch');
    expect(req!.path).toBe(`/${ALIAS}/_msearch`);
    const lines = req!.body as unknown[];
    expect(lines[0]).toEqual({});
    expect(lines[2]).toEqual({});
    const [knn, bm25] = msearchBodies(req!);
    const filter = liveOwner(
      'owner-1',
      { terms: { entity_type: ['document'] } },
      { term: { category: 'Finance' } },
      { term: { hashtags_norm: 'budget' } },
      { term: { hashtags_norm: 'planning' } },
    );
    expect(knn).toEqual({
      size: 60,
      _source: [
        'entity_type',
        'entity_id',
        'title',
        'description',
        'content_preview',
        'url',
        'image_url',
        'category',
        'hashtags',
      ],
      knn: { field: 'vector', query_vector: [0.5, 0.5, 0, 0], k: 60, num_candidates: 600, filter },
    });
    expect(bm25).toMatchObject({
      size: 60,
      track_total_hits: false,
      query: {
        bool: {
          must: [
            {
              multi_match: {
                query: query.text,
                fields: [
                  'title^3',
                  'description^2',
                  'hashtags.text^2',
                  'keywords^1.5',
                  'category.text',
                  'content',
                ],
                type: 'best_fields',
                operator: 'or',
                lenient: true,
              },
            },
          ],
          filter: [filter],
        },
      },
    });
    // User text only ever travels as multi_match text: never parsed as Lucene syntax.
    expect(JSON.stringify(req!.body)).not.toMatch(/query_string/);
  });

  it('keeps num_candidates at least 10 × k (and at least 100)', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path.endsWith('/_msearch') ? { responses: [hitsAnswer([])] } : undefined));
    await index.search({ ...query, mode: 'semantic', limit: 3 });
    await index.search({ ...query, mode: 'semantic', limit: 100 });
    const ks = cluster.find('/_msearch').map((r) => msearchBodies(r)[0]!.knn as Record<string, number>);
    expect(ks.map((k) => [k.k, k.num_candidates])).toEqual([
      [3, 100],
      [100, 1000],
    ]);
  });

  it('fuses the two lists by reciprocal rank (k = 60), scores in [0, 1] relative to the best possible', async () => {
    const { cluster, index } = await opened();
    const knn = [hit('a', 0.99), hit('b', 0.9), hit('c', 0.8)];
    const bm25 = [hit('c', 12), hit('a', 7), hit('d', 3)];
    cluster.on((r) =>
      r.path.endsWith('/_msearch') ? { responses: [hitsAnswer(knn), hitsAnswer(bm25)] } : undefined,
    );
    const hits = await index.search({ ...query, mode: 'hybrid', limit: 10 });
    expect(hits.map((h) => h.id)).toEqual(['a', 'c', 'b', 'd']);
    const best = 2 / 61;
    expect(hits[0]!.score).toBeCloseTo((1 / 61 + 1 / 62) / best, 10);
    expect(hits[1]!.score).toBeCloseTo((1 / 63 + 1 / 61) / best, 10);
    expect(hits[2]!.score).toBeCloseTo(1 / 62 / best, 10);
    expect(hits[3]!.score).toBeCloseTo(1 / 63 / best, 10);
    const shared = reciprocalRankFusion([
      knn.map((h) => ({ key: h._id })),
      bm25.map((h) => ({ key: h._id })),
    ]);
    expect(hits.map((h) => h.score)).toEqual(shared.map((s) => s.score));
    expect(hits[0]).toEqual({
      entityType: 'document',
      id: 'a',
      title: 'title a',
      description: 'description a',
      content: 'content a',
      url: '/api/documents/a/file',
      imageUrl: '',
      category: 'Finance',
      hashtags: ['#Budget'],
      score: hits[0]!.score,
    });
  });

  it('cuts the fused list to the limit', async () => {
    const { cluster, index } = await opened();
    const knn = ['a', 'b', 'c', 'd'].map((id, i) => hit(id, 0.9 - i / 10));
    cluster.on((r) =>
      r.path.endsWith('/_msearch') ? { responses: [hitsAnswer(knn), hitsAnswer([])] } : undefined,
    );
    const hits = await index.search({ ...query, mode: 'hybrid', limit: 2 });
    expect(hits.map((h) => h.id)).toEqual(['a', 'b']);
    // only one list answered: the top of it scores 1
    expect(hits[0]!.score).toBe(1);
  });

  it('maps keyword scores relative to the best BM25 hit, and semantic scores to the cosine', async () => {
    const { cluster, index } = await opened();
    let answer: unknown[] = [];
    cluster.on((r) =>
      r.path.endsWith('/_msearch') ? { responses: [hitsAnswer(answer as never)] } : undefined,
    );
    answer = [hit('a', 8), hit('b', 2)];
    const kw = await index.search({ ...query, mode: 'keyword', limit: 5 });
    expect(kw.map((h) => [h.id, h.score])).toEqual([
      ['a', 1],
      ['b', 0.25],
    ]);
    expect(msearchBodies(cluster.find('/_msearch')[0]!)).toHaveLength(1);
    expect(msearchBodies(cluster.find('/_msearch')[0]!)[0]!.knn).toBeUndefined();

    answer = [hit('a', 0.9), hit('b', 0.4)]; // Elasticsearch's cosine _score is (1 + cos) / 2
    const sem = await index.search({ ...query, mode: 'semantic', limit: 5 });
    expect(sem[0]!.score).toBeCloseTo(0.8, 10);
    expect(sem[1]!.score).toBe(0); // cos -0.2: clamped
    expect(msearchBodies(cluster.find('/_msearch')[1]!)[0]!.query).toBeUndefined();
  });

  it('with excerpts, adds a nested passage kNN with inner hits and a score-neutral nested BM25, and picks the best passage', async () => {
    const { cluster, index } = await opened();
    const knn = [hit('a', 0.9)];
    const passages = [hit('a', 0.95, { inner_hits: inner([[2, 0.95, 'a passage on rainfall']]) })];
    const bm25 = [
      hit('a', 5, { inner_hits: inner([[0, 4, 'budget report for the year']]) }),
      hit('b', 3, { inner_hits: inner([]) }),
    ];
    cluster.on((r) =>
      r.path.endsWith('/_msearch')
        ? { responses: [hitsAnswer(knn), hitsAnswer(passages), hitsAnswer(bm25)] }
        : undefined,
    );
    const hits = await index.search({
      ...query,
      text: 'budget report',
      mode: 'hybrid',
      limit: 5,
      withExcerpts: true,
    });
    const bodies = msearchBodies(cluster.find('/_msearch')[0]!);
    expect(bodies).toHaveLength(3);
    expect(bodies[1]!.knn).toMatchObject({
      field: 'passages.vector',
      inner_hits: { size: 3, _source: false, fields: ['passages.text'] },
    });
    expect((bodies[1]!.knn as Record<string, unknown>).filter).toEqual(liveOwner('owner-1'));
    expect((bodies[2]!.query as Body).bool.should).toEqual([
      { match_phrase: { content: { query: 'budget report', slop: 2, boost: 0.25 } } },
      {
        nested: {
          path: 'passages',
          score_mode: 'none',
          query: { match: { 'passages.text': { query: 'budget report', operator: 'or' } } },
          inner_hits: { size: 3, _source: false, fields: ['passages.text'] },
        },
      },
    ]);
    // cos 0.9 and no query words vs. cos unknown and every query word: the words win (1 > 0.45)
    expect(hits.find((h) => h.id === 'a')!.excerpt).toBe('budget report for the year');
    expect(hits.find((h) => h.id === 'b')!.excerpt).toBeUndefined();
    // passage kNN only picks excerpts: ranking is the same two lists as without excerpts
    expect(hits.map((h) => h.id)).toEqual(['a', 'b']);
  });

  it('fails with the cluster reason when one search of the msearch fails', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) =>
      r.path.endsWith('/_msearch')
        ? {
            responses: [
              hitsAnswer([]),
              {
                error: { type: 'search_phase_execution_exception', reason: 'all shards failed' },
                status: 400,
              },
            ],
          }
        : undefined,
    );
    await expect(index.search({ ...query, mode: 'hybrid', limit: 5 })).rejects.toThrow(
      /searching elasticsearch alias kaboodle-test: .*search 2 of 2 failed: search_phase_execution_exception all shards failed/,
    );
  });

  it('refuses bad input before sending anything: no owner, unknown type, missing or mis-sized vectors', async () => {
    const { cluster, index } = await opened();
    await expect(index.search({ ...query, ownerId: '', mode: 'keyword', limit: 5 })).rejects.toThrow(
      InputError,
    );
    await expect(
      index.search({ ...query, mode: 'keyword', limit: 5, entityTypes: ['person' as never] }),
    ).rejects.toThrow(/Unknown entity type: person/);
    await expect(index.search({ ownerId: 'o', text: 'x', mode: 'semantic', limit: 5 })).rejects.toThrow(
      /a semantic search needs a query vector/,
    );
    await expect(index.search({ ...query, vector: vec(1, 0), mode: 'hybrid', limit: 5 })).rejects.toThrow(
      /query vector has 2 dimensions; the index holds 4/,
    );
    expect(cluster.find('/_msearch')).toEqual([]);
  });

  it('a zero query vector (nothing to embed) searches by keyword only', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) =>
      r.path.endsWith('/_msearch') ? { responses: [hitsAnswer([hit('a', 1)])] } : undefined,
    );
    const hits = await index.search({ ...query, vector: vec(0, 0, 0, 0), mode: 'hybrid', limit: 5 });
    expect(hits.map((h) => h.id)).toEqual(['a']);
    const bodies = msearchBodies(cluster.find('/_msearch')[0]!);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.knn).toBeUndefined();
  });

  it('cuts very long queries to their first 64 distinct words for BM25', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path.endsWith('/_msearch') ? { responses: [hitsAnswer([])] } : undefined));
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    await index.search({ ownerId: 'owner-1', text: words.join('  '), mode: 'keyword', limit: 5 });
    const mm = (msearchBodies(cluster.find('/_msearch')[0]!)[0]!.query as Body).bool.must[0].multi_match;
    expect(mm.query).toBe(words.slice(0, 64).join(' '));
  });
});
