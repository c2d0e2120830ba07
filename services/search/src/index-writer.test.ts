import { describe, expect, it } from 'vitest';
import { createIndexWriter } from './index-writer.ts';
import { documentToIndexed } from './indexed-entity.ts';
import { createMemorySearchIndex } from './testing/memory-search-index.ts';
import { makeDocument, TEST_DIMENSIONS } from './testing/fixtures.ts';

const entity = (id: string, version = 1, title = `doc ${id}`) =>
  documentToIndexed(makeDocument({ id, ownerId: 'alice', version, title }), TEST_DIMENSIONS);

describe('index writer (write-behind buffer)', () => {
  it('coalesces concurrent upserts into one batched index write', async () => {
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const writer = createIndexWriter({ index, lingerMs: 5 });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => writer.upsert(entity(`d${i}`))));
    expect(results.every((r) => r === 'applied')).toBe(true);
    expect(index.writes).toEqual([{ op: 'upsert', size: 50 }]);
    expect((await index.stats('alice')).entities).toBe(50);
  });

  it('flushes by size: no batch is larger than maxBatch', async () => {
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const writer = createIndexWriter({ index, maxBatch: 8, lingerMs: 1000 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 20 }, (_, i) => writer.upsert(entity(`d${i}`))));
    expect(index.writes.map((w) => w.size)).toEqual([8, 8, 4]);
    // Full batches do not wait for the linger; the rest goes out as soon as the previous batch lands.
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('resolves each caller only once its write is in the index', async () => {
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const writer = createIndexWriter({ index, lingerMs: 20 });
    const pending = writer.upsert(entity('late'));
    expect(await index.versionOf({ entityType: 'document', id: 'late', ownerId: 'alice' })).toBeUndefined();
    await pending;
    expect(await index.versionOf({ entityType: 'document', id: 'late', ownerId: 'alice' })).toBe(1);
  });

  it('keeps the latest version of an entity within one batch (older ones are stale)', async () => {
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const writer = createIndexWriter({ index, lingerMs: 5 });
    const [v3, v2, del1] = await Promise.all([
      writer.upsert(entity('x', 3, 'third')),
      writer.upsert(entity('x', 2, 'second')),
      writer.delete({ entityType: 'document', id: 'x', ownerId: 'alice', version: 1 }),
    ]);
    expect([v3, v2, del1]).toEqual(['applied', 'stale', 'stale']);
    const [hit] = await index.search({ ownerId: 'alice', text: 'third', mode: 'keyword', limit: 5 });
    expect(hit?.title).toBe('third');
  });

  it('reports an older version than the stored one as stale', async () => {
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const writer = createIndexWriter({ index, lingerMs: 1 });
    await writer.upsert(entity('x', 5));
    expect(await writer.upsert(entity('x', 4))).toBe('stale');
    expect(await writer.delete({ entityType: 'document', id: 'x', ownerId: 'alice', version: 6 })).toBe(
      'applied',
    );
  });

  it('rejects every caller of a failed batch, and keeps working afterwards', async () => {
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    let fail = true;
    const writer = createIndexWriter({
      lingerMs: 1,
      index: {
        upsert: (e) => (fail ? Promise.reject(new Error('disk full')) : index.upsert(e)),
        delete: (r) => index.delete(r),
      },
    });
    const failed = await Promise.allSettled([writer.upsert(entity('a')), writer.upsert(entity('b'))]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(writer.upsert(entity('a'))).resolves.toBe('applied');
  });

  it('close() flushes what is buffered and then refuses new writes', async () => {
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const writer = createIndexWriter({ index, lingerMs: 50 });
    const pending = writer.upsert(entity('a'));
    await writer.close();
    await expect(pending).resolves.toBe('applied');
    await expect(writer.upsert(entity('b'))).rejects.toThrow(/closed/);
  });

  it('tells onWritten the owners of each batch before its callers resolve, failed batches too', async () => {
    const index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
    const told: string[][] = [];
    let fail = false;
    const writer = createIndexWriter({
      lingerMs: 1,
      onWritten: (owners) => told.push([...owners].sort()),
      index: {
        upsert: (e) => (fail ? Promise.reject(new Error('disk full')) : index.upsert(e)),
        delete: (r) => index.delete(r),
      },
    });
    const bobs = documentToIndexed(makeDocument({ ownerId: 'bob', title: 'b' }), TEST_DIMENSIONS);
    await Promise.all([writer.upsert(entity('a')), writer.upsert(bobs)]).then(() =>
      expect(told).toEqual([['alice', 'bob']]),
    );
    fail = true;
    await expect(writer.upsert(entity('c'))).rejects.toThrow('disk full');
    expect(told).toEqual([['alice', 'bob'], ['alice']]);
  });
});
