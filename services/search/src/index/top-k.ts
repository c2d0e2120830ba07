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
