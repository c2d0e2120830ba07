// ImageIndex contract against the embedded LanceDB adapter: a fresh folder per file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLanceDbImageIndex } from '@kaboodle/search';
import { describeImageIndexContract } from './support/image-index-contract.ts';

describeImageIndexContract('lancedb', async ({ name, dimensions, model }) => {
  const dir = await mkdtemp(join(tmpdir(), 'kaboodle-image-contract-'));
  return {
    index: createLanceDbImageIndex({ dir, dimensions, model, tableName: name }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
