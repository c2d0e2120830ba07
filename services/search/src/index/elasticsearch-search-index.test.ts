// The Elasticsearch adapter against @elastic/elasticsearch-mock: the exact requests it sends
// (template, index, alias swap, bulk lines, msearch bodies) and how it reads answers (409 → stale,
// 429 → retry, RRF fusion of canned hits). No query semantics here: the contract suite
// (tests/contract/search-index.elasticsearch.contract.test.ts) runs those against a real cluster.
import { InputError, NotFoundError } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import { createElasticsearchSearchIndex } from './elasticsearch-search-index.ts';
import type { ElasticsearchSearchIndexOptions } from './elasticsearch-search-index.ts';
import { bulkAnswer, createTestCluster, esError, hitsAnswer } from './elasticsearch-test-cluster.ts';
import type { RecordedRequest, TestCluster } from './elasticsearch-test-cluster.ts';
import type { IndexedEntity } from './search-index.port.ts';
import { reciprocalRankFusion } from './search-scoring.ts';

// Request bodies are arbitrary JSON; the assertions say what shape they expect.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

const DIMS = 4;
const ALIAS = 'kaboodle-test';

function vec(...xs: number[]): Float32Array {
  return Float32Array.from(xs);
}

function entity(over: Partial<IndexedEntity> = {}): IndexedEntity {
  return {
    entityType: 'document',
    id: 'doc-1',
    ownerId: 'owner-1',
    version: 3,
    title: 'Annual report',
    description: 'What happened this year',
    content: 'The full text of the annual report.',
    category: 'Finance',
    hashtags: ['#Budget', 'planning'],
    keywords: ['Ada Lovelace'],
    url: '/api/documents/doc-1/file',
    imageUrl: '',
    createdAt: new Date('2026-01-02T03:04:05.000Z'),
    updatedAt: new Date('2026-01-03T03:04:05.000Z'),
    vector: vec(1, 0, 0, 0),
    passages: [{ text: 'first passage', start: 0, end: 13, vector: vec(0, 1, 0, 0) }],
    ...over,
  };
}

async function opened(
  cluster: TestCluster = createTestCluster(),
  over: Partial<ElasticsearchSearchIndexOptions> = {},
) {
  const index = createElasticsearchSearchIndex({
    indexName: ALIAS,
    dimensions: DIMS,
    model: 'test-model',
    client: cluster.client,
    bulk: { retryBaseMs: 1 },
    ...over,
  });
  await index.open();
  return { cluster, index };
}

/** The msearch request's bodies, without the `{}` header lines. */
function msearchBodies(req: RecordedRequest): Array<Record<string, unknown>> {
  const lines = req.body as Array<Record<string, unknown>>;
  return lines.filter((_, i) => i % 2 === 1);
}

const liveOwner = (owner: string, ...more: unknown[]) => ({
  bool: { filter: [{ term: { owner_id: owner } }, ...more], must_not: [{ term: { deleted: true } }] },
});

const src = (id: string, type = 'document') => ({
  entity_type: type,
  entity_id: id,
  title: `title ${id}`,
  description: `description ${id}`,
  content_preview: `content ${id}`,
  url: type === 'document' ? `/api/documents/${id}/file` : '',
  image_url: type === 'document' ? '' : `/api/inventory/${id}/image`,
  category: 'Finance',
  hashtags: ['#Budget'],
});
const hit = (id: string, score: number, extra: Record<string, unknown> = {}) => ({
  _index: `${ALIAS}-4d-1`,
  _id: `document:owner-1:${id}`,
  _score: score,
  _source: src(id),
  ...extra,
});

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

describe('elasticsearch search index: writes', () => {
  it('bulk-indexes through the alias with external versions (the catalogue version), owner-scoped ids and wait_for refresh', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path.endsWith('/_bulk') ? bulkAnswer(ALIAS, [201, 200]) : undefined));
    const zero = entity({
      id: 'item-9',
      entityType: 'inventory_item',
      version: 7,
      vector: vec(0, 0, 0, 0),
      passages: [],
    });
    expect(await index.upsert([entity(), zero])).toEqual({ applied: 2, stale: 0 });

    const [req] = cluster.find('/_bulk');
    expect(req!.path).toBe(`/${ALIAS}/_bulk`);
    expect(req!.querystring).toEqual({ refresh: 'wait_for' });
    const lines = req!.body as Array<Body>;
    expect(lines[0]).toEqual({
      index: { _id: 'document:owner-1:doc-1', version: 3, version_type: 'external' },
    });
    expect(lines[1]).toEqual({
      entity_type: 'document',
      entity_id: 'doc-1',
      owner_id: 'owner-1',
      version: 3,
      deleted: false,
      // text as stored + the entity's and its passage's float32 vectors
      stored_bytes:
        Buffer.byteLength(
          'Annual report' +
            'What happened this year' +
            'The full text of the annual report.' +
            'Ada Lovelace' +
            '#Budget' +
            'planning' +
            'first passage',
        ) +
        2 * 4 * 4,
      title: 'Annual report',
      description: 'What happened this year',
      content: 'The full text of the annual report.',
      content_preview: 'The full text of the annual report.',
      keywords: ['Ada Lovelace'],
      category: 'Finance',
      hashtags: ['#Budget', 'planning'],
      hashtags_norm: ['budget', 'planning'],
      url: '/api/documents/doc-1/file',
      image_url: '',
      created_at: '2026-01-02T03:04:05.000Z',
      updated_at: '2026-01-03T03:04:05.000Z',
      vector: [1, 0, 0, 0],
      passages: [{ text: 'first passage', start: 0, end: 13, vector: [0, 1, 0, 0] }],
    });
    expect(lines[2]).toEqual({
      index: { _id: 'inventory_item:owner-1:item-9', version: 7, version_type: 'external' },
    });
    // cosine cannot take a zero vector: the entity is stored for keyword search only
    expect(lines[3]!.vector).toBeUndefined();
  });

  it('counts 409 version conflicts as stale, not as failures', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path.endsWith('/_bulk') ? bulkAnswer(ALIAS, [409, 201, 409]) : undefined));
    const out = await index.upsert([entity({ id: 'a' }), entity({ id: 'b' }), entity({ id: 'c' })]);
    expect(out).toEqual({ applied: 1, stale: 2 });
  });

  it('retries only the items refused with 429, then succeeds', async () => {
    const { cluster, index } = await opened();
    let call = 0;
    cluster.on((r) => {
      if (!r.path.endsWith('/_bulk')) return undefined;
      call++;
      return call === 1 ? bulkAnswer(ALIAS, [201, 429, 429]) : bulkAnswer(ALIAS, [201, 409]);
    });
    const out = await index.upsert([entity({ id: 'a' }), entity({ id: 'b' }), entity({ id: 'c' })]);
    expect(out).toEqual({ applied: 2, stale: 1 });
    const retried = cluster.find('/_bulk')[1]!.body as Array<Body>;
    expect(retried.filter((_, i) => i % 2 === 0).map((l) => l.index._id)).toEqual([
      'document:owner-1:b',
      'document:owner-1:c',
    ]);
  });

  it('retries a whole bulk request answered 429', async () => {
    const { cluster, index } = await opened();
    let call = 0;
    cluster.on((r) => {
      if (!r.path.endsWith('/_bulk')) return undefined;
      return ++call === 1 ? esError(429, 'es_rejected_execution_exception') : bulkAnswer(ALIAS, [201]);
    });
    expect(await index.upsert([entity()])).toEqual({ applied: 1, stale: 0 });
    expect(cluster.find('/_bulk')).toHaveLength(2);
  });

  it('gives up after the configured retries when the cluster keeps answering 429', async () => {
    const { cluster, index } = await opened(undefined, { bulk: { retryBaseMs: 1, maxRetries: 2 } });
    cluster.on((r) => (r.path.endsWith('/_bulk') ? bulkAnswer(ALIAS, [429]) : undefined));
    await expect(index.upsert([entity()])).rejects.toThrow(/still refused with 429 after 2 retries/);
    expect(cluster.find('/_bulk')).toHaveLength(3);
  });

  it('reports items Elasticsearch refuses for other reasons, with the reason', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path.endsWith('/_bulk') ? bulkAnswer(ALIAS, [201, 400]) : undefined));
    await expect(index.upsert([entity({ id: 'a' }), entity({ id: 'b' })])).rejects.toThrow(
      /indexing 2 entities into elasticsearch alias kaboodle-test: bulk indexing into kaboodle-test: 1 failure\(s\): document:owner-1:b: 400 document_parsing_exception/,
    );
  });

  it('splits large writes into batches with bounded concurrency', async () => {
    const { cluster, index } = await opened(undefined, {
      bulk: { batchSize: 2, concurrency: 2, retryBaseMs: 1 },
    });
    let inFlight = 0;
    let peak = 0;
    cluster.on((r) => {
      if (!r.path.endsWith('/_bulk')) return undefined;
      inFlight++;
      peak = Math.max(peak, inFlight);
      queueMicrotask(() => inFlight--);
      const n = (r.body as unknown[]).length / 2;
      return bulkAnswer(ALIAS, Array(n).fill(201));
    });
    const many = Array.from({ length: 7 }, (_, i) => entity({ id: `d${i}` }));
    expect(await index.upsert(many)).toEqual({ applied: 7, stale: 0 });
    expect(cluster.find('/_bulk').map((r) => (r.body as unknown[]).length / 2)).toEqual([2, 2, 2, 1]);
    expect(peak).toBeLessThanOrEqual(2);
  });

  it('refuses an entity whose vector does not have the index dimensions', async () => {
    const { index } = await opened();
    await expect(index.upsert([entity({ vector: vec(1, 2, 3) })])).rejects.toThrow(
      new InputError('The vector of entity doc-1 has 3 dimensions; the index expects 4'),
    );
    await expect(index.upsert([entity({ vector: vec(1, NaN, 0, 0) })])).rejects.toThrow(InputError);
    await expect(index.upsert([entity({ version: -1 })])).rejects.toThrow(InputError);
    await expect(index.upsert([entity({ entityType: 'person' as never })])).rejects.toThrow(
      /Unknown entity type: person/,
    );
  });

  it('deletes by writing version-guarded tombstones (they outlive index.gc_deletes)', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path.endsWith('/_bulk') ? bulkAnswer(ALIAS, [201, 409]) : undefined));
    const out = await index.delete([
      { entityType: 'document', id: 'doc-1', ownerId: 'owner-1', version: 4 },
      { entityType: 'inventory_item', id: 'item-2', ownerId: 'owner-1', version: 2 },
    ]);
    expect(out).toEqual({ applied: 1, stale: 1 });
    const lines = cluster.find('/_bulk')[0]!.body as Array<Body>;
    expect(lines[0]).toEqual({
      index: { _id: 'document:owner-1:doc-1', version: 4, version_type: 'external' },
    });
    expect(lines[1]).toMatchObject({
      entity_type: 'document',
      entity_id: 'doc-1',
      owner_id: 'owner-1',
      version: 4,
      deleted: true,
      passages: [],
    });
    expect(lines[1]!.vector).toBeUndefined();
  });

  it('deletes an owner with delete_by_query on owner_id', async () => {
    const { cluster, index } = await opened();
    cluster.on((r) => (r.path.endsWith('/_delete_by_query') ? { deleted: 3 } : undefined));
    await index.deleteOwner('owner-1');
    const [req] = cluster.find('/_delete_by_query');
    expect(req!.path).toBe(`/${ALIAS}/_delete_by_query`);
    expect(req!.body).toEqual({ query: { term: { owner_id: 'owner-1' } } });
    expect(req!.querystring).toMatchObject({
      conflicts: 'proceed',
      refresh: 'true',
      wait_for_completion: 'true',
    });
    await expect(index.deleteOwner('')).rejects.toThrow(InputError);
  });
});

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
    // inner hits come back under the nested path's name, as Elasticsearch's own REST tests show
    const inner = (hits: Array<[number, number, string]>) => ({
      passages: {
        hits: {
          hits: hits.map(([offset, score, text]) => ({
            _nested: { field: 'passages', offset },
            _score: score,
            fields: { passages: [{ text: [text] }] },
          })),
        },
      },
    });
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
