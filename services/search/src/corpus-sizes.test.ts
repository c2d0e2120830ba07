import { describe, expect, it } from 'vitest';
import { CorpusSizes } from './corpus-sizes.ts';

/** A count the test releases by hand, recording who was counted. */
function heldCount() {
  const asked: string[] = [];
  const waiting: { owner: string; settle: (n: number | Error) => void }[] = [];
  const count = (owner: string) =>
    new Promise<number>((resolve, reject) => {
      asked.push(owner);
      waiting.push({ owner, settle: (n) => (n instanceof Error ? reject(n) : resolve(n)) });
    });
  const release = (n: number | Error) => waiting.splice(0).forEach((w) => w.settle(n));
  return { asked, count, release };
}

describe('CorpusSizes', () => {
  it('reads an unknown owner once for a burst of callers, and answers the known figure at once', async () => {
    const c = heldCount();
    const sizes = new CorpusSizes(c.count);
    const burst = Array.from({ length: 50 }, () => sizes.get('alice'));
    expect(c.asked).toEqual(['alice']);
    c.release(12_345);
    expect(await Promise.all(burst)).toEqual(new Array(50).fill(12_345));
    expect(await sizes.get('alice')).toBe(12_345);
    expect(c.asked).toEqual(['alice']);
    expect(sizes.inFlight).toBe(0);
  });

  it('keeps owners apart', async () => {
    const c = heldCount();
    const sizes = new CorpusSizes(c.count);
    const a = sizes.get('alice');
    const b = sizes.get('bob');
    expect(c.asked).toEqual(['alice', 'bob']);
    c.release(7);
    expect([await a, await b]).toEqual([7, 7]);
  });

  it('answers an old figure at once and refreshes it behind, once, for the callers after', async () => {
    const c = heldCount();
    const sizes = new CorpusSizes(c.count, { refreshAfterMs: 0 });
    const first = sizes.get('alice');
    c.release(100);
    expect(await first).toBe(100);
    // old now (refreshAfterMs 0): answered at once with 100 while one refresh runs
    expect(await Promise.all([sizes.get('alice'), sizes.get('alice'), sizes.get('alice')])).toEqual([
      100, 100, 100,
    ]);
    expect(c.asked).toEqual(['alice', 'alice']);
    c.release(250);
    await new Promise((r) => setImmediate(r));
    expect(sizes.inFlight).toBe(0);
    const next = sizes.get('alice');
    expect(await next).toBe(250);
  });

  it('answers the fallback, then the last known figure, when a read fails, and tries again', async () => {
    const c = heldCount();
    const errors: unknown[] = [];
    const sizes = new CorpusSizes(c.count, {
      fallback: 1_000,
      refreshAfterMs: 0,
      onError: (e) => errors.push(e),
    });
    const first = sizes.get('alice');
    c.release(new Error('index closed'));
    expect(await first).toBe(1_000);
    expect(errors).toHaveLength(1);
    const second = sizes.get('alice'); // not known: read again
    expect(c.asked).toHaveLength(2);
    c.release(40);
    expect(await second).toBe(40);
    expect(await sizes.get('alice')).toBe(40); // old: answered, refresh started
    c.release(new Error('index closed'));
    await new Promise((r) => setImmediate(r));
    expect(await sizes.get('alice')).toBe(40);
    expect(errors).toHaveLength(2);
  });

  it('answers the fallback when the count throws at once (the index not open yet)', async () => {
    const errors: unknown[] = [];
    const sizes = new CorpusSizes(
      () => {
        throw new Error('the search index is not open yet');
      },
      { fallback: 1_000, onError: (e) => errors.push(e) },
    );
    expect(await sizes.get('alice')).toBe(1_000);
    expect(errors).toHaveLength(1);
  });

  it('forgets the owner refreshed longest ago past its limit', async () => {
    const sizes = new CorpusSizes(async (owner) => Number(owner.slice(1)), { maxOwners: 2 });
    expect(await sizes.get('o1')).toBe(1);
    expect(await sizes.get('o2')).toBe(2);
    expect(await sizes.get('o3')).toBe(3);
    let asked = 0;
    const counting = new CorpusSizes(
      async (owner) => {
        asked++;
        return owner.length;
      },
      { maxOwners: 2 },
    );
    for (const o of ['a', 'bb', 'ccc']) await counting.get(o);
    await counting.get('bb');
    await counting.get('ccc');
    expect(asked).toBe(3);
    await counting.get('a'); // forgotten: read again
    expect(asked).toBe(4);
  });
});
