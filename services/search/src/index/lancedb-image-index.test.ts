// The embedded image index's `created` flag, which decides whether the search module fills it from
// the catalogue on start: set by the open that made the table (none there, or another vector size
// started over), never by opening one that was already there, empty or not.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLanceDbImageIndex } from './lancedb-image-index.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const open = async (dimensions: number) => {
  const index = createLanceDbImageIndex({ dir: dir!, dimensions, model: 'm', tableName: 'photos' });
  await index.open();
  const created = index.created;
  await index.close();
  return created;
};

describe('LanceDB image index: created', () => {
  it('is true for a new table, false when reopened though still empty', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kaboodle-image-created-'));
    expect(await open(8)).toBe(true);
    expect(await open(8)).toBe(false);
  });

  it('is true when a table of another vector size is started over', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kaboodle-image-created-'));
    expect(await open(8)).toBe(true);
    expect(await open(16)).toBe(true);
    expect(await open(16)).toBe(false);
  });
});
