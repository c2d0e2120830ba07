// The Elasticsearch adapter's writes against @elastic/elasticsearch-mock: the exact bulk lines it
// sends (external versions, owner-scoped ids, tombstones) and how it reads answers (409 → stale,
// 429 → retry, other refusals reported).
import { InputError } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import { bulkAnswer, esError } from './elasticsearch-test-cluster.ts';
import { ALIAS, vec, entity, opened } from './elasticsearch-index-fixtures.ts';
import type { Body } from './elasticsearch-index-fixtures.ts';

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
