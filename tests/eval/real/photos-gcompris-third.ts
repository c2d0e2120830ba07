// A third held-out part of the real photos: 13 more photos from Debian's gcompris-qt-data (the
// categorization activity's tools, fishes and household things, a world animal), chosen on
// 2026-11-28 from the 46 of those folders not yet in the set, by the same rule as the second part:
// one object (or several of one kind) with one main colour, and a licence in its folder's README
// (a screwdriver without one was left out). Their colours were written down from contact sheets
// before any rule ran on them, to report the white-reference rule of that day on photos it had not
// seen (docs/benchmarks/2026-11-26-ai-quality.md, fifth round).
import type { RealPhoto } from './photos.ts';
import { animals, BROWN, categorization, RED, WHITE } from './photos-gcompris.ts';

const SILVER = ['silver', 'grey', 'light grey', 'white'];

export const GCOMPRIS_THIRD: RealPhoto[] = [
  {
    id: 'sickle',
    ...categorization('tools', 'sickle.webp', 'Public Domain'),
    object: 'a steel sickle with a small wooden grip on a cork board',
    colours: ['grey', 'charcoal', 'silver', 'light grey'],
  },
  {
    id: 'red-claw-hammer',
    ...categorization('tools', 'hammer5.webp', 'Public Domain'),
    object: 'a claw hammer with a red rubber grip',
    colours: RED,
  },
  {
    id: 'wooden-hammer',
    ...categorization('tools', 'hammer1.webp', 'CC0-1.0'),
    object: 'a hammer with a long wooden handle and a small head, on blue',
    colours: [...BROWN, 'terracotta'],
  },
  {
    id: 'pink-fish',
    ...categorization('fishes', 'fish18.webp', 'Public Domain'),
    object: 'a pink boarfish on black',
    colours: ['pink', 'coral', 'rose'],
  },
  {
    id: 'silver-fish-on-black',
    ...categorization('fishes', 'fish17.webp', 'Public Domain'),
    object: 'a slender silvery fish on black',
    colours: SILVER,
  },
  {
    id: 'golden-fish',
    ...categorization('fishes', 'fish19.webp', 'Public Domain'),
    object: 'a golden-orange sea bream over weed',
    colours: ['orange', 'amber', 'gold', 'mustard', 'tan'],
  },
  {
    id: 'red-anthias',
    ...categorization('fishes', 'fish14.webp', 'Public Domain'),
    object: 'a red-pink anthias on a reef',
    colours: ['red', 'crimson', 'coral', 'rose', 'pink'],
  },
  {
    id: 'green-wrasse',
    ...categorization('fishes', 'fish15.webp', 'Public Domain'),
    object: 'a green wrasse in sea grass',
    colours: ['green', 'lime', 'olive'],
  },
  {
    id: 'sand-smelt',
    ...categorization('fishes', 'fish26.webp', 'Public Domain'),
    object: 'a silvery sand smelt over red weed',
    colours: SILVER,
  },
  {
    id: 'perch',
    ...categorization('fishes', 'fish4.webp', 'Public Domain'),
    object: 'two yellow perch with dark bars',
    colours: ['yellow', 'gold', 'mustard', 'olive', 'amber'],
  },
  {
    id: 'blackboard',
    ...categorization('others', 'blackslate.webp', 'CC0-1.0'),
    object: 'a blackboard in a thin wooden frame',
    colours: ['black', 'charcoal'],
  },
  {
    id: 'igloo',
    ...categorization('others', 'igloo.webp', 'CC0-1.0'),
    object: 'a snow igloo café under a blue sky',
    colours: [...WHITE, 'silver'],
  },
  {
    id: 'komodo-dragon',
    ...animals('world', 'dragon.webp', 'Public Domain'),
    object: 'a grey Komodo dragon on rock',
    colours: ['grey', 'charcoal', 'light grey', 'silver'],
  },
];
