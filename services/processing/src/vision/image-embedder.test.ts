import { describe, expect, it } from 'vitest';
import { colourHistogram, embedImage, IMAGE_EMBEDDING_DIMENSIONS } from './image-embedder.ts';
import { ImageRejectedError } from './image-rejected.ts';
import sharp from 'sharp';
import { rephotographedItems } from './test-fixtures/rephotographed-items.ts';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);

/** Share of queries whose own item is the nearest catalogue photo. */
function top1(catalogue: Float32Array[], queries: { item: number; vector: Float32Array }[]): number {
  let hits = 0;
  for (const q of queries) {
    const scores = catalogue.map((c) => dot(q.vector, c));
    if (scores.indexOf(Math.max(...scores)) === q.item) hits++;
  }
  return hits / queries.length;
}

describe('image embedding (find an item by photo)', () => {
  it('gives a unit vector of the model size, the same for the same photo', async () => {
    const [item] = await rephotographedItems(1, 0);
    const a = await embedImage(item!.catalogue);
    const b = await embedImage(item!.catalogue);
    expect(a).toHaveLength(IMAGE_EMBEDDING_DIMENSIONS);
    expect(dot(a, a)).toBeCloseTo(1, 4);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('reads a greyscale photo as well as a colour one', async () => {
    const grey = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#777' } })
      .greyscale()
      .png()
      .toBuffer();
    expect(await embedImage(grey)).toHaveLength(IMAGE_EMBEDDING_DIMENSIONS);
  });

  it('refuses what is not a picture with a reason a person can act on', async () => {
    await expect(embedImage(Buffer.from('just some text, not a photo'))).rejects.toBeInstanceOf(
      ImageRejectedError,
    );
  });

  it('finds re-photographed items better than their colour histogram does', async () => {
    const items = await rephotographedItems(16, 1, 11);
    const catalogue = await Promise.all(items.map((i) => embedImage(i.catalogue)));
    const queries = await Promise.all(
      items.map(async (i, item) => ({ item, vector: await embedImage(i.rephotos[0]!) })),
    );
    const raw = async (bytes: Buffer) =>
      new Uint8Array(await sharp(bytes).resize(512, 512, { fit: 'fill' }).removeAlpha().raw().toBuffer());
    const histCatalogue = await Promise.all(items.map(async (i) => colourHistogram(await raw(i.catalogue))));
    const histQueries = await Promise.all(
      items.map(async (i, item) => ({ item, vector: colourHistogram(await raw(i.rephotos[0]!)) })),
    );
    const model = top1(catalogue, queries);
    expect(model).toBeGreaterThan(top1(histCatalogue, histQueries));
    expect(model).toBeGreaterThanOrEqual(0.5);
  }, 60_000);
});
