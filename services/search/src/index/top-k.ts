// The k best-scored slots of a query in a min-heap (worst at the root), so a common word's tens of
// thousands of matches cost no allocation each: only a better match than the worst kept one enters.

/**
 * The k best of the first `hits` slots in hitSlots by scores[slot] (ties: keyOrder ascending), each
 * slot's score zeroed as it is read (the scratch array is reused by the next query); slots that
 * `keep` refuses are skipped. Unordered.
 */
export function topSlots(
  hitSlots: Int32Array,
  hits: number,
  scores: Float64Array,
  k: number,
  keep: (slot: number) => boolean,
  keyOrder: (a: number, b: number) => number,
): { slot: number; score: number }[] {
  const better = (a: number, sa: number, b: number, sb: number) =>
    sa > sb || (sa === sb && keyOrder(a, b) < 0);
  const heap: number[] = [];
  const heapScore: number[] = [];
  const swap = (i: number, j: number) => {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
    [heapScore[i], heapScore[j]] = [heapScore[j]!, heapScore[i]!];
  };
  for (let h = 0; h < hits; h++) {
    const slot = hitSlots[h]!;
    const score = scores[slot]!;
    scores[slot] = 0;
    if (!keep(slot)) continue;
    if (heap.length < k) {
      heap.push(slot);
      heapScore.push(score);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!better(heap[parent]!, heapScore[parent]!, heap[i]!, heapScore[i]!)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (better(slot, score, heap[0]!, heapScore[0]!)) {
      heap[0] = slot;
      heapScore[0] = score;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let worst = i;
        if (l < heap.length && better(heap[worst]!, heapScore[worst]!, heap[l]!, heapScore[l]!)) worst = l;
        if (r < heap.length && better(heap[worst]!, heapScore[worst]!, heap[r]!, heapScore[r]!)) worst = r;
        if (worst === i) break;
        swap(i, worst);
        i = worst;
      }
    }
  }
  return heap.map((slot, i) => ({ slot, score: heapScore[i]! }));
}

/**
 * A bounded min-heap of the k best slots offered so far (ties: keyOrder ascending), for a query that
 * scores documents one at a time: `threshold` is the score a new slot must reach to have a chance
 * (-Infinity until k are held; a slot scoring exactly it still enters when its key orders first).
 */
export class TopK {
  threshold = -Infinity;
  private size = 0;
  private readonly slots: Int32Array;
  private readonly scores: Float64Array;
  private readonly k: number;
  private readonly keyOrder: (a: number, b: number) => number;

  constructor(k: number, keyOrder: (a: number, b: number) => number) {
    this.k = k;
    this.keyOrder = keyOrder;
    this.slots = new Int32Array(k);
    this.scores = new Float64Array(k);
  }

  offer(slot: number, score: number): void {
    const slots = this.slots;
    const scores = this.scores;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.better(slots[parent]!, scores[parent]!, slot, score)) break;
        slots[i] = slots[parent]!;
        scores[i] = scores[parent]!;
        i = parent;
      }
      slots[i] = slot;
      scores[i] = score;
    } else {
      if (!this.better(slot, score, slots[0]!, scores[0]!)) return;
      const n = this.size;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const worse = r < n && this.better(slots[l]!, scores[l]!, slots[r]!, scores[r]!) ? r : l;
        if (!this.better(slot, score, slots[worse]!, scores[worse]!)) break;
        slots[i] = slots[worse]!;
        scores[i] = scores[worse]!;
        i = worse;
      }
      slots[i] = slot;
      scores[i] = score;
    }
    if (this.size === this.k) this.threshold = scores[0]!;
  }

  /** What is held, unordered. */
  entries(): { slot: number; score: number }[] {
    return Array.from({ length: this.size }, (_, i) => ({ slot: this.slots[i]!, score: this.scores[i]! }));
  }

  private better(a: number, sa: number, b: number, sb: number): boolean {
    return sa > sb || (sa === sb && this.keyOrder(a, b) < 0);
  }
}
