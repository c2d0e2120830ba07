// The image preloading (docs/product.md#states, #limits): pictures load in batches of 5, the next batch when
// only 3 loaded ones remain after of what the person has scrolled to. Pure, so the rule is tested on its own.
export const PRELOAD_BATCH = 5;
export const PRELOAD_THRESHOLD = 3;

/**
 * How many pictures should be loading given how many are (`current`), how many exist (`total`) and
 * the furthest card seen (`seen`, -1 for none).
 */
export function preloadCount(current: number, total: number, seen: number): number {
  let next = Math.min(current, total);
  if (next === 0 && total > 0) next = Math.min(PRELOAD_BATCH, total);
  // remaining = loaded pictures after the furthest one seen
  while (next < total && next - 1 - seen <= PRELOAD_THRESHOLD) next = Math.min(total, next + PRELOAD_BATCH);
  return next;
}
