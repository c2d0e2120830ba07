// The Elasticsearch image index against @elastic/elasticsearch-mock: the mapping it creates (a
// dense_vector of the model's size, cosine, HNSW), the version-guarded bulk lines, the kNN request
// (owner, live, model, the item itself left out) and how answers are read (409 → stale, scores →
// cosine). Query semantics run in tests/contract/image-index.elasticsearch.contract.test.ts.
import { InputError } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import { createElasticsearchImageIndex, imageIndexName } from './elasticsearch-image-index.ts';
import { bulkAnswer, createTestCluster, hitsAnswer } from './elasticsearch-test-cluster.ts';
import type { ImageRecord } from './image-index.port.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;
const DIMS = 4;
const MODEL = 'mobilenetv3-test';
const INDEX = imageIndexName('kaboodle-test', MODEL);

const record = (over: Partial<ImageRecord> = {}): ImageRecord => ({
  entityType: 'inventory_item',
  id: 'item-1',
  ownerId: 'alice',
  version: 3,
  model: MODEL,
  vector: Float32Array.from([1, 0, 0, 0]),
  title: 'Red bowl',
  description: 'A red bowl',
  category: 'Bowls',
  imageUrl: '/api/inventory/item-1/image?w=320',
  hashtags: ['bowls'],
  ...over,
});

async function opened() {
  const cluster = createTestCluster();
  const index = createElasticsearchImageIndex({
    indexName: 'kaboodle-test',
    dimensions: DIMS,
    model: MODEL,
    client: cluster.client,
    bulk: { retryBaseMs: 1 },
  });
  await index.open();
  return { cluster, index };
}

describe('Elasticsearch image index (mock cluster)', () => {
  it('creates one index per model with a cosine dense_vector of the model size', async () => {
    const { cluster } = await opened();
    const created = cluster.indices.get(INDEX)!.body as Body;
    expect(INDEX).toBe('kaboodle-test-images-mobilenetv3-test');
    expect(created.mappings.properties.image_vector).toMatchObject({
      type: 'dense_vector',
      dims: DIMS,
      similarity: 'cosine',
      index: true,
    });
    expect(created.mappings._meta).toEqual({ model: MODEL, dimensions: DIMS });
    expect(created.mappings.properties.owner_id).toEqual({ type: 'keyword' });
  });

  it('does not create the index again when it exists', async () => {
    const { cluster, index } = await opened();
    await index.open();
    expect(cluster.find(`/${INDEX}`, 'PUT')).toHaveLength(1);
  });

  it('says it was created only by the open that made the index (the module then fills it)', async () => {
    const { cluster, index } = await opened();
    expect(index.created).toBe(true);
    const again = createElasticsearchImageIndex({
      indexName: 'kaboodle-test',
      dimensions: DIMS,
      model: MODEL,
      client: cluster.client,
    });
    await again.open();
    expect(again.created).toBe(false);
  });

  it('writes with external versions, counting 409s as stale', async () => {
    const { cluster, index } = await opened();
    cluster.on((req) => (req.path.endsWith('/_bulk') ? bulkAnswer(INDEX, [201, 409]) : undefined));
    const outcome = await index.upsert([record(), record({ id: 'item-2', version: 1 })]);
    expect(outcome).toEqual({ applied: 1, stale: 1 });
    expect(cluster.find(`/${INDEX}/_bulk`)).toHaveLength(1);
    const lines = cluster.find('/_bulk')[0]!.body as Body[];
    expect(lines[0]).toEqual({
      index: { _id: 'inventory_item:alice:item-1', version: 3, version_type: 'external' },
    });
    expect(lines[1]).toMatchObject({
      owner_id: 'alice',
      deleted: false,
      model: MODEL,
      image_vector: [1, 0, 0, 0],
    });
  });

  it('deletes as a versioned tombstone', async () => {
    const { cluster, index } = await opened();
    cluster.on((req) => (req.path.endsWith('/_bulk') ? bulkAnswer(INDEX, [200]) : undefined));
    await index.delete([{ entityType: 'inventory_item', id: 'item-1', ownerId: 'alice', version: 9 }]);
    const lines = cluster.find('/_bulk')[0]!.body as Body[];
    expect(lines[0]!.index).toMatchObject({ _id: 'inventory_item:alice:item-1', version: 9 });
    expect(lines[1]).toMatchObject({ deleted: true, owner_id: 'alice' });
    expect(lines[1]!.image_vector).toBeUndefined();
  });

  it('asks kNN for the owner live photos of this model only, leaving the item out', async () => {
    const { cluster, index } = await opened();
    cluster.on((req) =>
      req.path.endsWith('/_search')
        ? hitsAnswer([
            {
              _id: 'x',
              _score: 0.99,
              _source: {
                id: 'item-2',
                entity_type: 'inventory_item',
                title: 'Twin',
                category: 'Bowls',
                image_url: '/i',
                hashtags: [],
              },
            },
            {
              _id: 'y',
              _score: 0.55,
              _source: { id: 'item-3', entity_type: 'inventory_item', title: 'Far' },
            },
          ])
        : undefined,
    );
    const hits = await index.search({
      ownerId: 'alice',
      vector: Float32Array.from([0, 1, 0, 0]),
      limit: 5,
      exclude: { entityType: 'inventory_item', id: 'item-1' },
      minSimilarity: 0.5,
    });
    const body = cluster.find('/_search')[0]!.body as Body;
    expect(body.knn).toMatchObject({ field: 'image_vector', query_vector: [0, 1, 0, 0], k: 5 });
    expect(body.knn.filter.bool.filter).toEqual([
      { term: { owner_id: 'alice' } },
      { term: { deleted: false } },
      { term: { model: MODEL } },
    ]);
    expect(body.knn.filter.bool.must_not).toEqual([{ ids: { values: ['inventory_item:alice:item-1'] } }]);
    // _score = (1 + cos) / 2 for cosine: 0.99 → 0.98, 0.55 → 0.1 (below the minimum)
    expect(hits.map((h) => [h.id, Math.round(h.score * 100) / 100])).toEqual([['item-2', 0.98]]);
  });

  it('refuses a vector of another model or size before sending anything', async () => {
    const { cluster, index } = await opened();
    await expect(index.upsert([record({ model: 'other' })])).rejects.toBeInstanceOf(InputError);
    await expect(index.upsert([record({ vector: Float32Array.from([1, 0]) })])).rejects.toBeInstanceOf(
      InputError,
    );
    expect(cluster.find('/_bulk')).toHaveLength(0);
  });
});
