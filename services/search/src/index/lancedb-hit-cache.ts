// Hits' display fields kept in memory by key, least recently used dropped first: kNN and BM25 ask the
// table for keys and scores only, and only the final page's rows not held here are read. Every write
// bumps an epoch, so rows read while a write ran (maybe older than it) are not kept.

export type DisplayRow = Record<string, unknown>;

/** Reads the display rows (with their `key`) of these keys that are live. */
export type DisplayRowReader = (ownerId: string, keys: string[]) => Promise<DisplayRow[]>;

export class HitRowCache {
  // A Map keeps insertion order: first = least recently used.
  private readonly rows = new Map<string, DisplayRow>();
  private writeEpoch = 0;
  private hits = 0;
  private misses = 0;

  private readonly capacity: number;

  /** @param capacity rows held (0 turns the cache off). */
  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Drops the rows of keys being written (or every row). */
  forget(keys: Iterable<string> | 'all'): void {
    this.writeEpoch += 1;
    if (keys === 'all') this.rows.clear();
    else for (const k of keys) this.rows.delete(k);
  }

  /**
   * The display rows of these keys, from memory or one read; a key whose entity is gone (deleted
   * since the candidates were found) is missing from the answer.
   */
  async rowsOf(ownerId: string, keys: string[], read: DisplayRowReader): Promise<Map<string, DisplayRow>> {
    const out = new Map<string, DisplayRow>();
    const missing: string[] = [];
    for (const k of keys) {
      const row = this.rows.get(k);
      if (row) {
        this.rows.delete(k); // most recently used goes last
        this.rows.set(k, row);
        out.set(k, row);
      } else missing.push(k);
    }
    this.hits += keys.length - missing.length;
    this.misses += missing.length;
    if (missing.length === 0) return out;
    const epoch = this.writeEpoch;
    const rows = await read(ownerId, missing);
    const keep = this.capacity > 0 && epoch === this.writeEpoch;
    for (const r of rows) {
      const k = r.key as string;
      out.set(k, r);
      if (keep) this.rows.set(k, r);
    }
    while (this.rows.size > this.capacity) this.rows.delete(this.rows.keys().next().value!);
    return out;
  }

  stats(): { rows: number; hits: number; misses: number } {
    return { rows: this.rows.size, hits: this.hits, misses: this.misses };
  }
}
