// Live rows per owner, for the embedded adapter's path choices (a flat scan or the ANN index; an
// in-memory index or the table). Counting is a LanceDB scan of the owner's rows: 2–3 s at a million
// items. It used to be forgotten on every write and counted again by every search that came next,
// all at once: under ingestion at 1M items that was a count per search, and under a burst dozens of
// concurrent scans whose buffers took the process from 3.5 GB past 20 GB RSS
// (docs/benchmarks/2026-11-27-search-1m-rerun.md). So:
// - one count per owner at a time: concurrent callers share it (single flight);
// - a write does not forget a known count, it moves it by what the write did (rows that became live
//   minus rows that stopped being live), so a count is made once per owner and process;
// - a count that was running while writes landed gets their moves too. A write racing the very start
//   of a count may be counted twice or not at all; the figure only chooses a path, so ±1 is harmless,
//   and deleteOwner (or `forget`) starts afresh.
export class OwnerRowCounts {
  private readonly known = new Map<string, number>();
  private readonly running = new Map<string, { done: Promise<number>; moved: number }>();
  private readonly epoch = new Map<string, number>();
  private readonly count: (ownerId: string) => Promise<number>;

  constructor(count: (ownerId: string) => Promise<number>) {
    this.count = count;
  }

  /** The owner's live rows: known, or counted once for all the callers that ask meanwhile. */
  get(ownerId: string): Promise<number> {
    const known = this.known.get(ownerId);
    if (known !== undefined) return Promise.resolve(known);
    const run = this.running.get(ownerId);
    if (run) return run.done;
    const epoch = this.epoch.get(ownerId) ?? 0;
    const entry = { done: Promise.resolve(0), moved: 0 };
    entry.done = this.count(ownerId).then(
      (n) => {
        if (this.running.get(ownerId) === entry) this.running.delete(ownerId);
        const total = Math.max(0, n + entry.moved);
        // forgotten meanwhile (the owner deleted): answer, but do not keep it
        if ((this.epoch.get(ownerId) ?? 0) === epoch) this.known.set(ownerId, total);
        return total;
      },
      (err: unknown) => {
        if (this.running.get(ownerId) === entry) this.running.delete(ownerId);
        throw err;
      },
    );
    this.running.set(ownerId, entry);
    return entry.done;
  }

  /** A write the table has taken moved the owner's live rows by `by` (+ new live, − deleted). */
  moved(ownerId: string, by: number): void {
    if (by === 0) return;
    const known = this.known.get(ownerId);
    if (known !== undefined) this.known.set(ownerId, Math.max(0, known + by));
    const run = this.running.get(ownerId);
    if (run) run.moved += by;
  }

  /** Start afresh for the owner (its rows were all removed): the next `get` counts. */
  forget(ownerId: string): void {
    this.known.delete(ownerId);
    this.running.delete(ownerId);
    this.epoch.set(ownerId, (this.epoch.get(ownerId) ?? 0) + 1);
  }
}
