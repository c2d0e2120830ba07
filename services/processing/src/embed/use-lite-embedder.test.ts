// The real offline model (USE lite from the npm package): loads once, 512 unit-length dimensions,
// and places related texts closer than unrelated ones.
import { describe, expect, it } from 'vitest';
import { embedDocument } from './document-embedding.ts';
import { cosine, dot } from './text-embedder.ts';
import {
  clipToUseLiteWindow,
  createUseLiteEmbedder,
  loadUseLiteModel,
  USE_LITE_MAX_TOKENS,
  USE_LITE_SPACE,
} from './use-lite-embedder.ts';

describe('offline USE-lite embedder', () => {
  it('makes 512-dimensional unit vectors tagged with provider and model', async () => {
    const embedder = createUseLiteEmbedder();
    const [v] = await embedder.embed(['a hand-carved wooden stool']);
    expect(v).toHaveLength(512);
    expect(Math.sqrt(dot(v!, v!))).toBeCloseTo(1, 4);
    expect([embedder.provider, embedder.model, embedder.dimensions]).toEqual([
      USE_LITE_SPACE.provider,
      USE_LITE_SPACE.model,
      512,
    ]);
  }, 60_000);

  it('shares one loaded model across embedders in the process', async () => {
    expect(loadUseLiteModel()).toBe(loadUseLiteModel());
  });

  it('gives the same vectors in the worker thread as in this thread', async () => {
    const worker = createUseLiteEmbedder();
    const main = createUseLiteEmbedder({ thread: 'main' });
    const [a] = await worker.embed(['a woven raffia fan']);
    const [b] = await main.embed(['a woven raffia fan']);
    expect(cosine(a!, b!)).toBeGreaterThan(0.9999);
    await worker.close?.();
  }, 60_000);

  it('reads only its 128-token window: the clipped text gives the very same vector', async () => {
    const words =
      'Glaze recipes,\nkiln temperatures and\tthe makers who contributed to the spring show.'.split(' ');
    const long = Array.from({ length: 300 }, (_, i) => words[(i * 7) % words.length]).join(' ');
    const clipped = clipToUseLiteWindow(long);
    expect(clipped.length).toBeLessThan(long.length);
    expect(clipped.match(/\S+/g)).toHaveLength(USE_LITE_MAX_TOKENS);
    expect(clipToUseLiteWindow('a short title')).toBe('a short title');
    const model = await loadUseLiteModel();
    const [full, cut, fewer] = await model.embed([long, clipped, clipped.split(' ').slice(0, 40).join(' ')]);
    expect(cosine(Float32Array.from(full!), Float32Array.from(cut!))).toBeGreaterThan(0.99999);
    // The window is real: a much shorter prefix is a different vector.
    expect(cosine(Float32Array.from(full!), Float32Array.from(fewer!))).toBeLessThan(0.999);
  }, 60_000);

  it('gives a text the same vector whether batched with longer texts or alone', async () => {
    const model = await loadUseLiteModel();
    const passage = 'The archive holds hand-thrown bowls, glaze notebooks and kiln logs. '.repeat(8);
    const [alone] = await model.embed(['Pottery archive, glaze, kiln']);
    const [, padded] = await model.embed([passage, 'Pottery archive, glaze, kiln']);
    expect(cosine(Float32Array.from(alone!), Float32Array.from(padded!))).toBeGreaterThan(0.9999);
  }, 60_000);

  it('ranks a related text above unrelated ones', async () => {
    const embedder = createUseLiteEmbedder();
    const [query, bowl, contract, rocket] = await embedder.embed([
      'ceramic bowl for soup',
      'A handmade clay dish for serving food',
      'The lease agreement terminates if rent is unpaid',
      'The rocket engine burned liquid hydrogen',
    ]);
    expect(cosine(query!, bowl!)).toBeGreaterThan(cosine(query!, contract!));
    expect(cosine(query!, bowl!)).toBeGreaterThan(cosine(query!, rocket!));
  }, 60_000);

  it('embeds a long document as passages plus a document vector near its passages', async () => {
    const embedder = createUseLiteEmbedder();
    const text = [
      'Tote bags are sewn from heavy cotton canvas.',
      'Each bag has two handles stitched with a double seam.',
      'The canvas is dyed with indigo before cutting.',
    ]
      .join(' ')
      .repeat(12);
    const doc = await embedDocument(embedder, text, {
      targetWords: 40,
      overlapWords: 10,
      headline: 'Canvas tote bags',
    });
    expect(doc.passages.length).toBeGreaterThan(3);
    expect(doc.dimensions).toBe(512);
    for (const p of doc.passages) expect(text.slice(p.start, p.end)).toBe(p.text);
    expect(cosine(doc.vector, doc.passages[0]!.vector)).toBeGreaterThan(0.8);
  }, 60_000);
});
