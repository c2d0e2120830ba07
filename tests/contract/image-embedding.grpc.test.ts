// Find by photo in split mode: search reaches processing's image model over real gRPC
// (ImageEmbeddingService, served by processing's own implementation and model) and gets exactly the
// vector the in-process call gives, the model and its size once, and a refused picture as InputError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createGrpcServer, InputError } from '@kaboodle/platform';
import type { GrpcServer } from '@kaboodle/platform';
import { createImageEmbeddingGrpcService } from '@kaboodle/processing';
import {
  createInThreadImageMeasurer,
  IMAGE_EMBEDDING_DIMENSIONS,
  IMAGE_EMBEDDING_MODEL,
  IMAGE_EMBEDDING_PROVIDER,
} from '@kaboodle/processing';
import { rephotographedItems } from '../../services/processing/src/vision/test-fixtures/rephotographed-items.ts';
import { connectProcessing } from '@kaboodle/search';

const logger = pino({ level: 'silent' });
const measurer = createInThreadImageMeasurer();
const embedder = {
  provider: IMAGE_EMBEDDING_PROVIDER,
  model: IMAGE_EMBEDDING_MODEL,
  dimensions: IMAGE_EMBEDDING_DIMENSIONS,
  embed: (bytes: Uint8Array) => measurer.embed(bytes),
};
let server: GrpcServer;

beforeAll(async () => {
  server = createGrpcServer({ logger, host: '127.0.0.1' });
  server.addModule({ name: 'processing', grpc: [createImageEmbeddingGrpcService(embedder)] });
  await server.start();
});
afterAll(async () => {
  await server?.stop();
});

describe('image embedding over gRPC (split mode)', () => {
  it('gives the in-process vector, and the model and size', async () => {
    const client = connectProcessing({ kind: 'grpc', address: server.address }, logger);
    try {
      const [item] = await rephotographedItems(1, 0, 9);
      const remote = await client.embedImage(item!.catalogue);
      const local = await embedder.embed(item!.catalogue);
      expect(remote).toHaveLength(IMAGE_EMBEDDING_DIMENSIONS);
      for (let i = 0; i < local.length; i++) expect(remote[i]).toBeCloseTo(local[i]!, 6);
      expect(await client.imageSpace()).toEqual({
        dimensions: IMAGE_EMBEDDING_DIMENSIONS,
        model: IMAGE_EMBEDDING_MODEL,
      });
    } finally {
      client.close();
    }
  }, 60_000);

  it('answers a picture it cannot read as the caller’s mistake, with the reason', async () => {
    const client = connectProcessing({ kind: 'grpc', address: server.address }, logger);
    try {
      const refused = await client.embedImage(Buffer.from('not a photo')).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(InputError);
      expect((refused as Error).message).toMatch(/not a JPEG or PNG picture/);
    } finally {
      client.close();
    }
  });
});
