// SearchIndex contract against a real Elasticsearch: ELASTICSEARCH_URL when set (CI, a cluster),
// else a throwaway container via @testcontainers/elasticsearch when a Docker engine answers, else
// skipped with the reason printed. @elastic/elasticsearch-mock cannot stand in here: it has no query
// semantics (the adapter's request bodies are asserted against it in the unit tests instead).
// Each run gets its own alias (and so its own template and physical indices), dropped afterwards.
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchContainer } from '@testcontainers/elasticsearch';
import { afterAll, describe, expect, it } from 'vitest';
import { createElasticsearchSearchIndex } from '@kaboodle/search';
import { createEngineReport, redact, resolveEngine, stopEngines } from './support/engines.ts';
import type { EngineSpec } from './support/engines.ts';
import { describeSearchIndexContract, topicVector } from './support/search-index-contract.ts';

interface ElasticsearchEngineConfig {
  node: string;
  apiKey?: string;
  username?: string;
  password?: string;
}

/** The image the container recipe runs (8.x: every feature the adapter uses is there from 8.14). */
const IMAGE = process.env.ELASTICSEARCH_IMAGE ?? 'docker.elastic.co/elasticsearch/elasticsearch:8.17.4';

const elasticsearchEngine: EngineSpec<ElasticsearchEngineConfig> = {
  name: 'elasticsearch',
  env: ['ELASTICSEARCH_URL', 'ELASTICSEARCH_API_KEY', 'ELASTICSEARCH_USERNAME', 'ELASTICSEARCH_PASSWORD'],
  fromEnv: (env) =>
    env.ELASTICSEARCH_URL
      ? {
          node: env.ELASTICSEARCH_URL,
          ...(env.ELASTICSEARCH_API_KEY && { apiKey: env.ELASTICSEARCH_API_KEY }),
          ...(env.ELASTICSEARCH_USERNAME && {
            username: env.ELASTICSEARCH_USERNAME,
            password: env.ELASTICSEARCH_PASSWORD ?? '',
          }),
        }
      : undefined,
  container: async () => {
    const c = await new ElasticsearchContainer(IMAGE)
      // A small heap: the suite holds a few thousand tiny documents.
      .withEnvironment({ ES_JAVA_OPTS: '-Xms512m -Xmx1g' })
      .start();
    const config = { node: c.getHttpUrl(), username: c.getUsername(), password: c.getPassword() };
    return {
      config,
      detail: `${IMAGE} at ${redact(config.node)}`,
      stop: async () => void (await c.stop()),
    };
  },
};

const es = await resolveEngine(elasticsearchEngine);
const report = createEngineReport('search-index');
report.add(es);
if (!es.available) console.log(`[contract:search-index] skipping elasticsearch: ${es.reason}`);

afterAll(async () => {
  report.print();
  await stopEngines([es]);
});

const clientFor = (c: ElasticsearchEngineConfig): Client =>
  new Client({
    node: c.node,
    ...(c.apiKey
      ? { auth: { apiKey: c.apiKey } }
      : c.username
        ? { auth: { username: c.username, password: c.password ?? '' } }
        : {}),
  });

/** Drop the alias's physical indices (by name: clusters refuse wildcard deletes) and its template. */
async function dropAll(admin: Client, alias: string): Promise<void> {
  const found = await admin.indices.get({
    index: `${alias}-*`,
    allow_no_indices: true,
    ignore_unavailable: true,
  });
  const names = Object.keys(found);
  if (names.length > 0) await admin.indices.delete({ index: names });
  await admin.indices.deleteIndexTemplate({ name: alias }).catch(() => undefined);
}

if (es.available) {
  const config = es.handle.config;
  describeSearchIndexContract('elasticsearch', async ({ name, dimensions }) => {
    const admin = clientFor(config);
    return {
      index: createElasticsearchSearchIndex({
        ...config,
        indexName: name,
        dimensions,
        model: 'contract-test',
        // ELASTICSEARCH_VECTOR_ENCODING=base64 runs the suite with base64 vectors (recent 9.x clusters).
        vectorEncoding: process.env.ELASTICSEARCH_VECTOR_ENCODING === 'base64' ? 'base64' : 'json',
        // One node: no replicas to wait for. Tests read right after writing: refresh now.
        replicas: 0,
        bulk: { refresh: true },
      }),
      cleanup: async () => {
        await dropAll(admin, name);
        await admin.close();
      },
    };
  });

  describe('elasticsearch adapter on a real cluster: reindex with the alias swap', () => {
    it('rebuilds into a new index for a new model while reads stay on the old one, then swaps with no gap', async () => {
      const alias = `ct-reindex-${Date.now().toString(36)}`;
      const admin = clientFor(config);
      const oldIndex = createElasticsearchSearchIndex({
        ...config,
        indexName: alias,
        dimensions: 16,
        model: 'model-a',
        replicas: 0,
        bulk: { refresh: true },
      });
      try {
        await oldIndex.open();
        const owner = 'owner-reindex';
        const base = {
          entityType: 'document' as const,
          ownerId: owner,
          description: '',
          content: '',
          category: 'General',
          hashtags: [],
          keywords: [],
          url: '',
          imageUrl: '',
          createdAt: new Date(),
          updatedAt: new Date(),
          passages: [],
        };
        await oldIndex.upsert([
          { ...base, id: 'keep', version: 1, title: 'quince jam', vector: topicVector(16, { cooking: 1 }) },
          { ...base, id: 'gone', version: 1, title: 'quince tart', vector: topicVector(16, { pastry: 1 }) },
        ]);
        await oldIndex.delete([{ entityType: 'document', id: 'gone', ownerId: owner, version: 2 }]);
        await oldIndex.close();

        // The same alias opened for a 32-dimensional model: keyword reads keep working on the old index.
        const index = createElasticsearchSearchIndex({
          ...config,
          indexName: alias,
          dimensions: 32,
          model: 'model-b',
          replicas: 0,
          bulk: { refresh: true },
        });
        await index.open();
        expect(index.describe().reindexRequired).toBe(true);
        const v32 = topicVector(32, { cooking: 1 });
        const keyword = () => index.search({ ownerId: owner, text: 'quince', mode: 'keyword', limit: 10 });
        expect((await keyword()).map((h) => h.id)).toEqual(['keep']);

        const reindex = await index.beginReindex();
        await reindex.upsert([{ ...base, id: 'keep', version: 1, title: 'quince jam', vector: v32 }]);
        // the late, older upsert of the deleted entity must stay dead after the swap
        await reindex.upsert([{ ...base, id: 'gone', version: 1, title: 'quince tart', vector: v32 }]);
        expect((await keyword()).map((h) => h.id)).toEqual(['keep']); // still the old index
        await reindex.commit();

        expect(index.describe()).toMatchObject({
          reindexRequired: false,
          meta: { dimensions: 32, model: 'model-b' },
        });
        expect((await keyword()).map((h) => h.id)).toEqual(['keep']);
        const semantic = await index.search({
          ownerId: owner,
          text: 'x',
          vector: v32,
          mode: 'semantic',
          limit: 10,
        });
        expect(semantic.map((h) => h.id)).toEqual(['keep']);
        expect(await index.versionOf({ entityType: 'document', id: 'gone', ownerId: owner })).toBeUndefined();
        const aliases = await admin.indices.getAlias({ name: alias });
        expect(Object.keys(aliases)).toEqual([index.describe().index]);
        await index.close();
      } finally {
        await dropAll(admin, alias);
        await admin.close();
      }
    });
  });
} else {
  describe.skip(`SearchIndex contract: elasticsearch (${es.reason})`, () => {
    it('needs ELASTICSEARCH_URL or a Docker engine', () => {});
  });
}
