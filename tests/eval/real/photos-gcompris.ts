// Photos of single objects that Debian's gcompris-qt-data ships inside its Qt resource files (the
// categorization activity's tools, household things and fishes, the farm and world animals),
// each from Wikimedia Commons under the licence its folder's README gives. Added as a held-out part:
// their colours were written down from the photos before any rule was tuned after them.
import { inflateSync } from 'node:zlib';
import type { RealPhoto } from './photos.ts';

const GCOMPRIS = { kind: 'deb', package: 'gcompris-qt-data', version: '3.1-2', inside: 'rcc' } as const;
const RCC = '/usr/share/gcompris-qt/rcc';
export const RED = ['red', 'crimson', 'maroon', 'burgundy', 'terracotta'];
export const BROWN = ['brown', 'chocolate', 'tan'];
export const WHITE = ['white', 'ivory', 'cream', 'light grey'];

export const categorization = (folder: string, file: string, licence: string) => ({
  source: {
    ...GCOMPRIS,
    path: `${RCC}/categorization.rcc`,
    sha256: '984852ac8377a224',
    entry: `gcompris/src/activities/categorization/resource/images/${folder}/${file}`,
  },
  licence: `${licence} (gcompris-qt-data, ${folder}/README)`,
});
export const animals = (set: 'farm' | 'world', file: string, licence: string) => ({
  source: {
    ...GCOMPRIS,
    path: `${RCC}/explore_${set}_animals.rcc`,
    sha256: set === 'farm' ? '1d17b5eb6c72b3a2' : '85599f387a1f0da4',
    entry: `gcompris/src/activities/explore_${set}_animals/resource/animals/${file}`,
  },
  licence: `${licence} (gcompris-qt-data, explore_${set}_animals/resource/animals/README)`,
});

export const GCOMPRIS_PHOTOS: RealPhoto[] = [
  {
    id: 'baseball',
    ...categorization('others', 'baseball.webp', 'Public Domain'),
    object: 'a baseball, close up',
    colours: WHITE,
  },
  {
    id: 'bucket',
    ...categorization('others', 'bucket.webp', 'CC0-1.0'),
    object: 'a wooden milk pail',
    colours: BROWN,
  },
  {
    id: 'bulb',
    ...categorization('others', 'bulb.webp', 'CC0-1.0'),
    object: 'an LED bulb on a wooden table',
    colours: [...WHITE, 'silver'],
  },
  {
    id: 'chair',
    ...categorization('others', 'chair.webp', 'Public Domain'),
    object: 'a white wooden chair',
    colours: [...WHITE, 'silver'],
  },
  {
    id: 'teacup',
    ...categorization('others', 'cup.webp', 'Public Domain'),
    object: 'a cream teacup on its saucer',
    colours: ['cream', 'ivory', 'beige', 'white'],
  },
  {
    id: 'frying-pan',
    ...categorization('others', 'pan.webp', 'Public Domain'),
    object: 'a cast-iron frying pan on steel',
    colours: ['black', 'charcoal'],
  },
  {
    id: 'pencil',
    ...categorization('others', 'pencil.webp', 'Public Domain'),
    object: 'a yellow-orange pencil',
    colours: ['orange', 'amber', 'yellow'],
  },
  {
    id: 'plate',
    ...categorization('others', 'plate.webp', 'CC0-1.0'),
    object: 'a white plate on black',
    colours: WHITE,
  },
  {
    id: 'measuring-reel',
    ...categorization('tools', 'measuringTape2.webp', 'CC0-1.0'),
    object: 'a red measuring-tape reel',
    colours: RED,
  },
  {
    id: 'tape-measure',
    ...categorization('tools', 'measuringTape3.webp', 'CC0-1.0'),
    object: 'a rolled sky-blue tape measure',
    colours: ['sky blue', 'blue', 'turquoise'],
  },
  {
    id: 'scissors',
    ...categorization('tools', 'scissors1.webp', 'Public Domain'),
    object: 'scissors with orange handles',
    colours: ['orange', 'coral', 'amber'],
  },
  {
    id: 'spray-bottle',
    ...categorization('tools', 'spray.webp', 'CC0-1.0'),
    object: 'a red spray bottle',
    colours: RED,
  },
  {
    id: 'side-cutter',
    ...categorization('tools', 'cuttingTool.webp', 'Public Domain'),
    object: 'side cutters with dark blue handles',
    colours: ['navy', 'blue', 'indigo'],
  },
  {
    id: 'wrench',
    ...categorization('tools', 'wrench.webp', 'CC0-1.0'),
    object: 'a steel adjustable wrench',
    colours: ['silver', 'grey', 'light grey', 'white'],
  },
  {
    id: 'multimeter',
    ...categorization('tools', 'multimeter2.webp', 'Public Domain'),
    object: 'a blue multimeter',
    colours: ['blue', 'sky blue'],
  },
  {
    id: 'goldfish',
    ...categorization('fishes', 'fish25.webp', 'Public Domain'),
    object: 'a goldfish on black',
    colours: ['orange', 'amber', 'gold', 'yellow'],
  },
  {
    id: 'angelfish',
    ...categorization('fishes', 'fish1.webp', 'Public Domain'),
    object: 'a dark blue angelfish with white stripes',
    colours: ['navy', 'blue', 'indigo'],
  },
  {
    id: 'duck',
    ...animals('farm', 'duck.webp', 'CC0-1.0'),
    object: 'a white duck on dark water',
    colours: WHITE,
  },
  {
    id: 'sheep',
    ...animals('farm', 'sheep.webp', 'CC0-1.0'),
    object: 'a sheep on grass',
    colours: [...WHITE, 'beige'],
  },
  { id: 'owl', ...animals('farm', 'owl.webp', 'CC0-1.0'), object: 'a tawny owl on a branch', colours: BROWN },
  { id: 'bison', ...animals('world', 'bison.webp', 'CC0-1.0'), object: 'a bison grazing', colours: BROWN },
  {
    id: 'macaw',
    ...animals('world', 'scarlet_macaw.webp', 'CC0-1.0'),
    object: 'a scarlet macaw on a perch',
    colours: RED,
  },
  {
    id: 'polar-bear',
    ...animals('world', 'polar_bear.webp', 'Public Domain'),
    object: 'a polar bear on snow',
    colours: [...WHITE, 'beige'],
  },
  {
    id: 'moose',
    ...animals('world', 'moose.webp', 'Public Domain'),
    object: 'a moose lying in heather',
    colours: [...BROWN, 'charcoal', 'black'],
  },
];

/**
 * One file of a Qt resource file (.rcc): a header (`qres`, version, offsets of the tree, the data
 * and the names), a tree of 14-byte (version 1) or 22-byte nodes (name offset, flags, then a
 * directory's child count and first child, or a file's data offset), names as UTF-16 with a length,
 * data as a length and the bytes, zlib'd with a 4-byte size first when flag 1 is set.
 */
export function rccEntry(rcc: Buffer, entry: string): Buffer {
  if (rcc.toString('latin1', 0, 4) !== 'qres') throw new Error('not a Qt resource file');
  const [version, tree, data, names] = [4, 8, 12, 16].map((o) => rcc.readUInt32BE(o)) as [
    number,
    number,
    number,
    number,
  ];
  const node = version >= 2 ? 22 : 14;
  const nameAt = (off: number) => {
    const n = rcc.readUInt16BE(names + off);
    // Big-endian UTF-16: a copy is swapped, never the file's own bytes.
    return Buffer.from(rcc.subarray(names + off + 6, names + off + 6 + 2 * n))
      .swap16()
      .toString('utf16le');
  };
  let i = 0;
  for (const part of entry.split('/')) {
    const o = tree + i * node;
    if (!(rcc.readUInt16BE(o + 4) & 2)) throw new Error(`${entry}: not in the resource file`);
    const count = rcc.readUInt32BE(o + 6);
    const first = rcc.readUInt32BE(o + 10);
    let found = -1;
    for (let c = first; c < first + count && found < 0; c++)
      if (nameAt(rcc.readUInt32BE(tree + c * node)) === part) found = c;
    if (found < 0) throw new Error(`${entry}: not in the resource file`);
    i = found;
  }
  const o = tree + i * node;
  const flags = rcc.readUInt16BE(o + 4);
  if (flags & 2) throw new Error(`${entry}: a folder`);
  const at = data + rcc.readUInt32BE(o + 10);
  const bytes = rcc.subarray(at + 4, at + 4 + rcc.readUInt32BE(at));
  return flags & 1 ? inflateSync(bytes.subarray(4)) : Buffer.from(bytes);
}
