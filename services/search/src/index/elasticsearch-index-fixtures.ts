// Shared fixtures of the Elasticsearch adapter's unit tests (elasticsearch-*.test.ts): an entity,
// an opened index on @elastic/elasticsearch-mock, canned hits and the request shapes they assert.
import { createElasticsearchSearchIndex } from './elasticsearch-search-index.ts';
import type { ElasticsearchSearchIndexOptions } from './elasticsearch-search-index.ts';
import { createTestCluster } from './elasticsearch-test-cluster.ts';
import type { RecordedRequest, TestCluster } from './elasticsearch-test-cluster.ts';
import type { IndexedEntity } from './search-index.port.ts';

// Request bodies are arbitrary JSON; the assertions say what shape they expect.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = Record<string, any>;

export const DIMS = 4;
export const ALIAS = 'kaboodle-test';

export function vec(...xs: number[]): Float32Array {
  return Float32Array.from(xs);
}

export function entity(over: Partial<IndexedEntity> = {}): IndexedEntity {
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

export async function opened(
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
export function msearchBodies(req: RecordedRequest): Array<Record<string, unknown>> {
  const lines = req.body as Array<Record<string, unknown>>;
  return lines.filter((_, i) => i % 2 === 1);
}

export const liveOwner = (owner: string, ...more: unknown[]) => ({
  bool: { filter: [{ term: { owner_id: owner } }, ...more], must_not: [{ term: { deleted: true } }] },
});

export const src = (id: string, type = 'document') => ({
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
export const hit = (id: string, score: number, extra: Record<string, unknown> = {}) => ({
  _index: `${ALIAS}-4d-1`,
  _id: `document:owner-1:${id}`,
  _score: score,
  _source: src(id),
  ...extra,
});

/**
 * Inner hits on `passages` as Elasticsearch returns them (under the nested path's name, as its own
 * REST tests show): [offset, score, text] per passage.
 */
export const innerPassages = (hits: Array<[number, number, string]>) => ({
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
