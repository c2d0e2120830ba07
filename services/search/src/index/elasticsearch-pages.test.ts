// The Elasticsearch adapter's searchKeys and hitsOf against @elastic/elasticsearch-mock: the bodies
// they send and how they map canned answers. The contract suite runs their semantics on a cluster.
import { describe, expect, it } from 'vitest';
import { hitsAnswer } from './elasticsearch-test-cluster.ts';
import {
  ALIAS,
  hit,
  innerPassages as inner,
  liveOwner,
  msearchBodies,
  opened,
  src,
  vec,
} from './elasticsearch-index-fixtures.ts';
import type { Body } from './elasticsearch-index-fixtures.ts';
import { HIT_SOURCE } from './elasticsearch-queries.ts';

describe('elasticsearch search index: searchKeys and hitsOf', () => {
  it('searchKeys asks for the names only, never passages, and ranks as search does', async () => {
    const { cluster, index } = await opened();
    const knn = [hit('a', 0.99), hit('b', 0.9)];
    const bm25 = [hit('b', 12), hit('c', 7)];
    cluster.on((r) =>
      r.path.endsWith('/_msearch') ? { responses: [hitsAnswer(knn), hitsAnswer(bm25)] } : undefined,
    );
    const query = {
      ownerId: 'owner-1',
      text: 'budget report',
      vector: vec(0.5, 0.5, 0, 0),
      mode: 'hybrid' as const,
      limit: 10,
    };
    const hits = await index.search(query);
    const keys = await index.searchKeys({ ...query, withExcerpts: true });
    const [full, names] = cluster.find('/_msearch').map((r) => msearchBodies(r));
    expect(names).toHaveLength(2); // no passage kNN, whatever withExcerpts says
    expect(names!.map((b) => b._source)).toEqual([
      ['entity_type', 'entity_id'],
      ['entity_type', 'entity_id'],
    ]);
    expect(names!.map(({ _source, ...rest }) => rest)).toEqual(full!.map(({ _source, ...rest }) => rest));
    expect(keys).toEqual(hits.map((h) => ({ entityType: h.entityType, id: h.id, score: h.score })));
  });

  it('hitsOf reads the page by id, in the refs’ order with their scores, leaving out what did not come back', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) =>
      r.path.endsWith('/_msearch')
        ? {
            responses: [
              hitsAnswer([
                hit('a', 1),
                { ...hit('i', 1), _id: 'inventory_item:owner-1:i', _source: src('i', 'inventory_item') },
              ]),
            ],
          }
        : undefined,
    );
    const hits = await index.hitsOf({
      ownerId: 'owner-1',
      refs: [
        { entityType: 'inventory_item', id: 'i', score: 0.9, raw: 3.5 },
        { entityType: 'document', id: 'gone', score: 0.8 },
        { entityType: 'document', id: 'a', score: 0.7 },
      ],
    });
    const [req] = cluster.find('/_msearch');
    expect(req!.path).toBe(`/${ALIAS}/_msearch`);
    expect(msearchBodies(req!)).toEqual([
      {
        size: 3,
        _source: HIT_SOURCE,
        track_total_hits: false,
        query: liveOwner('owner-1', {
          ids: { values: ['inventory_item:owner-1:i', 'document:owner-1:gone', 'document:owner-1:a'] },
        }),
      },
    ]);
    expect(hits.map((h) => [h.entityType, h.id, h.score, h.raw, h.title])).toEqual([
      ['inventory_item', 'i', 0.9, 3.5, 'title i'],
      ['document', 'a', 0.7, undefined, 'title a'],
    ]);
    expect(hits.every((h) => h.excerpt === undefined)).toBe(true);
    expect(await index.hitsOf({ ownerId: 'owner-1', refs: [] })).toEqual([]);
    expect(cluster.find('/_msearch')).toHaveLength(1);
  });

  it('hitsOf with excerpts searches the page’s documents’ passages by meaning and by words', async () => {
    const { cluster, index } = await opened();
    const rows = [hit('a', 1), hit('b', 1)];
    const passages = [hit('a', 0.95, { inner_hits: inner([[2, 0.95, 'a passage on rainfall']]) })];
    const bm25 = [hit('b', 5, { inner_hits: inner([[0, 4, 'budget report for the year']]) })];
    cluster.on((r) =>
      r.path.endsWith('/_msearch')
        ? { responses: [hitsAnswer(rows), hitsAnswer(passages), hitsAnswer(bm25)] }
        : undefined,
    );
    const refs = [
      { entityType: 'document' as const, id: 'a', score: 0.6 },
      { entityType: 'document' as const, id: 'b', score: 0.5 },
      { entityType: 'inventory_item' as const, id: 'i', score: 0.4 },
    ];
    const hits = await index.hitsOf({
      ownerId: 'owner-1',
      refs,
      excerptsFor: { text: ' budget report ', vector: vec(0.5, 0.5, 0, 0) },
    });
    const bodies = msearchBodies(cluster.find('/_msearch')[0]!);
    expect(bodies).toHaveLength(3);
    const docs = liveOwner('owner-1', { ids: { values: ['document:owner-1:a', 'document:owner-1:b'] } });
    expect(bodies[1]!.knn).toMatchObject({
      field: 'passages.vector',
      k: 2,
      filter: docs,
      inner_hits: { size: 3, _source: false, fields: ['passages.text'] },
    });
    expect((bodies[2]!.query as Body).bool.filter).toEqual([docs]);
    expect(hits.map((h) => [h.id, h.excerpt])).toEqual([
      ['a', 'a passage on rainfall'],
      ['b', 'budget report for the year'],
    ]);

    // a zero vector (nothing to embed) asks for passages by words only
    await index.hitsOf({
      ownerId: 'owner-1',
      refs,
      excerptsFor: { text: 'budget', vector: vec(0, 0, 0, 0) },
    });
    const second = msearchBodies(cluster.find('/_msearch')[1]!);
    expect(second).toHaveLength(2);
    expect(second[1]!.knn).toBeUndefined();
  });
});
