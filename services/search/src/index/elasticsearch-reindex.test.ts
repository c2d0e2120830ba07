// The Elasticsearch adapter's reindex against @elastic/elasticsearch-mock: the lease, the `-next`
// alias that mirrors writes, the atomic alias swap, abort, and rebuilds after a model change.
import { describe, expect, it } from 'vitest';
import { bulkAnswer, createTestCluster, hitsAnswer } from './elasticsearch-test-cluster.ts';
import { ALIAS, vec, entity, opened, msearchBodies } from './elasticsearch-index-fixtures.ts';
import type { Body } from './elasticsearch-index-fixtures.ts';

describe('elasticsearch search index: reindex with an atomic alias swap', () => {
  it('takes the lease, names the new index `-next`, mirrors every write into it first, then swaps both aliases in one _aliases call', async () => {
    const { cluster, index } = await opened();
    const old = index.describe().index;
    cluster.on((r) => {
      if (r.path.endsWith('/_bulk'))
        return bulkAnswer('x', Array((r.body as unknown[]).length / 2).fill(201));
      if (r.path.endsWith('/_settings') || r.path.endsWith('/_refresh')) return { acknowledged: true };
      if (r.path === '/_reindex') return { total: 1, created: 1, version_conflicts: 0 };
      return undefined;
    });
    // a later timestamp than the live index
    await new Promise((r) => setTimeout(r, 2));
    const reindex = await index.beginReindex();
    expect(reindex.index).not.toBe(old);
    expect(cluster.find(`/${ALIAS}-lease/_create/reindex`, 'PUT')).toHaveLength(1);
    const created = cluster.find(`/${reindex.index}`, 'PUT')[0]!.body as Body;
    expect(created.settings).toEqual({ refresh_interval: '-1' });
    expect(created.aliases).toBeUndefined();
    expect(cluster.find('/_aliases')[0]!.body).toEqual({
      actions: [{ add: { index: reindex.index, alias: `${ALIAS}-next` } }],
    });

    await reindex.upsert([entity({ id: 'fed' })]);
    const fed = cluster.find('/_bulk').at(-1)!;
    expect(fed.path).toBe(`/${reindex.index}/_bulk`);
    expect(fed.querystring).toEqual({ refresh: 'false' });

    // a change arriving during the rebuild: where the aliases point is asked, then the new index
    // (through `-next`, which must still exist) is written first, the live alias second
    const asked = cluster.find(`/_alias/${ALIAS}*`).length;
    await index.upsert([entity({ id: 'live', version: 9 })]);
    expect(cluster.find(`/_alias/${ALIAS}*`)).toHaveLength(asked + 1);
    const [toNext, toLive] = cluster.find('/_bulk').slice(-2);
    expect(toNext!.path).toBe(`/${ALIAS}-next/_bulk`);
    expect(toNext!.querystring).toEqual({ refresh: 'false', require_alias: 'true' });
    expect(toLive!.path).toBe(`/${ALIAS}/_bulk`);
    await expect(index.beginReindex()).rejects.toThrow(/already under way/);
    // Another replica (its own client state) cannot start a second one: the lease is held.
    const { index: replica } = await opened(cluster);
    await expect(replica.beginReindex()).rejects.toThrow(/a reindex of kaboodle-test is under way/);
    // reads still go through the alias, which still points at the old index
    expect([...cluster.aliases.get(ALIAS)!]).toEqual([old]);

    await reindex.commit();
    expect(cluster.find(`/${reindex.index}/_settings`)[0]!.body).toEqual({ refresh_interval: '1s' });
    expect(cluster.find('/_reindex')[0]!.body).toEqual({
      conflicts: 'proceed',
      source: { index: old, query: { term: { deleted: true } } },
      dest: { index: reindex.index, version_type: 'external' },
    });
    expect(cluster.find('/_reindex')[0]!.querystring).toMatchObject({
      refresh: 'true',
      wait_for_completion: 'true',
    });
    expect(cluster.find('/_aliases').at(-1)!.body).toEqual({
      actions: [
        { remove: { index: old, alias: ALIAS, must_exist: true } },
        { add: { index: reindex.index, alias: ALIAS } },
        { remove: { index: reindex.index, alias: `${ALIAS}-next` } },
      ],
    });
    expect([...cluster.aliases.get(ALIAS)!]).toEqual([reindex.index]);
    expect([...(cluster.aliases.get(`${ALIAS}-next`) ?? [])]).toEqual([]);
    expect(cluster.indices.has(old)).toBe(false);
    expect(cluster.docs.has(`${ALIAS}-lease/reindex`)).toBe(false); // lease released
    expect(index.describe()).toMatchObject({
      index: reindex.index,
      reindexRequired: false,
      reindexing: undefined,
    });
    await expect(reindex.upsert([entity()])).rejects.toThrow(/already finished/);
  });

  it('abort drops the new index and leaves the alias alone', async () => {
    const { cluster, index } = await opened();
    const old = index.describe().index;
    await new Promise((r) => setTimeout(r, 2));
    const reindex = await index.beginReindex();
    await reindex.abort();
    expect(cluster.indices.has(reindex.index)).toBe(false);
    expect([...cluster.aliases.get(ALIAS)!]).toEqual([old]);
    expect([...(cluster.aliases.get(`${ALIAS}-next`) ?? [])]).toEqual([]);
    expect(index.describe().reindexing).toBeUndefined();
    expect(cluster.docs.has(`${ALIAS}-lease/reindex`)).toBe(false);
  });

  it('reindex(fill) commits what fill wrote, and aborts (alias untouched) when fill fails', async () => {
    const { cluster, index } = await opened();
    const old = index.describe().index;
    cluster.on((r) => {
      if (r.path.endsWith('/_bulk')) return bulkAnswer('x', [201]);
      if (r.path.endsWith('/_settings') || r.path.endsWith('/_refresh')) return { acknowledged: true };
      if (r.path === '/_reindex') return { total: 0 };
      return undefined;
    });
    await new Promise((r) => setTimeout(r, 2));
    await expect(
      index.reindex(async (target) => {
        await target.upsert([entity()]);
        throw new Error('catalogue went away');
      }),
    ).rejects.toThrow('catalogue went away');
    expect([...cluster.aliases.get(ALIAS)!]).toEqual([old]);
    // the new index is gone; the memberships index beside the alias was never part of the reindex
    expect([...cluster.indices.keys()].sort()).toEqual([old, `${ALIAS}-kaboodles`].sort());
    expect(index.describe().reindexing).toBeUndefined();

    await new Promise((r) => setTimeout(r, 2));
    let filled = '';
    await index.reindex(async (target) => {
      filled = target.index;
      await target.upsert([entity()]);
    });
    expect([...cluster.aliases.get(ALIAS)!]).toEqual([filled]);
    expect(index.describe().index).toBe(filled);
  });

  it('after a model change, the rebuild gets vectors while the live index keeps text only; after the swap kNN is back', async () => {
    const cluster = createTestCluster();
    const old = `${ALIAS}-3d-20200101000000000`;
    cluster.indices.set(old, { meta: { kaboodle_schema: 1, dimensions: 3, model: 'old-model' }, body: {} });
    cluster.aliases.set(ALIAS, new Set([old]));
    const { index } = await opened(cluster);
    cluster.on((r) => {
      if (r.path.endsWith('/_bulk'))
        return bulkAnswer('x', Array((r.body as unknown[]).length / 2).fill(201));
      if (r.path.endsWith('/_delete_by_query')) return { deleted: 0 };
      if (r.path.endsWith('/_settings') || r.path.endsWith('/_refresh')) return { acknowledged: true };
      if (r.path === '/_reindex') return { total: 0 };
      if (r.path.endsWith('/_msearch')) return { responses: [hitsAnswer([]), hitsAnswer([])] };
      return undefined;
    });
    const reindex = await index.beginReindex();
    await index.upsert([entity()]);
    const [rebuilt, live] = cluster.find('/_bulk').map((r) => (r.body as Body[])[1]!);
    expect(live!.vector).toBeUndefined();
    expect(rebuilt!.vector).toEqual([1, 0, 0, 0]);
    // deleting a user reaches both indices, the new one first, and the user's kaboodles
    await index.deleteOwner('owner-1');
    expect(cluster.find('/_delete_by_query').map((r) => r.path)).toEqual([
      `/${ALIAS}-next/_delete_by_query`,
      `/${ALIAS}/_delete_by_query`,
      `/${ALIAS}-kaboodles/_delete_by_query`,
    ]);
    await reindex.commit();
    expect(index.describe()).toMatchObject({
      index: reindex.index,
      reindexRequired: false,
      meta: { kaboodle_schema: 1, dimensions: 4, model: 'test-model' },
    });
    await index.search({
      ownerId: 'owner-1',
      text: 'report',
      vector: vec(1, 0, 0, 0),
      mode: 'hybrid',
      limit: 5,
    });
    expect(msearchBodies(cluster.find('/_msearch')[0]!)[0]!.knn).toBeDefined();
  });
});
