// The single writer on its own: coalescing, per-call outcomes, duplicates in one call, barriers in
// queue order, a failed batch and the after-batch hook, with an in-memory batch writer.
import { describe, expect, it } from 'vitest';
import type { UpsertOutcome } from './search-index.port.ts';
import { WriteQueue } from './lancedb-write-queue.ts';
import type { VersionedRow } from './lancedb-write-queue.ts';

function row(key: string, version = 1): VersionedRow {
  return { key, version: BigInt(version) };
}

/** A batch writer that records its batches and, while `hold` is set, waits for `release()`. */
function recorder() {
  const batches: string[][][] = [];
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  return {
    batches,
    hold() {
      gate = new Promise<void>((r) => (open = r));
    },
    release() {
      gate = undefined;
      open?.();
    },
    async applyBatch(groups: VersionedRow[][]): Promise<UpsertOutcome[]> {
      batches.push(groups.map((g) => g.map((r) => `${r.key}@${r.version}`)));
      await gate;
      return groups.map((g) => ({ applied: g.length, stale: 0 }));
    },
  };
}

describe('WriteQueue', () => {
  it('coalesces writes queued while a batch runs into one batch, answering each caller for its rows', async () => {
    const w = recorder();
    const q = new WriteQueue({ maxBatchRows: 10, maxQueuedRows: 100, applyBatch: (g) => w.applyBatch(g) });
    w.hold();
    const first = q.write([row('a'), row('b')]);
    const second = q.write([row('c')]);
    const third = q.write([row('d'), row('e'), row('f')]);
    w.release();
    expect(await Promise.all([first, second, third])).toEqual([
      { applied: 2, stale: 0 },
      { applied: 1, stale: 0 },
      { applied: 3, stale: 0 },
    ]);
    expect(w.batches).toEqual([[['a@1', 'b@1']], [['c@1'], ['d@1', 'e@1', 'f@1']]]);
  });

  it('splits a call larger than a batch and never coalesces past maxBatchRows', async () => {
    const w = recorder();
    const q = new WriteQueue({ maxBatchRows: 2, maxQueuedRows: 100, applyBatch: (g) => w.applyBatch(g) });
    expect(await q.write([row('a'), row('b'), row('c'), row('d'), row('e')])).toEqual({
      applied: 5,
      stale: 0,
    });
    expect(w.batches.flat().map((g) => g.length)).toEqual([2, 2, 1]);
    for (const b of w.batches) expect(b.flat().length).toBeLessThanOrEqual(2);
  });

  it('passes on only the highest version of an entity written twice in one call; the rest are stale', async () => {
    const w = recorder();
    const q = new WriteQueue({ maxBatchRows: 10, maxQueuedRows: 100, applyBatch: (g) => w.applyBatch(g) });
    expect(await q.write([row('a', 1), row('a', 3), row('b', 1), row('a', 2)])).toEqual({
      applied: 2,
      stale: 2,
    });
    expect(w.batches).toEqual([[['a@3', 'b@1']]]);
  });

  it('runs a barrier after the writes queued before it and before those queued after it', async () => {
    const w = recorder();
    const log: string[] = [];
    const q = new WriteQueue({
      maxBatchRows: 10,
      maxQueuedRows: 100,
      applyBatch: async (g) => {
        log.push(
          `write ${g
            .flat()
            .map((r) => r.key)
            .join('')}`,
        );
        return w.applyBatch(g);
      },
    });
    w.hold();
    const writes = [q.write([row('a')]), q.write([row('b')])];
    const barrier = q.barrier(async () => {
      log.push('barrier');
    });
    writes.push(q.write([row('c')]));
    w.release();
    await Promise.all([...writes, barrier]);
    expect(log).toEqual(['write a', 'write b', 'barrier', 'write c']);
  });

  it('rejects every caller of a failed batch, runs the hook after each batch and keeps going', async () => {
    let calls = 0;
    let hooks = 0;
    const q = new WriteQueue({
      maxBatchRows: 10,
      maxQueuedRows: 100,
      applyBatch: async (g) => {
        calls += 1;
        if (calls === 1) throw new Error('disk full');
        return g.map((rows) => ({ applied: rows.length, stale: 0 }));
      },
      afterBatch: () => {
        hooks += 1;
      },
    });
    const failed = q.write([row('a')]);
    await expect(failed).rejects.toThrow(/writing to the search index.*disk full/s);
    expect(await q.write([row('b')])).toEqual({ applied: 1, stale: 0 });
    await q.idle();
    expect(hooks).toBe(2);
  });

  it('makes a caller wait while its rows would overfill the queue; smaller writes go ahead', async () => {
    const w = recorder();
    const q = new WriteQueue({ maxBatchRows: 3, maxQueuedRows: 3, applyBatch: (g) => w.applyBatch(g) });
    w.hold();
    const first = q.write([row('a'), row('b')]); // running: 2 rows held until its batch is done
    const second = q.write([row('c'), row('d')]); // 2 + 2 > 3: waits for room
    const third = q.write([row('e')]); // 2 + 1 fits: queued now
    w.release();
    expect(await Promise.all([first, second, third])).toEqual([
      { applied: 2, stale: 0 },
      { applied: 2, stale: 0 },
      { applied: 1, stale: 0 },
    ]);
    // Queued at once, c-d and e would have coalesced into one batch of 3.
    expect(w.batches).toEqual([[['a@1', 'b@1']], [['e@1']], [['c@1', 'd@1']]]);
  });
});
