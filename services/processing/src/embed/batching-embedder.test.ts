// The queue and cache around any embedding model; the model here is a deterministic function of
// the text (letter counts), standing in for the network or WASM model so call counts can be seen.
import { describe, expect, it } from 'vitest';
import { createBatchingEmbedder, type BatchingEmbedderOptions } from './batching-embedder.ts';
import { cosine } from './text-embedder.ts';

/** A one-dimension model that records each call's texts. */
function recordingEmbedder(options: Omit<BatchingEmbedderOptions, 'space' | 'embedBatch'>) {
  const calls: string[][] = [];
  const embedder = createBatchingEmbedder({
    ...options,
    space: () => ({ provider: 'test', model: 'recording', dimensions: 1 }),
    async embedBatch(texts) {
      calls.push(texts);
      return texts.map(() => [1]);
    },
  });
  return { calls, embedder };
}

function letterModel() {
  const calls: string[][] = [];
  const embedder = createBatchingEmbedder({
    space: () => ({ provider: 'test', model: 'letters', dimensions: 26 }),
    maxBatch: 4,
    maxChars: 50,
    cacheSize: 10,
    async embedBatch(texts) {
      calls.push(texts);
      return texts.map((t) => {
        const v = new Array<number>(26).fill(0);
        for (const ch of t.toLowerCase()) if (ch >= 'a' && ch <= 'z') v[ch.charCodeAt(0) - 97]! += 1;
        return v;
      });
    },
  });
  return { embedder, calls };
}

describe('batching embedder', () => {
  it('coalesces concurrent calls into batches of at most maxBatch and answers each caller in order', async () => {
    const { embedder, calls } = letterModel();
    const [a, b, c] = await Promise.all([
      embedder.embed(['aaa', 'bbb']),
      embedder.embed(['ccc', 'ddd', 'eee']),
      embedder.embed(['fff']),
    ]);
    expect(calls.map((c) => c.length)).toEqual([4, 2]);
    expect(a![0]![0]).toBeCloseTo(1);
    expect(b![2]![4]).toBeCloseTo(1);
    expect(c![0]![5]).toBeCloseTo(1);
  });

  it('serves a repeated text from the cache without calling the model', async () => {
    const { embedder, calls } = letterModel();
    await embedder.embed(['red bowl']);
    const again = await embedder.embed(['red bowl']);
    expect(calls).toHaveLength(1);
    expect(cosine(again[0]!, again[0]!)).toBeCloseTo(1);
  });

  it('returns unit vectors, a zero vector for an empty text, and cuts long texts', async () => {
    const { embedder, calls } = letterModel();
    const [v, empty, long] = await embedder.embed(['abc', '   ', 'x'.repeat(80)]);
    expect(Math.hypot(...v!)).toBeCloseTo(1);
    expect([...empty!].every((x) => x === 0)).toBe(true);
    expect(empty).toHaveLength(26);
    expect(long![23]).toBeCloseTo(1);
    expect(calls.flat().every((t) => t.length <= 50)).toBe(true);
  });

  it('rejects every caller of a failed batch, and the next call works again', async () => {
    let fail = true;
    const embedder = createBatchingEmbedder({
      space: () => ({ provider: 'test', model: 'flaky', dimensions: 2 }),
      maxBatch: 8,
      maxChars: 100,
      async embedBatch(texts) {
        if (fail) throw new Error('model crashed');
        return texts.map(() => [1, 0]);
      },
    });
    await expect(embedder.embed(['a'])).rejects.toThrow('model crashed');
    fail = false;
    await expect(embedder.embed(['a'])).resolves.toHaveLength(1);
  });

  it('stops waiting when the caller aborts', async () => {
    const embedder = createBatchingEmbedder({
      space: () => ({ provider: 'test', model: 'slow', dimensions: 2 }),
      maxBatch: 8,
      maxChars: 100,
      embedBatch: (texts) => new Promise((r) => setTimeout(() => r(texts.map(() => [1, 0])), 200)),
    });
    const controller = new AbortController();
    const pending = embedder.embed(['slow'], { signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });
});

describe('batching embedder lanes', () => {
  it('serves a short query before the rest of a long document already queued', async () => {
    const order: string[] = [];
    const embedder = createBatchingEmbedder({
      space: () => ({ provider: 'test', model: 'order', dimensions: 1 }),
      maxBatch: 2,
      maxChars: 2000,
      maxBatchChars: 1200,
      async embedBatch(texts) {
        order.push(...texts.map((t) => t.slice(0, 6)));
        await new Promise((r) => setTimeout(r, 5));
        return texts.map(() => [1]);
      },
    });
    const passages = Array.from(
      { length: 12 },
      (_, i) => `para${String(i).padStart(2, '0')} ${'x'.repeat(600)}`,
    );
    const doc = embedder.embed(passages);
    await new Promise((r) => setTimeout(r, 8));
    const query = embedder.embed(['query: red bowl']);
    await Promise.all([doc, query]);
    // Long passages go one or two per call (the character budget); the query jumps the bulk lane.
    expect(order.indexOf('query:')).toBeLessThan(6);
    expect(order.filter((t) => t.startsWith('para'))).toHaveLength(12);
  });
});

describe('batching embedder: batch keys and clipping', () => {
  it('never puts texts with different keys in one call, keeps each key in order, answers every caller', async () => {
    const calls: string[][] = [];
    const keyed = createBatchingEmbedder({
      space: () => ({ provider: 'test', model: 'letters', dimensions: 26 }),
      maxBatch: 4,
      maxChars: 200,
      batchKey: (t) => (t.length <= 5 ? 0 : 1),
      async embedBatch(texts) {
        calls.push(texts);
        return texts.map((t) => Array.from({ length: 26 }, (_, i) => (t.charCodeAt(0) - 97 === i ? 1 : 0)));
      },
    });
    // A document's passages and its title, then another document: titles share a call, passages another.
    const [a, b] = await Promise.all([
      keyed.embed(['aaaaaaaaaa', 'bbbbbbbbbb', 'ccc']),
      keyed.embed(['dddddddddd', 'eee']),
    ]);
    expect(calls).toEqual([
      ['aaaaaaaaaa', 'bbbbbbbbbb', 'dddddddddd'],
      ['ccc', 'eee'],
    ]);
    expect([...a!.map((v) => v.indexOf(1)), ...b!.map((v) => v.indexOf(1))]).toEqual([0, 1, 2, 3, 4]);
  });

  it('still respects the character budget within a key, and a lone long text still gets its call', async () => {
    const { calls, embedder } = recordingEmbedder({
      maxBatch: 8,
      maxChars: 1000,
      maxBatchChars: 25,
      batchKey: (t) => (t.length <= 5 ? 0 : 1),
    });
    await embedder.embed(['x'.repeat(30), 'y'.repeat(10), 'z'.repeat(10), 'w'.repeat(10), 'q']);
    expect(calls).toEqual([['x'.repeat(30)], ['y'.repeat(10), 'z'.repeat(10)], ['w'.repeat(10)], ['q']]);
  });

  it('embeds (and caches) the clipped text, so texts differing only past the window are one call', async () => {
    const { calls, embedder: clipped } = recordingEmbedder({
      maxBatch: 4,
      maxChars: 200,
      cacheSize: 10,
      clip: (t) => t.split(' ').slice(0, 2).join(' '),
    });
    await clipped.embed(['red bowl with a chip']);
    await clipped.embed(['red bowl, glazed']);
    await clipped.embed(['red bowl and spoon']);
    expect(calls).toEqual([['red bowl'], ['red bowl,']]);
  });
});

describe('batching embedder with several model threads', () => {
  it('keeps up to parallelBatches batches in flight, never more', async () => {
    let inFlight = 0;
    let most = 0;
    const embedder = createBatchingEmbedder({
      space: () => ({ provider: 'test', model: 'threads', dimensions: 1 }),
      maxBatch: 2,
      maxChars: 100,
      parallelBatches: 2,
      async embedBatch(texts) {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 10));
        inFlight--;
        return texts.map(() => [1]);
      },
    });
    const out = await embedder.embed(Array.from({ length: 12 }, (_, i) => `text ${i}`));
    expect(out).toHaveLength(12);
    expect(most).toBe(2);
  });
});
