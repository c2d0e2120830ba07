// The Elasticsearch adapter's open() against @elastic/elasticsearch-mock: the template, the physical
// index behind the alias, reuse, model changes, version and name checks, racing replicas. Writes,
// search, reads and reindex have their own files (elasticsearch-*.test.ts); query semantics run
// against a real cluster in the contract suite (tests/contract/search-index.elasticsearch.contract.test.ts).
import { InputError } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import { createElasticsearchSearchIndex } from './elasticsearch-search-index.ts';
import { bulkAnswer, createTestCluster, hitsAnswer } from './elasticsearch-test-cluster.ts';
import { DIMS, ALIAS, vec, entity, opened, msearchBodies, hit } from './elasticsearch-index-fixtures.ts';
import type { Body } from './elasticsearch-index-fixtures.ts';

describe('elasticsearch search index: open()', () => {
  it('installs the index template, then creates <alias>-<dims>d-<timestamp> with the alias, cosine HNSW vectors and _meta', async () => {
    const { cluster, index } = await opened();

    const [template] = cluster.find(`/_index_template/${ALIAS}`, 'PUT');
    const t = template!.body as Body;
    expect(t.index_patterns).toEqual([`${ALIAS}-*d-*`]);
    expect(t.template.settings.number_of_shards).toBe(1);
    expect(t.template.settings.analysis.analyzer.kaboodle_text).toEqual({
      type: 'custom',
      tokenizer: 'standard',
      filter: ['kaboodle_possessive', 'lowercase', 'asciifolding', 'kaboodle_stop', 'kaboodle_stemmer'],
    });
    const props = t.template.mappings.properties;
    expect(t.template.mappings.dynamic).toBe('strict');
    expect(props.owner_id).toEqual({ type: 'keyword' });
    expect(props.entity_type).toEqual({ type: 'keyword' });
    expect(props.version).toEqual({ type: 'long' });
    expect(props.deleted).toEqual({ type: 'boolean' });
    expect(props.title.analyzer).toBe('kaboodle_text');
    expect(props.hashtags).toEqual({
      type: 'keyword',
      ignore_above: 1024,
      fields: { text: { type: 'text', analyzer: 'kaboodle_text' } },
    });
    expect(props.hashtags_norm).toEqual({ type: 'keyword', ignore_above: 1024 });
    expect(props.category.type).toBe('keyword');
    expect(props.created_at).toEqual({ type: 'date' });
    expect(props.passages.type).toBe('nested');

    const created = cluster.requests.filter(
      (r) => r.method === 'PUT' && /^\/kaboodle-test-4d-\d{17}$/.test(r.path),
    );
    expect(created).toHaveLength(1);
    const body = created[0]!.body as Body;
    const vector = {
      type: 'dense_vector',
      dims: 4,
      index: true,
      similarity: 'cosine',
      index_options: { type: 'hnsw', m: 16, ef_construction: 100 },
    };
    expect(body.mappings.properties.vector).toEqual(vector);
    expect(body.mappings.properties.passages).toEqual({ type: 'nested', properties: { vector } });
    expect(body.mappings._meta).toEqual({ kaboodle_schema: 1, dimensions: 4, model: 'test-model' });
    expect(body.aliases).toEqual({ [ALIAS]: {} });
    expect(body.settings).toEqual({ refresh_interval: '1s' });

    const state = index.describe();
    expect(state.index).toBe(created[0]!.path.slice(1));
    expect(state.reindexRequired).toBe(false);
    expect(state.serverVersion).toBe('8.15.0');
  });

  it('reuses the index behind an existing alias and creates nothing', async () => {
    const cluster = createTestCluster();
    cluster.indices.set(`${ALIAS}-4d-20260101000000000`, {
      meta: { kaboodle_schema: 1, dimensions: 4, model: 'test-model' },
      body: {},
    });
    cluster.aliases.set(ALIAS, new Set([`${ALIAS}-4d-20260101000000000`]));
    cluster.indices.set(`${ALIAS}-kaboodles`, { meta: undefined, body: {} });
    const { index } = await opened(cluster);
    expect(cluster.requests.filter((r) => r.method === 'PUT' && r.path.startsWith(`/${ALIAS}-`))).toEqual([]);
    expect(index.describe()).toMatchObject({
      index: `${ALIAS}-4d-20260101000000000`,
      reindexRequired: false,
    });
  });

  it('flags a reindex when the alias index was built for another model, and keeps its text current without vectors', async () => {
    const cluster = createTestCluster();
    const old = `${ALIAS}-3d-20260101000000000`;
    cluster.indices.set(old, { meta: { kaboodle_schema: 1, dimensions: 3, model: 'old-model' }, body: {} });
    cluster.aliases.set(ALIAS, new Set([old]));
    const { index } = await opened(cluster);
    expect(index.describe()).toMatchObject({ index: old, reindexRequired: true });

    cluster.on((r) => (r.path.endsWith('/_bulk') ? bulkAnswer(old, [201]) : undefined));
    await index.upsert([entity()]);
    const lines = cluster.find('/_bulk')[0]!.body as Array<Body>;
    expect(lines[1]!.vector).toBeUndefined();
    expect(lines[1]!.passages).toEqual([{ text: 'first passage', start: 0, end: 13 }]);
    expect(lines[1]!.title).toBe('Annual report');

    // Query vectors of the new model cannot be compared with the old index: keyword answers alone.
    cluster.on((r) =>
      r.path.endsWith('/_msearch') ? { responses: [hitsAnswer([hit('a', 2)])] } : undefined,
    );
    const hits = await index.search({
      ownerId: 'owner-1',
      text: 'report',
      vector: vec(1, 0, 0, 0),
      mode: 'hybrid',
      limit: 5,
    });
    expect(hits.map((h) => h.id)).toEqual(['a']);
    const bodies = msearchBodies(cluster.find('/_msearch')[0]!);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.knn).toBeUndefined();
    expect(
      await index.search({
        ownerId: 'owner-1',
        text: 'x',
        vector: vec(1, 0, 0, 0),
        mode: 'semantic',
        limit: 5,
      }),
    ).toEqual([]);
    expect(cluster.find('/_msearch')).toHaveLength(1);
  });

  it('refuses a cluster older than 8.14 with a clear message', async () => {
    const cluster = createTestCluster('8.13.4');
    const index = createElasticsearchSearchIndex({
      indexName: ALIAS,
      dimensions: DIMS,
      client: cluster.client,
    });
    await expect(index.open()).rejects.toThrow(
      /Elasticsearch 8\.13\.4 is too old: this index needs 8\.14 or later/,
    );
  });

  it('refuses to start when a concrete index already holds the alias name', async () => {
    const cluster = createTestCluster();
    cluster.indices.set(ALIAS, { meta: undefined, body: {} });
    const index = createElasticsearchSearchIndex({
      indexName: ALIAS,
      dimensions: DIMS,
      client: cluster.client,
    });
    await expect(index.open()).rejects.toThrow(/an index named kaboodle-test exists/);
  });

  it('when two replicas race to create the index, the newer one removes its own so the alias ends on one index', async () => {
    const cluster = createTestCluster();
    const other = `${ALIAS}-4d-20000101000000000`; // created a moment earlier by another replica
    cluster.on((r) => {
      if (r.method === 'PUT' && /^\/kaboodle-test-4d-\d{17}$/.test(r.path) && r.path !== `/${other}`) {
        cluster.indices.set(other, {
          meta: { kaboodle_schema: 1, dimensions: 4, model: 'test-model' },
          body: {},
        });
        cluster.aliases.set(ALIAS, new Set([other]));
      }
      return undefined;
    });
    const { index } = await opened(cluster);
    expect(index.describe().index).toBe(other);
    expect([...cluster.aliases.get(ALIAS)!]).toEqual([other]);
    expect(cluster.find('', 'DELETE')).toHaveLength(1);
  });

  it('rejects a bad alias name and bad dimensions before any request', () => {
    expect(() => createElasticsearchSearchIndex({ indexName: 'Bad Name', dimensions: 4 })).toThrow(
      InputError,
    );
    expect(() => createElasticsearchSearchIndex({ indexName: 'ok', dimensions: 0 })).toThrow(InputError);
  });
});
