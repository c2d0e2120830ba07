// One reindex of the Elasticsearch index, as `kaboodle search reindex` (the Helm chart's Job) runs it:
// nothing to do when the live index fits the embedding model (with ifNeeded); otherwise fill a new
// index from the catalogue under the reindex lease while every replica writes to both, then swap.
// If another process holds the lease, wait for it to finish instead of starting a second one.
import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import { reindexLeaseHolder } from './index/elasticsearch-coordination.ts';
import type { ElasticsearchSearchIndex } from './index/elasticsearch-search-index.ts';
import type { CatalogueClient } from './processing-client.ts';
import { createRebuilder } from './rebuild.service.ts';

export type ReindexOutcome = 'up-to-date' | 'reindexed' | 'done-elsewhere';

export async function runReindexJob(deps: {
  index: ElasticsearchSearchIndex;
  catalogue: CatalogueClient;
  dimensions: number;
  ifNeeded: boolean;
  logger: Logger;
  /** How often to look whether another holder finished (default 10 s). */
  pollMs?: number;
}): Promise<ReindexOutcome> {
  const { index, logger } = deps;
  if (deps.ifNeeded && !index.describe().reindexRequired) return 'up-to-date';
  const rebuilder = createRebuilder({
    catalogue: deps.catalogue,
    writer: () => {
      throw new Error('a reindex writes into the new index only');
    },
    dimensions: () => deps.dimensions,
    logger,
  });
  try {
    await index.reindex(async (target) => {
      const report = await rebuilder.run({ into: (entities) => target.upsert(entities) });
      logger.info({ read: report.read, applied: report.applied }, 'reindex: new index filled');
    });
    return 'reindexed';
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    logger.info({ reason: err.message }, 'reindex: another process holds the lease; waiting for it');
    while (await reindexLeaseHolder(index.client, index.alias)) await sleep(deps.pollMs ?? 10_000);
    await index.ping(); // follow the alias to where that reindex left it
    if (index.describe().reindexRequired)
      throw new Error('the other reindex ended without fitting the index to this embedding model', {
        cause: err,
      });
    return 'done-elsewhere';
  }
}
