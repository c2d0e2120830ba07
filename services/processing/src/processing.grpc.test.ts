// ProcessingService over a real loopback gRPC server built with the platform kit: Embed with the
// offline model, Analyze of a stored file, and how failures reach the client.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrpcClient,
  createGrpcServer,
  createLogger,
  type BlobStore,
  type GrpcServer,
} from '@kaboodle/platform';
import { createLocalBlobStore } from '@kaboodle/platform';
import { Destination, ProcessingService } from '@kaboodle/proto';
import { createAnalyzer } from './analyze/index.ts';
import { createUseLiteEmbedder } from './embed/index.ts';
import { createOfflineEnricher } from './enrich/index.ts';
import { createLocalExtractor } from './extract/local-extractor.ts';
import { createProcessingGrpcService } from './processing.grpc.ts';
import { createBarcodeLookup, createOfflineVision, createPooledImageMeasurer } from './vision/index.ts';
import { redBowl } from './vision/test-fixtures/generate-photos.ts';

let dir: string;
let blobs: BlobStore;
let server: GrpcServer;
const extractor = createLocalExtractor();
const measurer = createPooledImageMeasurer({ timeoutMs: 90_000 });
const embedder = createUseLiteEmbedder();
const logger = createLogger({ component: 'processing-grpc-test', level: 'silent' });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kaboodle-grpc-'));
  blobs = createLocalBlobStore({ root: dir });
  const analyzer = createAnalyzer({
    extractor,
    blobs,
    embedder,
    enricher: createOfflineEnricher(),
    vision: createOfflineVision({ measurer, barcodeLookup: createBarcodeLookup() }),
  });
  server = createGrpcServer({ logger, host: '127.0.0.1' });
  server.addService(createProcessingGrpcService({ analyzer, embedder, blobs }));
  await server.start();
});

afterAll(async () => {
  await server.stop({ timeoutMs: 2000 });
  await extractor.close();
  await measurer.close();
  await embedder.close?.();
  await blobs.close();
  await rm(dir, { recursive: true, force: true });
});

const client = () => createGrpcClient(ProcessingService, server.address);

describe('ProcessingService over gRPC', () => {
  it('Embed returns one 512-dimensional vector per text with the model that made it', async () => {
    const c = client();
    try {
      const res = await c.embed({ texts: ['red ceramic bowl', 'blue canvas tote'] });
      expect(res.vectors).toHaveLength(2);
      expect(res.vectors[0]!.values).toHaveLength(512);
      expect([res.provider, res.model, res.dimensions]).toEqual([
        'local',
        'universal-sentence-encoder-lite',
        512,
      ]);
      const direct = await embedder.embed(['red ceramic bowl']);
      expect(res.vectors[0]!.values[5]).toBeCloseTo(direct[0]![5]!, 5);
    } finally {
      c.close();
    }
  }, 60_000);

  it('Embed refuses no texts or too many with INVALID_ARGUMENT', async () => {
    const c = client();
    try {
      await expect(c.embed({ texts: [] })).rejects.toMatchObject({
        message: expect.stringMatching(/1 to 256 texts/),
      });
      await expect(c.embed({ texts: new Array(257).fill('x') })).rejects.toMatchObject({
        name: 'InputError',
      });
    } finally {
      c.close();
    }
  });

  it('Analyze turns a stored text file into a document', async () => {
    const text =
      'Notes on Kiln Temperatures\nby Lena Park\n\nStoneware bowls are fired at about 1200 degrees. Lower temperatures leave the clay porous. We argue that a slow cooling phase prevents cracks in thick bowls.';
    await blobs.put('u1/kiln.txt', Readable.from(Buffer.from(text)), {
      contentType: 'text/plain',
      size: Buffer.byteLength(text),
    });
    const c = client();
    try {
      const res = await c.analyze({
        file: {
          ownerId: 'u1',
          fileId: 'f1',
          blobKey: 'u1/kiln.txt',
          fileName: 'kiln.txt',
          contentType: 'text/plain',
        },
        options: { instructions: 'tags: ceramics', destination: Destination.AUTO },
      });
      expect(res.result.case).toBe('document');
      if (res.result.case !== 'document') return;
      expect(res.result.value).toMatchObject({ title: 'Notes on Kiln Temperatures', author: 'Lena Park' });
      expect(res.result.value.hashtags[0]).toMatchObject({ tag: 'ceramics', relevancy: 1 });
      expect(res.result.value.embedding!.dimensions).toBe(512);
      expect(res.result.value.provenance.title!.method).not.toBe('');
    } finally {
      c.close();
    }
  }, 60_000);

  it("Analyze reuses the user's existing tags sent in options.existing_tags", async () => {
    const text =
      'Glazing Stoneware Bowls\nby Lena Park\n\nStoneware bowls take a celadon glaze well. The glaze pools in the carved lines of each bowl. We argue that thin glaze layers keep stoneware bowls from crazing.';
    await blobs.put('u1/glaze.txt', Readable.from(Buffer.from(text)), {
      contentType: 'text/plain',
      size: Buffer.byteLength(text),
    });
    const file = { ownerId: 'u1', fileId: 'f3', blobKey: 'u1/glaze.txt', fileName: 'glaze.txt' };
    const c = client();
    try {
      const without = await c.analyze({ file });
      const withTags = await c.analyze({
        file,
        options: {
          existingTags: [
            { tag: 'Ceramic-Glazes', count: 12 },
            { tag: 'stoneware', count: 30 },
          ],
        },
      });
      if (without.result.case !== 'document' || withTags.result.case !== 'document')
        throw new Error('expected documents');
      const plain = without.result.value.hashtags;
      const reused = withTags.result.value.hashtags;
      // The user's tag wins over new ones: it is boosted above what the same file gets without it.
      const before = plain.find((h) => h.tag === 'stoneware');
      const after = reused.find((h) => h.tag === 'stoneware');
      expect(after).toBeDefined();
      expect(after!.relevancy).toBeGreaterThan(before?.relevancy ?? 0);
      // A blank tag is refused, not silently dropped.
      await expect(
        c.analyze({ file, options: { existingTags: [{ tag: '  ', count: 1 }] } }),
      ).rejects.toMatchObject({ name: 'InputError', message: expect.stringMatching(/existing_tags\[0\]/) });
    } finally {
      c.close();
    }
  }, 60_000);

  it('Analyze turns a stored photo into an inventory item', async () => {
    const photo = await redBowl();
    await blobs.put('u1/bowl.jpg', Readable.from(photo.bytes), {
      contentType: 'image/jpeg',
      size: photo.bytes.length,
    });
    const c = client();
    try {
      const res = await c.analyze(
        {
          file: {
            ownerId: 'u1',
            fileId: 'f2',
            blobKey: 'u1/bowl.jpg',
            fileName: 'bowl.jpg',
            contentType: 'image/jpeg',
          },
        },
        { deadlineMs: 120_000 },
      );
      expect(res.result.case).toBe('inventoryItem');
      if (res.result.case !== 'inventoryItem') return;
      expect(res.result.value.category).toBe('Bowls');
      expect(photo.expected.colors).toContain(res.result.value.colors[0]!.name);
    } finally {
      c.close();
    }
  }, 120_000);

  it('Analyze reports a missing file as NOT_FOUND and an unreadable one with its reason', async () => {
    const fake = Buffer.from('%PDF-1.7\nthis is not really a pdf');
    await blobs.put('u1/fake.pdf', Readable.from(fake), {
      contentType: 'application/pdf',
      size: fake.length,
    });
    const c = client();
    try {
      await expect(
        c.analyze({ file: { blobKey: 'u1/nope.pdf', fileName: 'nope.pdf' } }),
      ).rejects.toMatchObject({ name: 'NotFoundError' });
      await expect(c.analyze({ file: { blobKey: '../etc/passwd', fileName: 'x' } })).rejects.toMatchObject({
        name: 'InputError',
      });
      const bad = (await c
        .analyze({ file: { blobKey: 'u1/fake.pdf', fileName: 'fake.pdf', contentType: 'application/pdf' } })
        .then(
          () => new Error('expected Analyze to fail'),
          (e: unknown) => e,
        )) as Error & { code?: number };
      // FAILED_PRECONDITION carries the extractor's reason word for word (not a generic INTERNAL).
      expect(bad.message).toBe(
        'The PDF is damaged or incomplete and cannot be opened; save or download it again and re-upload it.',
      );
    } finally {
      c.close();
    }
  }, 60_000);
});
