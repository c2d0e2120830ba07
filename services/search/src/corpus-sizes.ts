// Each owner's entity count, which scales the BM25 evidence of a match percentage (ranking.ts). A
// search must never wait long for it, nor ask for it many times at once: it used to be read per
// search through the index's stats, a scan of the owner's rows that reads their text (seconds at a
// million items). The first burst after a start asked once per search until one answered; at 1M
// items, with a snapshot save running, those scans held the searches for ~14 s and took the process
// past 20 GB RSS (docs/benchmarks/2026-11-27-burst-during-save.md). So:
// - the count comes from the index's cheap per-owner count (SearchIndex.entityCount);
// - one read per owner at a time: callers that come meanwhile share it (single flight);
// - a known figure is answered at once, and refreshed in the background once it is a minute old
//   (a library's size moves slowly and the feature is logarithmic in it);
// - a failed read answers the last known figure (or a default) and is tried again next time.
export interface CorpusSizesOptions {
  /** Milliseconds a figure is used before a background refresh (default 60 s). */
  refreshAfterMs?: number;
  /** Owners remembered (least recently refreshed forgotten first; default 10,000). */
  maxOwners?: number;
  /** The figure before any read succeeded. */
  fallback?: number;
  onError?: (err: unknown) => void;
}

export class CorpusSizes {
  private readonly known = new Map<string, { n: number; at: number }>();
  private readonly reading = new Map<string, Promise<number>>();
  private readonly count: (ownerId: string) => Promise<number>;
  private readonly refreshAfterMs: number;
  private readonly maxOwners: number;
  private readonly fallback: number;
  private readonly onError: ((err: unknown) => void) | undefined;

  constructor(count: (ownerId: string) => Promise<number>, options: CorpusSizesOptions = {}) {
    this.count = count;
    this.refreshAfterMs = options.refreshAfterMs ?? 60_000;
    this.maxOwners = options.maxOwners ?? 10_000;
    this.fallback = options.fallback ?? 1_000;
    this.onError = options.onError;
  }

  /** The owner's size: known at once (refreshed behind when old), or read once for all who ask. */
  get(ownerId: string): Promise<number> {
    const known = this.known.get(ownerId);
    if (known) {
      if (Date.now() - known.at >= this.refreshAfterMs) void this.read(ownerId);
      return Promise.resolve(known.n);
    }
    return this.read(ownerId);
  }

  /** Reads in flight (tests). */
  get inFlight(): number {
    return this.reading.size;
  }

  private read(ownerId: string): Promise<number> {
    const running = this.reading.get(ownerId);
    if (running) return running;
    let counting: Promise<number>;
    try {
      counting = this.count(ownerId);
    } catch (err) {
      // a count that throws at once (e.g. the index not open yet) fails like one that rejects
      counting = Promise.reject(err as Error);
    }
    const done = counting.then(
      (n) => {
        this.known.delete(ownerId);
        this.known.set(ownerId, { n, at: Date.now() });
        if (this.known.size > this.maxOwners) this.known.delete(this.known.keys().next().value!);
        return n;
      },
      (err: unknown) => {
        this.onError?.(err);
        return this.known.get(ownerId)?.n ?? this.fallback;
      },
    );
    const settled = done.finally(() => this.reading.delete(ownerId));
    this.reading.set(ownerId, settled);
    return settled;
  }
}
