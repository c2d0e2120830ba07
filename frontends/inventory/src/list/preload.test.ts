import { describe, expect, it } from 'vitest';
import { preloadCount } from './preload.ts';

describe('gallery preloading (batches of 5, threshold 3)', () => {
  it('starts with one batch', () => {
    expect(preloadCount(0, 40, -1)).toBe(5);
    expect(preloadCount(0, 2, -1)).toBe(2);
    expect(preloadCount(0, 0, -1)).toBe(0);
  });

  it('loads the next batch once 3 or fewer loaded pictures remain ahead', () => {
    expect(preloadCount(5, 40, 0)).toBe(5); // 4 remain
    expect(preloadCount(5, 40, 1)).toBe(10); // 3 remain: the next batch
    expect(preloadCount(10, 40, 5)).toBe(10);
    expect(preloadCount(10, 40, 6)).toBe(15);
  });

  it('catches up in whole batches after a long scroll, never past the end', () => {
    expect(preloadCount(5, 40, 20)).toBe(25);
    expect(preloadCount(5, 12, 30)).toBe(12);
  });
});
