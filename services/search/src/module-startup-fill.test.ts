// What the search module fills from the catalogue when it starts: an empty text index is filled
// whole; a photo index made by this start (first start with an image model, or a new one) beside a
// filled text index gets the photos alone; and a library without photos restarts without reading
// the catalogue at all (it used to be rebuilt whole on every start). From its decision through its
// retries a fill is reported as a running rebuild, so an admin never reads idle and is then refused. Photos live in the real
// LanceDB image index under a temporary KABOODLE_DATA_DIR; the text index is kept across restarts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { create, EmbeddingSchema } from '@kaboodle/proto';
import { hashEmbed, makeDocument, makeInventoryItem, TEST_DIMENSIONS } from './testing/fixtures.ts';
import { createMemorySearchIndex } from './testing/memory-search-index.ts';
import { ADMIN, ALICE, startSearchHarness, waitFor } from './testing/search-module-harness.ts';
import type { SearchHarness } from './testing/search-module-harness.ts';

const MODEL = 'photo-model-a';
let dir: string | undefined;
const running: SearchHarness[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.stop()));
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function start(...args: Parameters<typeof startSearchHarness>): Promise<SearchHarness> {
  const h = await startSearchHarness(...args);
  running.push(h);
  return h;
}

async function stop(h: SearchHarness): Promise<void> {
  running.splice(running.indexOf(h), 1);
  await h.stop();
}

/** Waits for the start-up fill to end, and says whether one ran. */
async function startupFill(h: SearchHarness): Promise<{ started_at: string | null; read: number }> {
  await h.search.ready();
  // from the decision (a few index reads) to its end, the fill is reported as running
  let status = (
    await h.call<{ running: boolean; started_at: string | null; read: number }>(
      'GET',
      '/api/search/admin/rebuild',
      ADMIN,
    )
  ).body;
  for (let i = 0; status.running && i < 500; i++) {
    await new Promise((r) => setTimeout(r, 20));
    status = (await h.call<typeof status>('GET', '/api/search/admin/rebuild', ADMIN)).body;
  }
  return status;
}

const withPhoto = (name: string, model = MODEL) => {
  const item = makeInventoryItem({ ownerId: 'alice', name });
  item.analysis!.imageEmbedding = create(EmbeddingSchema, {
    values: Array.from(hashEmbed(`photo of ${name}`)),
    model,
    dimensions: TEST_DIMENSIONS,
  });
  return item;
};

describe('search module start-up fill', () => {
  it('restarts a library with documents and no photos without reading the catalogue', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kaboodle-search-fill-'));
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const catalogueEntities = [
      makeDocument({ ownerId: 'alice', title: 'Lease for the workshop' }),
      makeDocument({ ownerId: 'alice', title: 'Boiler service record' }),
    ];
    const first = await start({ index, dataDir: dir, imageModel: MODEL, catalogueEntities });
    // the first start finds the text index empty and fills it whole
    expect((await startupFill(first)).read).toBe(2);
    expect((await index.stats()).entities).toBe(2);
    await stop(first);

    const writes = index.writes.length;
    const again = await start({ index, dataDir: dir, imageModel: MODEL, catalogueEntities });
    expect((await startupFill(again)).started_at).toBeNull();
    expect(again.catalogueReads).toBe(0);
    expect(index.writes.length).toBe(writes);
    expect((await again.find(ALICE, 'boiler')).body.results).toHaveLength(1);
  });

  it('fills a photo index made by this start from the catalogue, without rewriting the text index', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kaboodle-search-fill-'));
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const bowl = withPhoto('red bowl');
    const jug = withPhoto('red jug');
    const catalogueEntities = [bowl, jug, makeDocument({ ownerId: 'alice', title: 'Boiler manual' })];
    // no image model yet: the text index is filled, no photo index is opened
    const first = await start({ index, dataDir: dir, catalogueEntities });
    expect((await startupFill(first)).read).toBe(3);
    await stop(first);

    const writes = index.writes.length;
    const withImages = await start({ index, dataDir: dir, imageModel: MODEL, catalogueEntities });
    const fill = await startupFill(withImages);
    expect(fill.read).toBe(3);
    expect(withImages.catalogueReads).toBe(1);
    const neighbours = await withImages.call<{ results: Array<{ id: string }> }>(
      'GET',
      `/api/search/image-neighbours?id=${bowl.id}`,
      ALICE,
    );
    expect(neighbours.status).toBe(200);
    expect(neighbours.body.results.map((r) => r.id)).toEqual([jug.id]);
    // the text index already held every entity: the photo fill does not write it again
    expect(index.writes.length).toBe(writes);
    await stop(withImages);

    // and the next start finds the photo index there: nothing to fill
    const third = await start({ index, dataDir: dir, imageModel: MODEL, catalogueEntities });
    expect((await startupFill(third)).started_at).toBeNull();
    expect(third.catalogueReads).toBe(0);
  });

  it('reports the fill as running through its retries: an admin never reads idle and is then refused', async () => {
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const catalogueEntities = [makeDocument({ ownerId: 'alice', title: 'Kiln firing log' })];
    // the catalogue is still starting for the first read: the fill waits a second and tries again
    const h = await start({ index, catalogueEntities, catalogueUnavailableReads: 1 });
    await h.search.ready();
    await waitFor(async () => h.catalogueReads === 1);
    // between the failed attempt and the next one (a second's wait) the fill is still running
    const during = await h.call<{ running: boolean }>('GET', '/api/search/admin/rebuild', ADMIN);
    expect(during.body.running).toBe(true);
    expect((await h.call('POST', '/api/search/admin/rebuild', ADMIN, {})).status).toBe(409);
    let status = during.body as { running: boolean; read?: number };
    for (let i = 0; status.running && i < 500; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await h.call<typeof status>('GET', '/api/search/admin/rebuild', ADMIN)).body;
    }
    // it ran through the failed attempt and the wait (about a second), then filled the index
    expect(h.catalogueReads).toBe(2);
    expect(status.read).toBe(1);
    expect((await h.find(ALICE, 'kiln')).body.results).toHaveLength(1);
    // idle now: the admin's rebuild starts
    expect((await h.call('POST', '/api/search/admin/rebuild', ADMIN, {})).status).toBe(202);
  });
});
