// The owner row counts: one count per owner however many searches ask at once, moved by writes
// instead of counted again, and started afresh when the owner is forgotten.
import { describe, expect, it } from 'vitest';
import { OwnerRowCounts } from './owner-row-counts.ts';

function slowCount(rows: Map<string, number>) {
  const calls: string[] = [];
  const pending: Array<() => void> = [];
  const count = (ownerId: string) => {
    calls.push(ownerId);
    // the table is read when the count starts (LanceDB counts one version)
    const n = rows.get(ownerId) ?? 0;
    return new Promise<number>((resolve) => pending.push(() => resolve(n)));
  };
  return { count, calls, finish: () => pending.splice(0).forEach((f) => f()) };
}

describe('owner row counts', () => {
  it('counts once for all the searches that ask at the same time', async () => {
    const table = slowCount(new Map([['alice', 990_000]]));
    const counts = new OwnerRowCounts(table.count);
    const asked = Array.from({ length: 64 }, () => counts.get('alice'));
    table.finish();
    expect(await Promise.all(asked)).toEqual(Array(64).fill(990_000));
    expect(table.calls).toEqual(['alice']);
    // and later searches are answered from what is known
    expect(await counts.get('alice')).toBe(990_000);
    expect(table.calls).toHaveLength(1);
  });

  it('moves a known count by what writes did instead of counting again', async () => {
    const table = slowCount(new Map([['alice', 10]]));
    const counts = new OwnerRowCounts(table.count);
    const first = counts.get('alice');
    table.finish();
    expect(await first).toBe(10);
    counts.moved('alice', +3); // three new live rows
    counts.moved('alice', -1); // one deleted
    counts.moved('alice', 0); // an update of a live row
    expect(await counts.get('alice')).toBe(12);
    expect(table.calls).toHaveLength(1);
  });

  it('gives a count that was running while writes landed their moves too', async () => {
    const table = slowCount(new Map([['alice', 100]]));
    const counts = new OwnerRowCounts(table.count);
    const running = counts.get('alice');
    counts.moved('alice', +5);
    table.finish();
    expect(await running).toBe(105);
    expect(await counts.get('alice')).toBe(105);
  });

  it('starts afresh for a forgotten owner, and keeps owners apart', async () => {
    const rows = new Map([
      ['alice', 7],
      ['bob', 3],
    ]);
    const table = slowCount(rows);
    const counts = new OwnerRowCounts(table.count);
    const before = counts.get('alice');
    const bob = counts.get('bob');
    counts.forget('alice'); // the owner was deleted while the count ran
    table.finish();
    expect(await before).toBe(7); // answered, but not kept
    expect(await bob).toBe(3);
    rows.set('alice', 0);
    const after = counts.get('alice');
    table.finish();
    expect(await after).toBe(0);
    expect(table.calls).toEqual(['alice', 'bob', 'alice']);
  });

  it('lets the next search count again after a count failed', async () => {
    let fail = true;
    const counts = new OwnerRowCounts(async () => {
      if (fail) throw new Error('the table is not answering');
      return 4;
    });
    await expect(counts.get('alice')).rejects.toThrow('not answering');
    fail = false;
    expect(await counts.get('alice')).toBe(4);
  });
});
