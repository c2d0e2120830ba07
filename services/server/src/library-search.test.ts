// The catalogue's LibrarySearch port, answered by the real search service over the memory index:
// in-process (--target=all) and over gRPC (split mode, a real grpc-js server on loopback). Both give
// the same hits, never another owner's, and "not indexed" is no neighbours rather than an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcServer, createLogger } from '@kaboodle/platform';
import type { GrpcServer } from '@kaboodle/platform';
import type { LibrarySearch } from '@kaboodle/catalogue';
import { connectLibrarySearch } from '@kaboodle/catalogue';
import type { SearchModule } from '@kaboodle/search';
import { documentToIndexed, inventoryItemToIndexed } from '@kaboodle/search';
import { createQueryEmbedder } from '@kaboodle/search';
import { createSearchGrpcService } from '@kaboodle/search';
import { createSearchService } from '@kaboodle/search';
import { createMemorySearchIndex } from '../../search/src/testing/memory-search-index.ts';
import {
  hashEmbed,
  makeDocument,
  makeInventoryItem,
  TEST_DIMENSIONS,
} from '../../search/src/testing/fixtures.ts';
import { librarySearchOf } from './library-search.ts';

const logger = createLogger({ level: 'silent', component: 'test' });
const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
const embedder = createQueryEmbedder({
  embed: async (texts) => texts.map((t) => hashEmbed(t)),
  cacheSize: 0,
});
const service = createSearchService({ index: () => index, embedder, logger });
const alice = 'alice';
const docs = [
  makeDocument({ ownerId: alice, title: 'Glass beads of the coast', summary: 'beads traded by sea' }),
  makeDocument({ ownerId: alice, title: 'Glass beads of the coast', summary: 'beads traded by sea' }),
  makeDocument({ ownerId: alice, title: 'Stool joinery', summary: 'mortise and tenon' }),
  makeDocument({ ownerId: 'bob', title: 'Glass beads of the coast', summary: 'beads traded by sea' }),
];
const item = makeInventoryItem({ ownerId: alice, name: 'Bead bowl', description: 'glass beads in a bowl' });

describe('the LibrarySearch port', () => {
  let server: GrpcServer;
  const adapters: Record<string, LibrarySearch & { close?(): void }> = {};

  beforeAll(async () => {
    await index.upsert([
      ...docs.map((d) => documentToIndexed(d, TEST_DIMENSIONS)),
      inventoryItemToIndexed(item, TEST_DIMENSIONS),
    ]);
    adapters['in-process'] = librarySearchOf({
      search: async (owner, request) => (await service.search(owner, request)).value,
      index: () => index,
    } as Pick<SearchModule, 'search' | 'index'> as SearchModule);
    server = createGrpcServer({ logger, host: '127.0.0.1', port: 0 });
    server.addService(createSearchGrpcService({ service, index: () => index }));
    await server.start();
    adapters.grpc = connectLibrarySearch(server.address!, logger);
  });
  afterAll(async () => {
    adapters.grpc?.close?.();
    await server?.stop({ timeoutMs: 2000 });
  });

  for (const name of ['in-process', 'grpc']) {
    describe(name, () => {
      it('runs a smart kaboodle’s search, the owner’s entities only', async () => {
        const hits = await adapters[name]!.search(alice, {
          query: 'beads',
          searchType: 'keyword',
          types: [],
          limit: 10,
        });
        expect(hits.map((h) => h.id).sort()).toEqual([docs[0]!.id, docs[1]!.id, item.id].sort());
        expect(hits.every((h) => h.score > 0 && h.score <= 1)).toBe(true);
        const onlyItems = await adapters[name]!.search(alice, {
          query: 'beads',
          searchType: 'keyword',
          types: ['inventory_item'],
          limit: 10,
        });
        expect(onlyItems).toEqual([expect.objectContaining({ type: 'inventory_item', id: item.id })]);
      });

      it('gives neighbours above a similarity, never the entity itself; an unknown one has none', async () => {
        const near = await adapters[name]!.related(alice, { type: 'document', id: docs[0]!.id }, 5, 0.95);
        expect(near.map((h) => h.id)).toEqual([docs[1]!.id]);
        expect(await adapters[name]!.related(alice, { type: 'document', id: docs[3]!.id }, 5)).toEqual([]);
      });

      it('reports the owner’s part of the index', async () => {
        expect((await adapters[name]!.indexStats(alice)).entities).toBe(4);
        expect((await adapters[name]!.indexStats('bob')).entities).toBe(1);
      });
    });
  }
});
