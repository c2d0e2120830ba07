// The ONE contract suite of the ImageIndex port (services/search/src/index/image-index.port.ts):
// owners never see each other's photos, versions guard every write (a late, older upsert never
// revives a delete), vectors of another model or size are refused, nearest photos come first with
// their cosine similarity, an item is never its own neighbour, and an owner can be removed whole; the
// open that made the index says so (`created`).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '@kaboodle/platform';
import type { ImageIndex, ImageRecord } from '@kaboodle/search';

export interface ImageIndexUnderTest {
  index: ImageIndex;
  cleanup(): Promise<void>;
}

export const CONTRACT_MODEL = 'contract-image-model';

/** A unit vector leaning on axis `a` (and a little on `b`), so nearness is known exactly. */
export function photoVector(dims: number, a: number, b = a, mix = 0): Float32Array {
  const v = new Float32Array(dims).fill(0.01);
  v[a] = 1;
  v[b] = (v[b] ?? 0) + mix;
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
}

export function describeImageIndexContract(
  adapterName: string,
  factory: (opts: { name: string; dimensions: number; model: string }) => Promise<ImageIndexUnderTest>,
): void {
  const dims = 16;
  describe(`ImageIndex contract: ${adapterName}`, () => {
    let under: ImageIndexUnderTest;
    let index: ImageIndex;
    const record = (over: Partial<ImageRecord> & { id: string; ownerId: string }): ImageRecord => ({
      entityType: 'inventory_item',
      version: 1,
      model: CONTRACT_MODEL,
      vector: photoVector(dims, 0),
      title: `item ${over.id}`,
      description: '',
      category: 'Bowls',
      imageUrl: `/api/inventory/${over.id}/image?w=320`,
      hashtags: ['bowls'],
      ...over,
    });

    beforeAll(async () => {
      under = await factory({
        name: `ict-${randomUUID().slice(0, 8)}`,
        dimensions: dims,
        model: CONTRACT_MODEL,
      });
      index = under.index;
      await index.open();
    });
    afterAll(async () => {
      await index?.close();
      await under?.cleanup();
    });

    it('says its first open made it (the search module then fills it from the catalogue)', () => {
      expect(index.created).toBe(true);
    });

    it('ranks the owner photos by likeness, with cosine similarity scores', async () => {
      const owner = randomUUID();
      await index.upsert([
        record({ id: 'red-bowl', ownerId: owner, vector: photoVector(dims, 1) }),
        record({ id: 'red-bowl-ish', ownerId: owner, vector: photoVector(dims, 1, 2, 0.6) }),
        record({ id: 'blue-fan', ownerId: owner, vector: photoVector(dims, 5) }),
      ]);
      const hits = await index.search({ ownerId: owner, vector: photoVector(dims, 1, 2, 0.1), limit: 10 });
      expect(hits.map((h) => h.id)).toEqual(['red-bowl', 'red-bowl-ish', 'blue-fan']);
      expect(hits[0]!.score).toBeGreaterThan(0.95);
      expect(hits[0]).toMatchObject({
        entityType: 'inventory_item',
        title: 'item red-bowl',
        category: 'Bowls',
      });
      expect(hits[0]!.imageUrl).toBe('/api/inventory/red-bowl/image?w=320');
      expect(hits[2]!.score).toBeLessThan(0.3);
      expect(await index.count(owner)).toBe(3);
      const two = await index.search({ ownerId: owner, vector: photoVector(dims, 1), limit: 2 });
      expect(two).toHaveLength(2);
      const similar = await index.search({
        ownerId: owner,
        vector: photoVector(dims, 1),
        limit: 10,
        minSimilarity: 0.5,
      });
      expect(similar.map((h) => h.id)).toEqual(['red-bowl', 'red-bowl-ish']);
    });

    it('never shows one owner the photos of another, even identical ones', async () => {
      const alice = randomUUID();
      const bob = randomUUID();
      await index.upsert([record({ id: 'same', ownerId: alice }), record({ id: 'bobs', ownerId: bob })]);
      expect(
        (await index.search({ ownerId: bob, vector: photoVector(dims, 0), limit: 10 })).map((h) => h.id),
      ).toEqual(['bobs']);
      expect(
        await index.vectorOf({ ownerId: bob, entityType: 'inventory_item', id: 'same' }),
      ).toBeUndefined();
      expect(await index.vectorOf({ ownerId: alice, entityType: 'inventory_item', id: 'same' })).toHaveLength(
        dims,
      );
    });

    it('leaves the item itself out of its neighbours', async () => {
      const owner = randomUUID();
      await index.upsert([
        record({ id: 'a', ownerId: owner, vector: photoVector(dims, 3) }),
        record({ id: 'b', ownerId: owner, vector: photoVector(dims, 3, 4, 0.3) }),
      ]);
      const vector = (await index.vectorOf({ ownerId: owner, entityType: 'inventory_item', id: 'a' }))!;
      const hits = await index.search({
        ownerId: owner,
        vector,
        limit: 5,
        exclude: { entityType: 'inventory_item', id: 'a' },
      });
      expect(hits.map((h) => h.id)).toEqual(['b']);
    });

    it('guards versions: older upserts are stale, a delete is remembered', async () => {
      const owner = randomUUID();
      expect(await index.upsert([record({ id: 'v', ownerId: owner, version: 5, title: 'five' })])).toEqual({
        applied: 1,
        stale: 0,
      });
      expect(await index.upsert([record({ id: 'v', ownerId: owner, version: 4, title: 'four' })])).toEqual({
        applied: 0,
        stale: 1,
      });
      const hit = (await index.search({ ownerId: owner, vector: photoVector(dims, 0), limit: 5 }))[0];
      expect(hit?.title).toBe('five');
      expect(
        await index.delete([{ entityType: 'inventory_item', id: 'v', ownerId: owner, version: 6 }]),
      ).toEqual({
        applied: 1,
        stale: 0,
      });
      expect(await index.upsert([record({ id: 'v', ownerId: owner, version: 5 })])).toEqual({
        applied: 0,
        stale: 1,
      });
      expect(await index.search({ ownerId: owner, vector: photoVector(dims, 0), limit: 5 })).toEqual([]);
      expect(await index.vectorOf({ ownerId: owner, entityType: 'inventory_item', id: 'v' })).toBeUndefined();
      await index.upsert([record({ id: 'v', ownerId: owner, version: 7, title: 'seven' })]);
      expect((await index.search({ ownerId: owner, vector: photoVector(dims, 0), limit: 5 }))[0]?.title).toBe(
        'seven',
      );
    });

    it('refuses vectors of another model or size', async () => {
      const owner = randomUUID();
      await expect(
        index.upsert([record({ id: 'm', ownerId: owner, model: 'another-model' })]),
      ).rejects.toBeInstanceOf(InputError);
      await expect(
        index.upsert([record({ id: 'd', ownerId: owner, vector: new Float32Array(dims + 1).fill(0.1) })]),
      ).rejects.toBeInstanceOf(InputError);
      await expect(
        index.search({ ownerId: owner, vector: new Float32Array(dims - 1).fill(0.1), limit: 3 }),
      ).rejects.toBeInstanceOf(InputError);
      expect(await index.count(owner)).toBe(0);
    });

    it('removes an owner whole and nobody else', async () => {
      const gone = randomUUID();
      const stays = randomUUID();
      await index.upsert([record({ id: 'x', ownerId: gone }), record({ id: 'y', ownerId: stays })]);
      await index.deleteOwner(gone);
      expect(await index.search({ ownerId: gone, vector: photoVector(dims, 0), limit: 5 })).toEqual([]);
      expect(
        (await index.search({ ownerId: stays, vector: photoVector(dims, 0), limit: 5 })).map((h) => h.id),
      ).toEqual(['y']);
    });
  });
}
