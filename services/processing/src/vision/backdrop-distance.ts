// How far each pixel of a small copy of a photo is from the photo's edge, walking the smoothest
// path: the sum of colour steps (ΔE76, less a noise allowance) between neighbouring pixels. A
// backdrop that fades (a shadow on a white sweep, a lit wall, the sky) stays near the edge however
// far its colour drifts; an object stands behind its own outline (geodesic saliency, Wei et al.,
// "Geodesic Saliency Using Background Priors", ECCV 2012).
import { deltaE } from './color-names.ts';

/** Colour steps up to this ΔE76 are sensor noise and JPEG, not an outline. */
const NOISE = 3;
/** Raster passes until the distances settle: a path that winds back and forth needs more. */
const MAX_PASSES = 100;

/** Distances for a side×side image given as Lab pixels, row by row. */
export function backdropDistance(lab: ReadonlyArray<[number, number, number]>, side: number): Float64Array {
  const n = side * side;
  const dist = new Float64Array(n).fill(Infinity);
  for (let i = 0; i < side; i++) {
    dist[i] = 0;
    dist[n - side + i] = 0;
    dist[i * side] = 0;
    dist[i * side + side - 1] = 0;
  }
  // The step to the right neighbour and to the one below, each computed once.
  const right = new Float64Array(n);
  const down = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (i % side < side - 1) right[i] = Math.max(0, deltaE(lab[i]!, lab[i + 1]!) - NOISE);
    if (i < n - side) down[i] = Math.max(0, deltaE(lab[i]!, lab[i + side]!) - NOISE);
  }
  // Forward and backward raster scans (a geodesic distance transform) repeated until nothing
  // shortens: exact for 4-connected paths without a priority queue.
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let changed = false;
    const relax = (i: number, j: number, step: number) => {
      const d = dist[j]! + step;
      if (d < dist[i]!) {
        dist[i] = d;
        changed = true;
      }
    };
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const i = y * side + x;
        if (x > 0) relax(i, i - 1, right[i - 1]!);
        if (y > 0) relax(i, i - side, down[i - side]!);
      }
    }
    for (let y = side - 1; y >= 0; y--) {
      for (let x = side - 1; x >= 0; x--) {
        const i = y * side + x;
        if (x < side - 1) relax(i, i + 1, right[i]!);
        if (y < side - 1) relax(i, i + side, down[i]!);
      }
    }
    if (!changed) break;
  }
  return dist;
}
