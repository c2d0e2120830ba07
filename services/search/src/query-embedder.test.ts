import { describe, expect, it } from 'vitest';
import { createQueryEmbedder, normaliseQuery } from './query-embedder.ts';

function countingEmbed(delayMs = 5) {
  const calls: string[][] = [];
  return {
    calls,
    embed: async (texts: string[]) => {
      calls.push([...texts]);
      await new Promise((r) => setTimeout(r, delayMs));
      return texts.map((t) => Float32Array.of(t.length, 1));
    },
  };
}

describe('query embedder', () => {
  it('normalises case, width and whitespace into one cache key', () => {
    expect(normaliseQuery('  Red\t\tRADIO \n')).toBe('red radio');
    expect(normaliseQuery('ＲＥＤ radio')).toBe('red radio');
  });

  it('answers a repeated query from the cache (by normalised text)', async () => {
    const e = countingEmbed();
    const q = createQueryEmbedder({ embed: e.embed, cacheSize: 10 });
    const a = await q.embed('Red radio');
    const b = await q.embed('  red   RADIO ');
    expect(b).toBe(a);
    expect(e.calls).toEqual([['red radio']]);
    expect(q.stats).toMatchObject({ hits: 1, misses: 1 });
  });

  it('shares one in-flight embedding between concurrent identical queries', async () => {
    const e = countingEmbed(20);
    const q = createQueryEmbedder({ embed: e.embed, cacheSize: 0 });
    const results = await Promise.all([q.embed('bowls'), q.embed('Bowls'), q.embed('bowls ')]);
    expect(e.calls).toEqual([['bowls']]);
    expect(results[1]).toBe(results[0]);
    expect(q.stats.shared).toBe(2);
  });

  it('sends the distinct queries of one tick as one batch, split at maxBatch', async () => {
    const e = countingEmbed();
    const q = createQueryEmbedder({ embed: e.embed, cacheSize: 100, maxBatch: 2 });
    const vectors = await Promise.all(['a', 'bb', 'ccc'].map((t) => q.embed(t)));
    expect(e.calls).toEqual([['a', 'bb'], ['ccc']]);
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3]);
  });

  it('evicts the least recently used entry past the cache size', async () => {
    const e = countingEmbed(0);
    const q = createQueryEmbedder({ embed: e.embed, cacheSize: 2 });
    await q.embed('one');
    await q.embed('two');
    await q.embed('one'); // one is now the most recent
    await q.embed('three'); // evicts two
    await q.embed('one');
    await q.embed('two');
    expect(e.calls.flat()).toEqual(['one', 'two', 'three', 'two']);
  });

  it('does not cache failures: the next identical query tries again', async () => {
    let fail = true;
    const q = createQueryEmbedder({
      cacheSize: 10,
      embed: async (texts) => {
        if (fail) throw new Error('processing is down');
        return texts.map(() => Float32Array.of(1));
      },
    });
    await expect(q.embed('x')).rejects.toThrow('processing is down');
    fail = false;
    await expect(q.embed('x')).resolves.toEqual(Float32Array.of(1));
  });

  it('rejects when the embedder returns fewer vectors than texts', async () => {
    const q = createQueryEmbedder({ cacheSize: 0, embed: async () => [] });
    await expect(q.embed('x')).rejects.toThrow(/0 vectors for 1 texts/);
  });
});
