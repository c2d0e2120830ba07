// Kaboodle memberships on the Elasticsearch adapter, against @elastic/elasticsearch-mock: the index it
// creates beside the alias, the versioned bulk lines and tombstones, the owner check on reads, the
// members filter a search sends, and owner deletion. Query semantics are the contract suite's
// (tests/contract/search-index.elasticsearch.contract.test.ts, on a real cluster).
import { InputError } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import { createElasticsearchSearchIndex } from './elasticsearch-search-index.ts';
import { bulkAnswer, createTestCluster, esError, hitsAnswer } from './elasticsearch-test-cluster.ts';
import type { TestCluster } from './elasticsearch-test-cluster.ts';
import type { IndexedKaboodle } from './search-index.port.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

const ALIAS = 'kaboodle-test';
const KABOODLES = `${ALIAS}-kaboodles`;

async function opened(cluster: TestCluster = createTestCluster()) {
  const index = createElasticsearchSearchIndex({
    indexName: ALIAS,
    dimensions: 4,
    model: 'test-model',
    client: cluster.client,
    replicas: 0,
    bulk: { retryBaseMs: 1 },
  });
  await index.open();
  return { cluster, index };
}

const kaboodle = (over: Partial<IndexedKaboodle> = {}): IndexedKaboodle => ({
  ownerId: 'owner-1',
  id: 'k-1',
  version: 12,
  members: [
    { entityType: 'inventory_item', id: 'item-2' },
    { entityType: 'document', id: 'doc-1' },
  ],
  updatedAt: new Date('2026-02-03T04:05:06.000Z'),
  ...over,
});

describe('elasticsearch kaboodle memberships', () => {
  it('creates <alias>-kaboodles beside the alias when missing: strict mapping, nothing analysed, members stored only', async () => {
    const { cluster } = await opened();
    const [create] = cluster.find(`/${KABOODLES}`, 'PUT');
    const body = create!.body as Body;
    expect(body.settings).toEqual({ number_of_shards: 1, number_of_replicas: 0 });
    expect(body.mappings).toEqual({
      dynamic: 'strict',
      properties: {
        owner_id: { type: 'keyword' },
        kaboodle_id: { type: 'keyword' },
        version: { type: 'long' },
        deleted: { type: 'boolean' },
        members: { type: 'object', enabled: false },
        smart: { type: 'object', enabled: false },
        updated_at: { type: 'date' },
      },
    });
    // not behind the alias: searches of entities never see it
    expect([...(cluster.aliases.get(ALIAS) ?? [])]).not.toContain(KABOODLES);

    // opened again (another replica, a restart): nothing created twice
    const again = await opened(cluster);
    expect(again.cluster.find(`/${KABOODLES}`, 'PUT')).toHaveLength(1);
  });

  it('another replica creating it between the check and the create is fine', async () => {
    const cluster = createTestCluster();
    cluster.on((r) =>
      r.method === 'PUT' && r.path === `/${KABOODLES}`
        ? esError(400, 'resource_already_exists_exception', `index [${KABOODLES}] already exists`)
        : undefined,
    );
    await expect(opened(cluster)).resolves.toBeDefined();
  });

  it('writes each kaboodle with its catalogue version as an external version, members in order', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path === `/${KABOODLES}/_bulk` ? bulkAnswer(KABOODLES, [201]) : undefined));
    const smart = {
      query: 'quinces',
      searchType: 'keyword' as const,
      entityTypes: ['document' as const],
      kaboodleId: 'k-0',
    };
    expect(await index.kaboodles.upsert([kaboodle({ smart })])).toEqual({ applied: 1, stale: 0 });
    const [bulk] = cluster.find(`/${KABOODLES}/_bulk`);
    const [action, doc] = bulk!.body as Body[];
    expect(action).toEqual({ index: { _id: 'kaboodle:owner-1:k-1', version: 12, version_type: 'external' } });
    expect(doc).toEqual({
      owner_id: 'owner-1',
      kaboodle_id: 'k-1',
      version: 12,
      deleted: false,
      members: [
        { type: 'inventory_item', id: 'item-2' },
        { type: 'document', id: 'doc-1' },
      ],
      smart,
      updated_at: '2026-02-03T04:05:06.000Z',
    });
  });

  it('counts a version conflict as stale, and writes only the newest of one kaboodle given twice', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path === `/${KABOODLES}/_bulk` ? bulkAnswer(KABOODLES, [409]) : undefined));
    expect(await index.kaboodles.upsert([kaboodle({ version: 3 }), kaboodle({ version: 2 })])).toEqual({
      applied: 0,
      stale: 2,
    });
    const lines = cluster.find(`/${KABOODLES}/_bulk`)[0]!.body as Body[];
    expect(lines).toHaveLength(2);
    expect(lines[0]!.index.version).toBe(3);
  });

  it('deletes with a versioned tombstone, so a late older upsert cannot bring the kaboodle back', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path === `/${KABOODLES}/_bulk` ? bulkAnswer(KABOODLES, [200]) : undefined));
    await index.kaboodles.delete([{ ownerId: 'owner-1', id: 'k-1', version: 20 }]);
    const [action, doc] = cluster.find(`/${KABOODLES}/_bulk`)[0]!.body as Body[];
    expect(action).toEqual({ index: { _id: 'kaboodle:owner-1:k-1', version: 20, version_type: 'external' } });
    expect(doc).toMatchObject({ owner_id: 'owner-1', kaboodle_id: 'k-1', deleted: true, members: [] });
  });

  it('reads a kaboodle back for its owner only; tombstones, missing ones and colliding ids answer undefined', async () => {
    const { cluster, index } = await opened();
    const stored: Record<string, Body> = {
      'kaboodle:owner-1:k-1': {
        owner_id: 'owner-1',
        kaboodle_id: 'k-1',
        version: 12,
        deleted: false,
        members: [{ type: 'document', id: 'doc-1' }],
        updated_at: '2026-02-03T04:05:06.000Z',
      },
      'kaboodle:owner-1:k-gone': { owner_id: 'owner-1', kaboodle_id: 'k-gone', deleted: true, members: [] },
      // an owner id with a colon could build another owner's document id: the source decides
      'kaboodle:owner-1:x:k': { owner_id: 'owner-1:x', kaboodle_id: 'k', deleted: false, members: [] },
    };
    cluster.on((r) => {
      if (r.method !== 'GET' || !r.path.startsWith(`/${KABOODLES}/_doc/`)) return undefined;
      const id = decodeURIComponent(r.path.slice(`/${KABOODLES}/_doc/`.length));
      const source = stored[id];
      return source
        ? { _index: KABOODLES, _id: id, _version: 12, found: true, _source: source }
        : esError(404, 'not_found');
    });
    expect(await index.kaboodles.get('owner-1', 'k-1')).toEqual({
      ownerId: 'owner-1',
      id: 'k-1',
      version: 12,
      members: [{ entityType: 'document', id: 'doc-1' }],
      updatedAt: new Date('2026-02-03T04:05:06.000Z'),
    });
    expect(await index.kaboodles.get('owner-1', 'k-gone')).toBeUndefined();
    expect(await index.kaboodles.get('owner-1', 'nope')).toBeUndefined();
    expect(await index.kaboodles.get('owner-1', 'x:k')).toBeUndefined();
  });

  it('a search of some members adds an ids filter of their owner-scoped document ids inside kNN and BM25', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) =>
      r.path.endsWith('/_msearch') ? { responses: [hitsAnswer([]), hitsAnswer([])] } : undefined,
    );
    await index.search({
      ownerId: 'owner-1',
      text: 'walnut',
      vector: Float32Array.from([1, 0, 0, 0]),
      mode: 'hybrid',
      limit: 5,
      only: [
        { entityType: 'document', id: 'doc-1' },
        { entityType: 'inventory_item', id: 'item-2' },
      ],
    });
    const lines = cluster.find('/_msearch')[0]!.body as Body[];
    const [knn, bm25] = [lines[1]!, lines[3]!];
    const ids = { ids: { values: ['document:owner-1:doc-1', 'inventory_item:owner-1:item-2'] } };
    expect(knn.knn.filter.bool.filter).toContainEqual(ids);
    expect(bm25.query.bool.filter[0].bool.filter).toContainEqual(ids);
  });

  it('an empty member list answers no hits without asking the cluster', async () => {
    const { cluster, index } = await opened();
    const before = cluster.requests.length;
    expect(
      await index.search({ ownerId: 'owner-1', text: 'x', mode: 'keyword', limit: 5, only: [] }),
    ).toEqual([]);
    expect(cluster.requests.length).toBe(before);
  });

  it('lists live kaboodles changed before a time with search_after, and removes an owner’s with delete_by_query', async () => {
    const { cluster, index } = await opened();
    const page = (n: number, from: number) =>
      hitsAnswer(
        Array.from({ length: n }, (_, i) => ({
          _id: `kaboodle:o:${from + i}`,
          _source: { owner_id: 'o', kaboodle_id: `k${from + i}`, version: from + i },
          sort: ['o', `k${from + i}`],
        })),
      );
    let pages = 0;
    cluster.on((r) => {
      if (r.path === `/${KABOODLES}/_search`) return pages++ === 0 ? page(2, 0) : page(1, 2);
      if (r.path.endsWith(`/_delete_by_query`)) return { deleted: 3 };
      return undefined;
    });
    const listed = [];
    for await (const batch of index.kaboodles.listLive({
      updatedBefore: new Date('2026-03-01T00:00:00Z'),
      batchSize: 2,
    }))
      listed.push(...batch);
    expect(listed.map((r) => r.id)).toEqual(['k0', 'k1', 'k2']);
    const [first, second] = cluster.find(`/${KABOODLES}/_search`).map((r) => r.body as Body);
    expect(first!.query).toEqual({
      bool: {
        filter: [{ range: { updated_at: { lt: '2026-03-01T00:00:00.000Z' } } }],
        must_not: [{ term: { deleted: true } }],
      },
    });
    expect(second!.search_after).toEqual(['o', 'k1']);

    await index.deleteOwner('owner-1');
    const [del] = cluster.find(`/${KABOODLES}/_delete_by_query`);
    expect(del!.body).toEqual({ query: { term: { owner_id: 'owner-1' } } });
  });

  it('refuses bad kaboodles before sending anything', async () => {
    const { cluster, index } = await opened();
    const before = cluster.requests.length;
    await expect(index.kaboodles.upsert([kaboodle({ ownerId: '' })])).rejects.toThrow(InputError);
    await expect(index.kaboodles.upsert([kaboodle({ version: 1.5 })])).rejects.toThrow(InputError);
    await expect(
      index.kaboodles.upsert([kaboodle({ members: [{ entityType: 'file' as never, id: 'f' }] })]),
    ).rejects.toThrow(InputError);
    await expect(index.kaboodles.delete([{ ownerId: 'o', id: '', version: 1 }])).rejects.toThrow(InputError);
    expect(cluster.requests.length).toBe(before);
  });
});
