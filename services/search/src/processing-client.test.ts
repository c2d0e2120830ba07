// Split mode: search reaches processing (Embed) and the catalogue (ListForIndex) over real gRPC on
// loopback, served by stand-ins of those services built on the same protos and platform kit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createGrpcServer, implementGrpcService } from '@kaboodle/platform';
import type { GrpcServer } from '@kaboodle/platform';
import { CatalogueService, ProcessingService } from '@kaboodle/proto';
import type { ListForIndexResponse } from '@kaboodle/proto';
import { connectCatalogue, connectProcessing } from './processing-client.ts';
import { hashEmbed, makeDocument, makeInventoryItem, TEST_DIMENSIONS } from './testing/fixtures.ts';

const logger = pino({ level: 'silent' });
let server: GrpcServer;
const embedCalls: string[][] = [];
const listed: Array<{ ownerId: string; allOwners: boolean }> = [];
const entities = [
  makeDocument({ id: 'd1', ownerId: 'alice', title: 'One' }),
  makeInventoryItem({ id: 'i1', ownerId: 'alice', name: 'Two' }),
];

beforeAll(async () => {
  server = createGrpcServer({ logger, host: '127.0.0.1' });
  server.addModule({
    name: 'stand-ins',
    grpc: [
      implementGrpcService(ProcessingService, {
        async embed(request) {
          embedCalls.push([...request.texts]);
          return {
            vectors: request.texts.map((t) => ({ values: Array.from(hashEmbed(t)) })),
            provider: 'test',
            model: 'hash-v1',
            dimensions: TEST_DIMENSIONS,
          };
        },
        async analyze() {
          throw new Error('not used');
        },
      }),
      implementGrpcService(CatalogueService, {
        async *listForIndex(request) {
          listed.push({ ownerId: request.ownerId, allOwners: request.allOwners });
          for (const e of entities) {
            yield e.$typeName === 'kaboodle.catalogue.v1.Document'
              ? { entity: { case: 'document' as const, value: e } }
              : { entity: { case: 'inventoryItem' as const, value: e } };
          }
        },
        async getDocument() {
          throw new Error('not used');
        },
        async getInventoryItem() {
          throw new Error('not used');
        },
      }),
    ],
  });
  await server.start();
});

afterAll(async () => {
  await server?.stop({ timeoutMs: 100 });
});

describe('processing over gRPC', () => {
  it('learns the embedding space from Embed, then embeds batches in request order', async () => {
    const client = connectProcessing({ kind: 'grpc', address: server.address }, logger);
    try {
      expect(await client.space()).toEqual({ dimensions: TEST_DIMENSIONS, model: 'hash-v1' });
      const vectors = await client.embed(['red radio', 'oak stool']);
      expect(vectors).toHaveLength(2);
      expect(vectors[0]).toBeInstanceOf(Float32Array);
      expect(Array.from(vectors[1]!)).toEqual(Array.from(hashEmbed('oak stool')));
      expect(embedCalls.at(-1)).toEqual(['red radio', 'oak stool']);
    } finally {
      client.close();
    }
  });

  it('keeps asking for the space until processing answers, and stops when told to', async () => {
    const client = connectProcessing({ kind: 'grpc', address: '127.0.0.1:1' }, logger);
    const stop = new AbortController();
    const asking = client.space(stop.signal);
    setTimeout(() => stop.abort(new Error('stopping')), 300);
    await expect(asking).rejects.toThrow();
    client.close();
  });
});

describe('catalogue over gRPC', () => {
  it('streams every entity for a rebuild', async () => {
    const client = connectCatalogue({ kind: 'grpc', address: server.address }, logger)!;
    try {
      const got: ListForIndexResponse[] = [];
      for await (const m of client.listForIndex()) got.push(m);
      expect(got.map((m) => [m.entity.case, m.entity.value?.id])).toEqual([
        ['document', 'd1'],
        ['inventoryItem', 'i1'],
      ]);
      expect(listed.at(-1)).toEqual({ ownerId: '', allOwners: true });
    } finally {
      client.close();
    }
  });

  it('is absent without an address, and says so in-process when the module lacks listForIndex', () => {
    expect(connectCatalogue(undefined, logger)).toBeUndefined();
    const local = connectCatalogue({ kind: 'in-process', module: () => ({ name: 'catalogue' }) }, logger)!;
    expect(() => local.listForIndex()).toThrow(/does not offer listForIndex/);
  });
});
