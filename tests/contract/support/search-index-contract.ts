// The ONE contract suite of the SearchIndex port (services/search/src/index/search-index.port.ts).
// Every adapter (LanceDB embedded, Elasticsearch) runs it through describeSearchIndexContract. It is
// adapter-agnostic: it only uses the port, builds its own small vectors (topic axes, so "meaning"
// is known exactly) and gives every test its own owner ids, so one index per file is enough.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import type { SearchIndex } from '@kaboodle/search';
import { kaboodlesContract } from './search-index-contract-kaboodles.ts';
import { pagesContract } from './search-index-contract-pages.ts';
import { queriesContract } from './search-index-contract-queries.ts';
import { rankingContract } from './search-index-contract-ranking.ts';
import { AXES, createContractSuite } from './search-index-contract-suite.ts';
import { writesContract } from './search-index-contract-writes.ts';

export { ndcgAt10, topicVector } from './search-index-contract-suite.ts';

export interface SearchIndexUnderTest {
  index: SearchIndex;
  /** Drop what the factory created (folder, index, alias). */
  cleanup(): Promise<void>;
}

export interface SearchIndexContractOptions {
  /** Vector length the suite uses (≥ 16). */
  dimensions?: number;
}

export function describeSearchIndexContract(
  adapterName: string,
  factory: (opts: { name: string; dimensions: number }) => Promise<SearchIndexUnderTest>,
  options: SearchIndexContractOptions = {},
): void {
  const dims = options.dimensions ?? 32;
  if (dims < AXES.length) throw new Error(`the contract suite needs at least ${AXES.length} dimensions`);

  describe(`SearchIndex contract: ${adapterName}`, () => {
    let under: SearchIndexUnderTest;
    let index: SearchIndex;

    beforeAll(async () => {
      under = await factory({ name: `ct-${randomUUID().slice(0, 8)}`, dimensions: dims });
      index = under.index;
      await index.open();
      await index.open(); // idempotent
    });
    afterAll(async () => {
      await index?.close();
      await under?.cleanup();
    });

    // One index for the file; each theme's tests keep to their own owners.
    const suite = createContractSuite(adapterName, dims, () => index);
    rankingContract(suite);
    writesContract(suite);
    queriesContract(suite);
    kaboodlesContract(suite);
    pagesContract(suite);
  });
}
