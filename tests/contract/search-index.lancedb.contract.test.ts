// SearchIndex contract against the embedded LanceDB adapter: a fresh folder (and table) per file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLanceDbSearchIndex } from '@kaboodle/search';
import { describeSearchIndexContract } from './support/search-index-contract.ts';

describeSearchIndexContract('lancedb', async ({ name, dimensions }) => {
  const dir = await mkdtemp(join(tmpdir(), 'kaboodle-search-contract-'));
  return {
    index: createLanceDbSearchIndex({ dir, dimensions, table: name }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

// The same contract with the ANN path forced, for each index kind: built from 200 live rows, every
// owner searched through it (no exact flat scan for small owners) and compaction/index refresh every
// 5 writes, so filters, isolation and "new rows are searchable at once" hold on the indexed path too.
for (const kind of ['ivf-flat', 'hnsw-sq'] as const) {
  describeSearchIndexContract(
    `lancedb (${kind} from 200 rows, frequent optimise)`,
    async ({ name, dimensions }) => {
      const dir = await mkdtemp(join(tmpdir(), `kaboodle-search-contract-${kind}-`));
      return {
        index: createLanceDbSearchIndex({
          dir,
          dimensions,
          table: name,
          ann: { kind },
          annMinRows: 200,
          flatMaxOwnerRows: 0,
          optimizeEveryWrites: 5,
        }),
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  );
}

// And with every owner's vectors in the in-memory HNSW graph (queries wait for its build instead of
// using the table meanwhile), so the graph path keeps the same promises as the table's.
describeSearchIndexContract('lancedb (in-memory index for every owner)', async ({ name, dimensions }) => {
  const dir = await mkdtemp(join(tmpdir(), 'kaboodle-search-contract-graph-'));
  return {
    index: createLanceDbSearchIndex({
      dir,
      dimensions,
      table: name,
      memoryIndex: { minOwnerRows: 0, waitForBuild: true },
    }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
