// The analyzer with the real engine end to end: the extraction engine (in-thread adapter), the
// offline enricher, the USE-lite embedder and the offline vision (worker thread), reading from a
// real local blob store in a temp directory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, type BlobStore } from '@kaboodle/platform';
import { createLocalBlobStore } from '@kaboodle/platform';
import { TextExtractionMethod } from '@kaboodle/proto';
import { createUseLiteEmbedder } from '../embed/index.ts';
import { createOfflineEnricher } from '../enrich/index.ts';
import { ExtractionError } from '../extract/extractor.ts';
import { createLocalExtractor } from '../extract/local-extractor.ts';
import { createBarcodeLookup, createOfflineVision, createPooledImageMeasurer } from '../vision/index.ts';
import { teakStool } from '../vision/test-fixtures/generate-photos.ts';
import { createAnalyzer } from './analyzer.service.ts';

const ESSAY = `The Quiet Economics of Handmade Goods
by Amara Okafor

In this essay I argue that handmade goods survive not despite their cost but because of it. Buyers of woven baskets and carved stools pay for a story, for the hands that made the object, and for its scarcity. Markets for mass-produced goods reward low prices; markets for handmade goods reward provenance.

The problem is that artisans rarely capture that premium. Middlemen set prices, and the makers see a small share of the retail price. Cooperatives that sell directly online change the split. Drawing on Polanyi and Sen, I describe how these cooperatives turn reputation into income.`;

let dir: string;
let blobs: BlobStore;
const extractor = createLocalExtractor();
const measurer = createPooledImageMeasurer({ timeoutMs: 90_000 });
const embedder = createUseLiteEmbedder();
const analyzer = () =>
  createAnalyzer({
    extractor,
    blobs,
    embedder,
    enricher: createOfflineEnricher(),
    vision: createOfflineVision({ measurer, barcodeLookup: createBarcodeLookup() }),
  });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kaboodle-analyzer-'));
  blobs = createLocalBlobStore({ root: dir });
});
afterAll(async () => {
  await extractor.close();
  await measurer.close();
  await embedder.close?.();
  await blobs.close();
  await rm(dir, { recursive: true, force: true });
});

describe('analyzer', () => {
  it('turns a text file into a document with every field, provenance and an embedding', async () => {
    const r = await analyzer().analyze({
      bytes: Buffer.from(ESSAY),
      fileName: 'essay.txt',
      contentType: 'text/plain',
      existingTags: [{ tag: 'artisans', count: 5 }],
    });
    expect(r.kind).toBe('document');
    if (r.kind !== 'document') return;
    const d = r.document;
    expect(d.title).toBe('The Quiet Economics of Handmade Goods');
    expect(d.author).toBe('Amara Okafor');
    expect(d.category).toBe('Essay');
    expect(d.thesis).toMatch(/^In this essay I argue/);
    expect(d.influencedBy).toEqual(expect.arrayContaining(['Polanyi', 'Sen']));
    expect(d.hashtags!.map((h) => h.tag)).toContain('artisans');
    expect(d.text).toMatchObject({ method: TextExtractionMethod.PLAIN, language: 'en', truncated: false });
    expect(d.embedding).toMatchObject({
      provider: 'local',
      model: 'universal-sentence-encoder-lite',
      dimensions: 512,
    });
    expect(d.embedding!.values).toHaveLength(512);
    expect(r.passages.length).toBeGreaterThan(0);
    expect(Object.keys(d.provenance!)).toEqual(
      expect.arrayContaining(['title', 'author', 'summary', 'hashtags']),
    );
  }, 60_000);

  it('reads a stored photo (auto destination) into an inventory item, using the OCR’d label', async () => {
    const photo = await teakStool();
    await blobs.put('user-1/stool.jpg', Readable.from(photo.bytes), {
      contentType: 'image/jpeg',
      size: photo.bytes.length,
    });
    const r = await analyzer().analyze({
      blobKey: 'user-1/stool.jpg',
      fileName: 'photo-17.jpg',
      contentType: 'image/jpeg',
    });
    expect(r.kind).toBe('inventory_item');
    if (r.kind !== 'inventory_item') return;
    const item = r.inventoryItem;
    expect(item.text!.text).toMatch(/TEAK/i);
    expect(item.category).toBe('Stools');
    expect(item.material).toBe('wood');
    expect(item.dimensions).toMatchObject({ height: 45, lengthUnit: 'cm' });
    expect(item.colors!.length).toBeGreaterThan(0);
    expect(item.embedding).toMatchObject({ provider: 'local', dimensions: 512 });
  }, 120_000);

  it('makes a document of a photo when the user asks for Document', async () => {
    const photo = await teakStool();
    const r = await analyzer().analyze({
      bytes: photo.bytes,
      fileName: 'label.jpg',
      destination: 'document',
    });
    expect(r.kind).toBe('document');
    if (r.kind === 'document') expect(r.document.text!.method).toBe(TextExtractionMethod.OCR);
  }, 120_000);

  it('refuses to make an inventory item of a text file, with a reason the user can act on', async () => {
    const err = await analyzer()
      .analyze({ bytes: Buffer.from(ESSAY), fileName: 'essay.txt', destination: 'inventory' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect((err as ExtractionError).message).toMatch(/Only photos/);
  });

  it('fails clearly on an empty file, a file over 20 MB and a missing blob', async () => {
    await expect(analyzer().analyze({ bytes: new Uint8Array(0), fileName: 'a.txt' })).rejects.toMatchObject({
      code: 'empty',
      message: 'The file is empty.',
    });
    await expect(
      analyzer().analyze({ bytes: new Uint8Array(21 * 1024 * 1024), fileName: 'a.pdf' }),
    ).rejects.toMatchObject({ code: 'too_large' });
    await expect(
      analyzer().analyze({ blobKey: 'user-1/missing.pdf', fileName: 'missing.pdf' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
