// Real photos of objects that packages reachable here ship: the sample images of Debian's
// opencv-doc, python3-skimage, python3-sklearn, jigzo-data and gcompris-qt-data (three parts, held
// out in turn: photos-gcompris.ts, photos-gcompris-held-out.ts, photos-gcompris-third.ts) (fetched at test time like the real
// documents; nothing of theirs is kept here) and five photos npm packages of our own dependency tree ship as
// test fixtures.
// The colour is what a person names looking at the object in the photo (several names where
// people would use either: "red" or "crimson" for the same cup), never what the background is.
// Only photos with one object that has one main colour are here: the packages' other images are
// drawings, charts, several objects of different colours (fruit, sweets) or grey-scale.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { fetchPackagedFiles, type PackagedFile } from './fetch.ts';
import { GCOMPRIS_PHOTOS, rccEntry } from './photos-gcompris.ts';
import { GCOMPRIS_HELD_OUT } from './photos-gcompris-held-out.ts';
import { GCOMPRIS_THIRD } from './photos-gcompris-third.ts';

export interface RealPhoto {
  id: string;
  /**
   * Debian package (with version and path) or npm package (path inside it). `inside: 'jigzo'`:
   * the photo is inside the file (a jigsaw game's puzzle); `inside: 'rcc'`: it is `entry` of the
   * file (a Qt resource file).
   */
  source:
    | ({ kind: 'deb'; inside?: 'jigzo' | 'rcc'; entry?: string } & PackagedFile)
    | { kind: 'npm'; package: string; path: string };
  licence: string;
  object: string;
  colours: string[];
}

const RED = ['red', 'crimson', 'maroon', 'burgundy', 'terracotta'];
const BROWN = ['brown', 'chocolate', 'tan'];
const opencv = (file: string, sha256: string): RealPhoto['source'] => ({
  kind: 'deb',
  package: 'opencv-doc',
  version: '4.6.0+dfsg-12',
  path: `/usr/share/doc/opencv-doc/examples/${file}`,
  sha256,
});
const skimage = (file: string, sha256: string): RealPhoto['source'] => ({
  kind: 'deb',
  package: 'python3-skimage',
  version: '0.19.3-8',
  path: `/usr/lib/python3/dist-packages/skimage/data/${file}`,
  sha256,
});
const sklearn = (file: string, sha256: string): RealPhoto['source'] => ({
  kind: 'deb',
  package: 'python3-sklearn',
  version: '1.2.1+dfsg-1',
  path: `/usr/lib/python3/dist-packages/sklearn/datasets/images/${file}`,
  sha256,
});
const jigzo = (file: string, sha256: string): RealPhoto['source'] => ({
  kind: 'deb',
  package: 'jigzo-data',
  version: '0.6.1-7.1',
  path: `/usr/share/games/jigzo/puzzles/00_default/${file}`,
  sha256,
  inside: 'jigzo',
});
const OPENCV = 'Apache-2.0 AND BSD-3-Clause (opencv-doc)';
const SKLEARN = 'CC BY 2.0 (python3-sklearn; the photo by vultilion on Flickr, per its images/README.txt)';
const JIGZO = 'GPL-2+ (jigzo-data; the helicopter GPL-2, by Joana Clotet)';
const SKIMAGE = 'BSD-3-Clause (python3-skimage; its data images are public domain or CC0)';

export const REAL_PHOTOS: RealPhoto[] = [
  {
    id: 'apple',
    source: opencv('data/apple.jpg', 'e86879de3d9a807d'),
    licence: OPENCV,
    object: 'an apple on a cloth',
    colours: [...RED, 'orange'],
  },
  {
    id: 'butterfly',
    source: opencv('data/butterfly.jpg', '34a99716b78ded10'),
    licence: OPENCV,
    object: 'a black and white butterfly on a green leaf',
    colours: ['black', 'charcoal'],
  },
  {
    id: 'dog',
    source: opencv('data/chicky_512.png', '4d2cf040de084fd3'),
    licence: OPENCV,
    object: 'a small dog',
    colours: [...BROWN, 'charcoal', 'black'],
  },
  {
    id: 'squirrel',
    source: opencv('data/squirrel_cls.jpg', '20bb6e8ae96918a3'),
    licence: OPENCV,
    object: 'a squirrel on a branch among leaves',
    colours: BROWN,
  },
  {
    id: 'plant',
    source: opencv('alphamat/input_images/plant.jpg', '9928b44eee0d1d7a'),
    licence: OPENCV,
    object: 'a potted plant',
    colours: ['green', 'forest green', 'lime', 'olive'],
  },
  {
    id: 'coffee',
    source: skimage('coffee.png', 'cc02f8ca188b167c'),
    licence: SKIMAGE,
    object: 'a cup of coffee on its saucer on a wooden table',
    colours: RED,
  },
  {
    id: 'motorcycle',
    source: skimage('motorcycle_left.png', 'db18e9c415761740'),
    licence: SKIMAGE,
    object: 'a motorcycle in a workshop',
    colours: RED,
  },
  {
    id: 'rocket',
    source: skimage('rocket.jpg', 'c2dd0de7c538df8d'),
    licence: SKIMAGE,
    object: 'a rocket on its launch pad at dusk',
    colours: ['white', 'light grey', 'ivory', 'cream', 'silver'],
  },
  {
    id: 'cat',
    source: skimage('chelsea.png', '596aa1e7cb875eb7'),
    licence: SKIMAGE,
    object: 'a tabby cat',
    colours: [...BROWN, 'orange', 'amber'],
  },
  {
    id: 'astronaut',
    source: skimage('astronaut.png', '88431cd9653ccd53'),
    licence: SKIMAGE,
    object: 'an astronaut in an orange suit',
    colours: ['orange', 'coral', 'terracotta'],
  },
  {
    id: 'crate',
    source: { kind: 'npm', package: 'exif-parser', path: 'test/starfish.jpg' },
    licence: 'MIT (exif-parser test fixture)',
    object: 'a red crate of starfish on a net',
    colours: RED,
  },
  {
    id: 'spider',
    source: { kind: 'npm', package: 'gifwrap', path: 'test/fixtures/pelagrina.jpg' },
    licence: 'MIT (gifwrap test fixture)',
    object: 'a jumping spider on white',
    colours: [...BROWN, 'charcoal', 'black'],
  },
  {
    id: 'hairstreak',
    source: { kind: 'npm', package: 'gifwrap', path: 'test/fixtures/hairstreak.jpg' },
    licence: 'MIT (gifwrap test fixture)',
    object: 'a grey butterfly on a flower among grass',
    colours: ['grey', 'light grey', 'silver', 'white'],
  },
  // Added later, and never used to tune the colour rules (object-colors.ts): they are held out.
  {
    id: 'orange',
    source: opencv('data/orange.jpg', '152c20d2f380ac98'),
    licence: OPENCV,
    object: 'an orange on a table',
    colours: ['orange', 'amber'],
  },
  {
    id: 'car',
    source: opencv('data/licenseplate_motion.jpg', 'ea6fa9cea75df91b'),
    licence: OPENCV,
    object: 'the back of a silver car, blurred by motion',
    colours: ['silver', 'light grey', 'grey', 'white'],
  },
  {
    id: 'robin',
    source: opencv('hfs/data/000.jpg', 'e4fec7e2e67a8a42'),
    licence: OPENCV,
    object: 'a robin (brown back, orange breast) on a handlebar',
    colours: [...BROWN, 'orange'],
  },
  {
    id: 'monarch',
    source: opencv('dnn_superres/butterfly.png', '1c50e61afddd60eb'),
    licence: OPENCV,
    object: 'a close-up of a butterfly’s yellow-orange wing with black veins',
    colours: ['yellow', 'amber', 'gold', 'orange'],
  },
  {
    id: 'dahlia',
    source: sklearn('flower.jpg', 'a77f6ec41e353afd'),
    licence: SKLEARN,
    object: 'an orange dahlia among leaves',
    colours: ['orange', 'coral'],
  },
  {
    id: 'morpho',
    source: { kind: 'npm', package: 'gifwrap', path: 'test/fixtures/rnaples-frame-10.png' },
    licence: 'MIT (gifwrap test fixture)',
    object: 'a blue butterfly, cut out on a transparent background',
    colours: ['blue', 'teal', 'sky blue', 'turquoise', 'navy'],
  },
  {
    id: 'police-figures',
    source: { kind: 'npm', package: '@jimp/jpeg', path: 'test/images/cops.jpg' },
    licence: 'MIT (@jimp/jpeg test fixture)',
    object: 'two toy police figures in dark blue uniforms on a pavement',
    colours: ['navy', 'blue'],
  },
  // The photos of a children's jigsaw game (its penguin, CC BY-NC-SA, is left out), added last and
  // held out like the seven above.
  {
    id: 'bicycle',
    source: jigzo('bike-3x4.pzl', '429e6f6e377dae4e'),
    licence: JIGZO,
    object: 'a pink child’s bicycle with a basket, on a pavement',
    colours: ['pink', 'magenta', 'rose'],
  },
  {
    id: 'gorilla',
    source: jigzo('gorilla2-3x3.pzl', 'd8b8b15582970362'),
    licence: JIGZO,
    object: 'a gorilla on grass',
    colours: ['black', 'charcoal', 'grey'],
  },
  {
    id: 'helicopter',
    source: jigzo('heli-4x3.pzl', 'cd0d0c933c8f49e1'),
    licence: JIGZO,
    object: 'a blue helicopter in flight over a harbour',
    colours: ['blue', 'sky blue', 'navy', 'turquoise'],
  },
  {
    id: 'horse',
    source: jigzo('horse-4x3.pzl', '102cd13c2b8801d3'),
    licence: JIGZO,
    object: 'the head of a chestnut horse in a bridle',
    colours: [...BROWN, 'terracotta'],
  },
  {
    id: 'windmill',
    source: jigzo('windmill-4x4.pzl', 'db1c8bb8009d8ca7'),
    licence: JIGZO,
    object: 'a white windmill against the sky',
    colours: ['white', 'ivory', 'cream', 'light grey', 'beige'],
  },
  // 24 photos of gcompris-qt-data, added as the clean held-out part (photos-gcompris.ts).
  ...GCOMPRIS_PHOTOS,
  ...GCOMPRIS_HELD_OUT,
  ...GCOMPRIS_THIRD,
];

/** Which part of the set a photo is in: what tuned the colour rules, and what was held out. */
export function photoPart(id: string): string {
  if (['apple', 'dog', 'plant', 'motorcycle', 'cat', 'crate', 'hairstreak'].includes(id))
    return 'tune part (7 of the first 13)';
  if (['butterfly', 'squirrel', 'coffee', 'rocket', 'astronaut', 'spider'].includes(id))
    return 'other 6 of the first 13';
  if (['bicycle', 'gorilla', 'helicopter', 'horse', 'windmill'].includes(id)) return '5 jigzo';
  if (GCOMPRIS_PHOTOS.some((p) => p.id === id)) return '24 gcompris (held out)';
  if (GCOMPRIS_HELD_OUT.some((p) => p.id === id)) return '36 gcompris, second (held out)';
  if (GCOMPRIS_THIRD.some((p) => p.id === id)) return '13 gcompris, third (held out)';
  return '7 added';
}

/**
 * The photo inside a jigzo puzzle (.pzl): a text header with the photo's rectangle
 * (`image x y w h`) in the puzzle's texture, then files as `name\nlength\nbytes`: a thumbnail
 * (`-t.jpg`), the pieces' mask, and the texture JPEG with the whole photo at that rectangle.
 */
async function jigzoPhoto(bytes: Buffer): Promise<Buffer> {
  const text = bytes.toString('latin1');
  const rect = /\nimage (\d+) (\d+) (\d+) (\d+)/.exec(text.slice(0, 4096));
  const files = [...text.matchAll(/([\w-]+)\.jpg\n(\d+)\n(?=\xff\xd8)/g)].filter(
    (m) => !m[1]!.endsWith('-t'),
  );
  const texture = files.at(-1);
  if (!rect || !texture) throw new Error('not a jigzo puzzle');
  const start = texture.index + texture[0].length;
  const [left, top, width, height] = rect.slice(1).map(Number) as [number, number, number, number];
  return sharp(bytes.subarray(start, start + Number(texture[2])))
    .extract({ left, top, width, height })
    .png()
    .toBuffer();
}

const require = createRequire(import.meta.url);

/** The photos' bytes: Debian ones through the real set's cache, npm ones from node_modules. */
export async function fetchRealPhotos(): Promise<
  Array<{ photo: RealPhoto; bytes?: Buffer; problem?: string }>
> {
  const debs = REAL_PHOTOS.filter((p) => p.source.kind === 'deb');
  const fetched = fetchPackagedFiles(debs.map((p) => ({ ...(p.source as PackagedFile), photo: p })));
  return Promise.all(
    REAL_PHOTOS.map(async (photo) => {
      if (photo.source.kind === 'deb') {
        const f = fetched.find((x) => x.doc.photo === photo)!;
        if (f.problem !== undefined) return { photo, problem: f.problem };
        try {
          const { inside, entry = '' } = photo.source;
          const bytes =
            inside === 'jigzo'
              ? await jigzoPhoto(f.bytes)
              : inside === 'rcc'
                ? // Uploads are PNG or JPEG: the WebP, decoded without loss, goes in as a PNG.
                  await sharp(rccEntry(f.bytes, entry)).png().toBuffer()
                : f.bytes;
          return { photo, bytes };
        } catch (err) {
          return { photo, problem: `${photo.source.path}: ${(err as Error).message}` };
        }
      }
      try {
        const dir = path.dirname(require.resolve(`${photo.source.package}/package.json`));
        return { photo, bytes: readFileSync(path.join(dir, photo.source.path)) };
      } catch (err) {
        return { photo, problem: `${photo.source.package}/${photo.source.path}: ${(err as Error).message}` };
      }
    }),
  );
}
