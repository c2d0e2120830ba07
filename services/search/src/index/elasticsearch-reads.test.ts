// The Elasticsearch adapter's reads against @elastic/elasticsearch-mock: related, versionOf, stats
// and listLive (rebuild pruning), the requests sent and how answers are read.
import { NotFoundError } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import { createTestCluster, esError, hitsAnswer } from './elasticsearch-test-cluster.ts';
import { ALIAS, opened, hit } from './elasticsearch-index-fixtures.ts';
import type { Body } from './elasticsearch-index-fixtures.ts';

describe('elasticsearch search index: related, versionOf, stats', () => {
  it('finds neighbours of the stored vector, owner filtered, never itself, above the minimum similarity', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => {
      if (r.path.includes('/_doc/') && r.method === 'GET') {
        return {
          _index: 'x',
          _id: 'document:owner-1:doc-1',
          _version: 3,
          found: true,
          _source: { vector: [1, 0, 0, 0], deleted: false, owner_id: 'owner-1' },
        };
      }
      if (r.path.endsWith('/_search')) return hitsAnswer([hit('b', 0.95), hit('c', 0.7), hit('d', 0.6)]);
      return undefined;
    });
    const hits = await index.related({
      ownerId: 'owner-1',
      entityType: 'document',
      id: 'doc-1',
      limit: 5,
      minSimilarity: 0.3,
    });
    expect(hits.map((h) => [h.id, Number(h.score.toFixed(6))])).toEqual([
      ['b', 0.9],
      ['c', 0.4],
    ]);
    // (the mock records paths decoded)
    const [get] = cluster.find('/_doc/document:owner-1:doc-1');
    expect(get!.path).toBe(`/${ALIAS}/_doc/document:owner-1:doc-1`);
    expect(get!.querystring).toEqual({ _source_includes: 'vector,deleted,owner_id' });
    const [search] = cluster.find('/_search');
    expect((search!.body as Body).knn).toEqual({
      field: 'vector',
      query_vector: [1, 0, 0, 0],
      k: 5,
      num_candidates: 100,
      filter: {
        bool: {
          filter: [{ term: { owner_id: 'owner-1' } }],
          must_not: [{ term: { deleted: true } }, { ids: { values: ['document:owner-1:doc-1'] } }],
        },
      },
    });
  });

  it('on Elasticsearch 9.2+ asks for the vector explicitly (vectors are left out of _source there)', async () => {
    const { cluster, index } = await opened(createTestCluster('9.2.1'));
    cluster.on((r) => (r.path.includes('/_doc/') ? esError(404, 'not_found') : undefined));
    await expect(
      index.related({ ownerId: 'owner-1', entityType: 'document', id: 'doc-1', limit: 5 }),
    ).rejects.toThrow(NotFoundError);
    expect(cluster.find('/_doc/document:owner-1:doc-1')[0]!.querystring).toEqual({
      _source_includes: 'vector,deleted,owner_id',
      _source_exclude_vectors: 'false',
    });
  });

  it('answers a deleted entity or another owner’s as not found, without searching; one without a vector has no neighbours', async () => {
    const { cluster, index } = await opened();
    let source: Record<string, unknown> = { vector: [1, 0, 0, 0], deleted: true, owner_id: 'owner-1' };
    cluster.on((r) =>
      r.path.includes('/_doc/') ? { _id: 'x', _version: 1, found: true, _source: source } : undefined,
    );
    const ask = () => index.related({ ownerId: 'owner-1', entityType: 'document', id: 'doc-1', limit: 5 });
    await expect(ask()).rejects.toThrow(new NotFoundError('Not found'));
    source = { vector: [1, 0, 0, 0], deleted: false, owner_id: 'owner-2' };
    await expect(ask()).rejects.toThrow(NotFoundError);
    source = { deleted: false, owner_id: 'owner-1' };
    expect(await ask()).toEqual([]);
    expect(cluster.find('/_search')).toEqual([]);
  });

  it('reads the stored version; tombstones and missing documents answer undefined', async () => {
    const { cluster, index } = await opened();
    let answer: unknown = {
      _id: 'x',
      _version: 5,
      found: true,
      _source: { deleted: false, owner_id: 'owner-1' },
    };
    cluster.on((r) => (r.path.includes('/_doc/') ? (answer as never) : undefined));
    const ref = { entityType: 'document' as const, id: 'doc-1', ownerId: 'owner-1' };
    expect(await index.versionOf(ref)).toBe(5);
    answer = { _id: 'x', _version: 6, found: true, _source: { deleted: true, owner_id: 'owner-1' } };
    expect(await index.versionOf(ref)).toBeUndefined();
    answer = esError(404, 'not_found');
    expect(await index.versionOf(ref)).toBeUndefined();
  });

  it('counts one owner from their documents only (entities and stored bytes), and everything from _count and the store size', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => {
      if (r.path.endsWith('/_search')) {
        return {
          hits: { total: { value: 12, relation: 'eq' }, hits: [] },
          aggregations: { bytes: { value: 3456 } },
        };
      }
      if (r.path.endsWith('/_count')) return { count: 40 };
      if (r.path.endsWith('/_stats/store'))
        return { _all: { primaries: { store: { size_in_bytes: 4096 } } } };
      return undefined;
    });
    expect(await index.stats('owner-1')).toEqual({ entities: 12, sizeBytes: 3456 });
    expect(cluster.find('/_search')[0]!.body).toEqual({
      size: 0,
      track_total_hits: true,
      query: {
        bool: { filter: [{ term: { owner_id: 'owner-1' } }], must_not: [{ term: { deleted: true } }] },
      },
      aggs: { bytes: { sum: { field: 'stored_bytes' } } },
    });
    expect(await index.stats()).toEqual({ entities: 40, sizeBytes: 4096 });
    expect(cluster.find('/_count')[0]!.body).toEqual({
      query: { bool: { must_not: [{ term: { deleted: true } }] } },
    });
  });

  it('counts one owner’s live entities with _count (what a search asks), owner filtered', async () => {
    const { cluster, index } = await opened();
    let down = false;
    cluster.on((r) =>
      r.path.endsWith('/_count')
        ? down
          ? esError(503, 'unavailable_shards_exception')
          : { count: 987 }
        : undefined,
    );
    expect(await index.entityCount('owner-1')).toBe(987);
    const sent = cluster.find('/_count');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toContain(ALIAS);
    expect(sent[0]!.body).toEqual({
      query: {
        bool: { filter: [{ term: { owner_id: 'owner-1' } }], must_not: [{ term: { deleted: true } }] },
      },
    });
    down = true;
    await expect(index.entityCount('owner-1')).rejects.toThrow(/counting an owner's entities/);
  });
});

describe('elasticsearch search index: listLive (rebuild pruning)', () => {
  it('pages live entities changed before the time through the alias with search_after, in (owner, type, id) order', async () => {
    const { cluster, index } = await opened();
    const page = (ids: string[]) => ({
      hits: {
        hits: ids.map((id, i) => ({
          _index: `${ALIAS}-4d-1`,
          _id: `document:owner-1:${id}`,
          _source: { entity_type: 'document', entity_id: id, owner_id: 'owner-1', version: i + 1 },
          sort: ['owner-1', 'document', id],
        })),
      },
    });
    let calls = 0;
    cluster.on((r) => {
      if (!r.path.endsWith('/_search')) return undefined;
      calls += 1;
      return calls === 1 ? page(['a', 'b']) : page(['c']);
    });
    const batches = [];
    for await (const refs of index.listLive({
      updatedBefore: new Date('2026-02-01T00:00:00Z'),
      batchSize: 2,
    }))
      batches.push(refs);
    expect(batches).toEqual([
      [
        { entityType: 'document', id: 'a', ownerId: 'owner-1', version: 1 },
        { entityType: 'document', id: 'b', ownerId: 'owner-1', version: 2 },
      ],
      [{ entityType: 'document', id: 'c', ownerId: 'owner-1', version: 1 }],
    ]);
    const searches = cluster.find('/_search');
    expect(searches.map((r) => r.path)).toEqual([`/${ALIAS}/_search`, `/${ALIAS}/_search`]);
    expect(searches[0]!.body).toEqual({
      size: 2,
      _source: ['entity_type', 'entity_id', 'owner_id', 'version'],
      query: {
        bool: {
          filter: [{ range: { updated_at: { lt: '2026-02-01T00:00:00.000Z' } } }],
          must_not: [{ term: { deleted: true } }],
        },
      },
      sort: [{ owner_id: 'asc' }, { entity_type: 'asc' }, { entity_id: 'asc' }],
    });
    expect((searches[1]!.body as { search_after: unknown }).search_after).toEqual([
      'owner-1',
      'document',
      'b',
    ]);
  });

  it('refuses an invalid date before any request', async () => {
    const { cluster, index } = await opened();
    const before = cluster.requests.length;
    const pages = index.listLive({ updatedBefore: new Date('nope') });
    await expect(pages[Symbol.asyncIterator]().next()).rejects.toThrow('updatedBefore must be a valid date');
    expect(cluster.requests.length).toBe(before);
  });
});
