import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import {
  create,
  EntityType,
  KaboodleSchema,
  ListForIndexResponseSchema,
  timestampFromDate,
} from '@kaboodle/proto';
import type { ListForIndexResponse } from '@kaboodle/proto';
import type { IndexedEntity } from './index/search-index.port.ts';
import { createIndexWriter } from './index-writer.ts';
import type { IndexWriter } from './index-writer.ts';
import { createLanceDbSearchIndex } from './index/lancedb-search-index.ts';
import { documentToIndexed } from './indexed-entity.ts';
import { embeddedTableName } from './open-search-index.ts';
import { createRebuilder } from './rebuild.service.ts';
import { makeDocument, TEST_DIMENSIONS } from './testing/fixtures.ts';

const logger = pino({ level: 'silent' });

function catalogueOf(count: number) {
  return {
    async *listForIndex(): AsyncIterable<ListForIndexResponse> {
      for (let i = 0; i < count; i++) {
        const doc = makeDocument({ ownerId: `owner-${i % 3}`, title: `Ledger ${i}`, version: i + 1 });
        yield create(ListForIndexResponseSchema, { entity: { case: 'document', value: doc } });
      }
    },
    close() {},
  };
}

const unusedWriter = (): IndexWriter => {
  throw new Error('the live writer must not be used when filling a new index');
};

describe('rebuild into a new index (embedding model changed)', () => {
  it('streams every catalogue entity into the target in bounded batches and reports the outcome', async () => {
    const batches: IndexedEntity[][] = [];
    const rebuilder = createRebuilder({
      catalogue: catalogueOf(450),
      writer: unusedWriter,
      dimensions: () => TEST_DIMENSIONS,
      logger,
    });
    const report = await rebuilder.run({
      into: async (entities) => {
        batches.push(entities);
        return { applied: entities.length - 1, stale: 1 };
      },
    });
    expect(batches.map((b) => b.length)).toEqual([200, 200, 50]);
    expect(new Set(batches.flat().map((e) => e.title)).size).toBe(450);
    expect(report).toMatchObject({ running: false, read: 450, applied: 447, stale: 3, error: null });
  });

  it('reports a failed target write as the rebuild error', async () => {
    const rebuilder = createRebuilder({
      catalogue: catalogueOf(10),
      writer: unusedWriter,
      dimensions: () => TEST_DIMENSIONS,
      logger,
    });
    await expect(
      rebuilder.run({
        into: async () => {
          throw new Error('cluster said no');
        },
      }),
    ).rejects.toThrow('cluster said no');
    expect(rebuilder.status()).toMatchObject({ running: false, error: 'cluster said no' });
  });
});

describe('rebuild of the live index', () => {
  it('deletes what the catalogue no longer has, but never an entity changed just before the rebuild', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kaboodle-rebuild-'));
    const index = createLanceDbSearchIndex({ dir, dimensions: TEST_DIMENSIONS });
    await index.open();
    const writer = createIndexWriter({ index });
    try {
      const listed = [0, 1, 2].map((i) => makeDocument({ ownerId: `owner-${i}`, title: `Ledger ${i}` }));
      const orphan = documentToIndexed(
        makeDocument({ ownerId: 'owner-0', title: 'Gone ledger', version: 4 }),
        TEST_DIMENSIONS,
      );
      // deleted from the catalogue a moment ago: its event may still be on the way
      const recent = {
        ...documentToIndexed(makeDocument({ ownerId: 'owner-1', title: 'Recent ledger' }), TEST_DIMENSIONS),
        updatedAt: new Date(),
      };
      await index.upsert([...listed.map((d) => documentToIndexed(d, TEST_DIMENSIONS)), orphan, recent]);
      const rebuilder = createRebuilder({
        catalogue: {
          async *listForIndex(): AsyncIterable<ListForIndexResponse> {
            for (const doc of listed)
              yield create(ListForIndexResponseSchema, { entity: { case: 'document', value: doc } });
          },
          close() {},
        },
        writer: () => writer,
        index: () => index,
        dimensions: () => TEST_DIMENSIONS,
        logger,
      });
      const report = await rebuilder.run();
      expect(report).toMatchObject({ read: 3, stale: 3, applied: 0, removed: 1, error: null });
      expect(
        await index.versionOf({ entityType: 'document', id: orphan.id, ownerId: 'owner-0' }),
      ).toBeUndefined();
      expect(await index.versionOf({ entityType: 'document', id: recent.id, ownerId: 'owner-1' })).toBe(1);
      for (const d of listed)
        expect(await index.versionOf({ entityType: 'document', id: d.id, ownerId: d.ownerId })).toBe(1);
      // the delete is remembered: the orphan's old version cannot come back
      expect((await index.upsert([orphan])).stale).toBe(1);
      // a second rebuild finds nothing more to prune
      expect((await rebuilder.run()).removed).toBe(0);
    } finally {
      await writer.close();
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('rebuild: kaboodle memberships', () => {
  it('restores every kaboodle’s members (into a new index too) and prunes kaboodles the catalogue no longer has', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kaboodle-rebuild-k-'));
    const index = createLanceDbSearchIndex({ dir, dimensions: TEST_DIMENSIONS });
    await index.open();
    const writer = createIndexWriter({ index });
    try {
      const doc = makeDocument({ ownerId: 'owner-0', title: 'Ledger' });
      const fair = create(KaboodleSchema, {
        id: 'k-fair',
        ownerId: 'owner-0',
        name: 'Fair',
        version: 9n,
        members: [
          { entityType: EntityType.INVENTORY_ITEM, entityId: 'item-1' },
          { entityType: EntityType.DOCUMENT, entityId: doc.id },
        ],
        updatedAt: timestampFromDate(new Date('2026-01-01T00:00:00Z')),
      });
      const smart = create(KaboodleSchema, {
        id: 'k-smart',
        ownerId: 'owner-0',
        name: 'Ledgers',
        version: 10n,
        smart: { query: 'ledger', searchType: 'keyword', kaboodleId: 'k-fair' },
      });
      // deleted from the catalogue while search was away
      await index.kaboodles.upsert([
        { ownerId: 'owner-1', id: 'k-gone', version: 3, members: [], updatedAt: new Date(0) },
      ]);
      const catalogue = {
        async *listForIndex(): AsyncIterable<ListForIndexResponse> {
          yield create(ListForIndexResponseSchema, { entity: { case: 'document', value: doc } });
          for (const k of [fair, smart])
            yield create(ListForIndexResponseSchema, { entity: { case: 'kaboodle', value: k } });
        },
        close() {},
      };
      const rebuilder = createRebuilder({
        catalogue,
        writer: () => writer,
        index: () => index,
        dimensions: () => TEST_DIMENSIONS,
        logger,
      });
      const report = await rebuilder.run();
      expect(report).toMatchObject({ read: 3, applied: 3, removed: 1, error: null });
      expect(await index.kaboodles.get('owner-0', 'k-fair')).toMatchObject({
        version: 9,
        members: [
          { entityType: 'inventory_item', id: 'item-1' },
          { entityType: 'document', id: doc.id },
        ],
      });
      expect((await index.kaboodles.get('owner-0', 'k-smart'))?.smart).toEqual({
        query: 'ledger',
        searchType: 'keyword',
        entityTypes: [],
        kaboodleId: 'k-fair',
      });
      expect(await index.kaboodles.get('owner-1', 'k-gone')).toBeUndefined();

      // filling a new index (a new embedding model): memberships still go to the kaboodle store
      await index.kaboodles.delete([{ ownerId: 'owner-0', id: 'k-fair', version: 11 }]);
      const into = await rebuilder.run({
        into: async (entities) => ({ applied: entities.length, stale: 0 }),
      });
      expect(into.error).toBeNull();
      // the delete (version 11) is newer than the catalogue's version 9: it stays deleted
      expect(await index.kaboodles.get('owner-0', 'k-fair')).toBeUndefined();
      expect(await index.kaboodles.get('owner-0', 'k-smart')).toBeDefined();
    } finally {
      await writer.close();
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded table per embedding space', () => {
  it('names a table for the model and its dimensions, so a new model opens a new, empty table', () => {
    const a = embeddedTableName('kaboodle-entities', {
      dimensions: 512,
      model: 'Universal Sentence Encoder/lite',
    });
    expect(a).toBe('kaboodle-entities_512d_universal-sentence-encoder-lite');
    expect(
      embeddedTableName('kaboodle-entities', { dimensions: 1536, model: 'text-embedding-3-small' }),
    ).not.toBe(a);
    expect(embeddedTableName('kaboodle-entities', { dimensions: 512, model: '' })).toBe(
      'kaboodle-entities_512d',
    );
  });
});
