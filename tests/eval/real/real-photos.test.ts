// A floor on the real photos of objects (opencv-doc, python3-skimage and python3-sklearn sample
// images, npm test fixtures; tests/eval/real/photos.ts): the object's main colour named as a person
// names it. Of the 25, the ring-only mask with ΔE76 names named 15; with CIEDE2000 names 17; with
// the smooth-path backdrop rule too, 18; not applying it to a box cut by the frame, 19. The full
// figures and misses are in `make bench`.
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateRealPhotos, type RealPhotoFigures } from './run-photos.ts';

// Most photos come from Debian's archive through apt-get: machines without it cannot run this.
const hasApt = spawnSync('apt-get', ['--version']).status === 0;

describe.skipIf(!hasApt)('real photos of objects', () => {
  let figures: RealPhotoFigures;
  beforeAll(async () => {
    figures = await evaluateRealPhotos();
  }, 600_000);

  it('fetches every photo', () => {
    expect(figures.unavailable).toEqual([]);
    expect(figures.photos).toBe(49);
  });

  it('names the object’s main colour, not its backdrop’s, on at least 75% of them', () => {
    expect(figures.colour.accuracy, JSON.stringify(figures.colour.misses)).toBeGreaterThanOrEqual(0.75);
  });
});
