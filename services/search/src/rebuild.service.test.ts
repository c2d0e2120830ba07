import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { create, ListForIndexResponseSchema } from '@kaboodle/proto';
import type { ListForIndexResponse } from '@kaboodle/proto';
import type { IndexedEntity } from './index/search-index.port.ts';
import type { IndexWriter } from './index-writer.ts';
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
