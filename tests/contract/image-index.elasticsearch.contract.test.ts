// ImageIndex contract against a real Elasticsearch (ELASTICSEARCH_URL, or a container where Docker
// answers), else skipped with the reason printed. The request bodies are checked against the official
// mock in services/search/src/index/elasticsearch-image-index.test.ts.
import { Client } from '@elastic/elasticsearch';
import { afterAll, describe, it } from 'vitest';
import { createElasticsearchImageIndex, imageIndexName } from '@kaboodle/search';
import { createEngineReport, resolveEngine, stopEngines } from './support/engines.ts';
import type { EngineSpec } from './support/engines.ts';
import { describeImageIndexContract } from './support/image-index-contract.ts';

interface EsConfig {
  node: string;
  apiKey?: string;
}

const engine: EngineSpec<EsConfig> = {
  name: 'elasticsearch',
  env: ['ELASTICSEARCH_URL', 'ELASTICSEARCH_API_KEY'],
  fromEnv: (env) =>
    env.ELASTICSEARCH_URL
      ? {
          node: env.ELASTICSEARCH_URL,
          ...(env.ELASTICSEARCH_API_KEY && { apiKey: env.ELASTICSEARCH_API_KEY }),
        }
      : undefined,
};

const es = await resolveEngine(engine);
const report = createEngineReport('image-index');
report.add(es);
if (!es.available) console.log(`[contract:image-index] skipping elasticsearch: ${es.reason}`);
afterAll(async () => {
  report.print();
  await stopEngines([es]);
});

if (es.available) {
  const config = es.handle.config;
  describeImageIndexContract('elasticsearch', async ({ name, dimensions, model }) => {
    const admin = new Client({
      node: config.node,
      ...(config.apiKey ? { auth: { apiKey: config.apiKey } } : {}),
    });
    return {
      index: createElasticsearchImageIndex({
        ...config,
        indexName: name,
        dimensions,
        model,
        bulk: { refresh: true },
      }),
      cleanup: async () => {
        await admin.indices.delete({ index: imageIndexName(name, model) }).catch(() => undefined);
        await admin.close();
      },
    };
  });
} else {
  describe.skip(`ImageIndex contract: elasticsearch (${es.reason})`, () => {
    it('needs ELASTICSEARCH_URL', () => {});
  });
}
