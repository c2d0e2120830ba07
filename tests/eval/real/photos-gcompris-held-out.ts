// A second held-out part of the real photos: 36 more photos of single kinds of object from Debian's
// gcompris-qt-data (the categorization activity's tools, household things and fishes, the farm and
// world animals), each from Wikimedia Commons or publicdomainpictures.net under the licence its
// folder's README gives. Their colours were written down from the photos, as a person names the
// object's main colour, before any rule was run on them or tuned after the first 49; photos whose
// object has two main colours of about the same size (a black and white cow, a panda, a hammer with a
// wooden handle and a black head) were left out.
import type { RealPhoto } from './photos.ts';
import { animals, BROWN, categorization, RED, WHITE } from './photos-gcompris.ts';

/** Bare or plated steel, named as people name it. */
const STEEL = ['silver', 'grey', 'light grey', 'white'];
const GREY = ['grey', 'light grey', 'silver'];

export const GCOMPRIS_HELD_OUT: RealPhoto[] = [
  {
    id: 'black-scissors',
    ...categorization('tools', 'scissors2.webp', 'Public Domain'),
    object: 'tailor’s scissors with black handles on a wooden table',
    colours: ['black', 'charcoal'],
  },
  {
    id: 'steel-scissors',
    ...categorization('tools', 'scissors3.webp', 'CC0-1.0'),
    object: 'steel surgical scissors on a green cloth',
    colours: STEEL,
  },
  {
    id: 'orange-scissors',
    ...categorization('tools', 'scissors4.webp', 'Public Domain'),
    object: 'scissors with orange handles',
    colours: ['orange', 'coral', 'amber'],
  },
  {
    id: 'long-nose-pliers',
    ...categorization('tools', 'plier1.webp', 'Public Domain'),
    object: 'long-nose pliers with red handles',
    colours: RED,
  },
  {
    id: 'brown-pliers',
    ...categorization('tools', 'plier2.webp', 'Public Domain'),
    object: 'small pliers with reddish-brown handles',
    colours: [...BROWN, 'maroon', 'burgundy', 'terracotta'],
  },
  {
    id: 'lineman-pliers',
    ...categorization('tools', 'plier3.webp', 'Public Domain'),
    object: 'lineman’s pliers with red handles',
    colours: RED,
  },
  {
    id: 'old-pliers',
    ...categorization('tools', 'plier4.webp', 'CC0-1.0'),
    object: 'old bare-steel pliers on paper',
    colours: ['charcoal', 'grey', 'black', 'silver'],
  },
  {
    id: 'ball-hammer',
    ...categorization('tools', 'hammer2.webp', 'CC0-1.0'),
    object: 'a ball-peen hammer with a red wooden handle',
    colours: RED,
  },
  {
    id: 'yellow-screwdriver',
    ...categorization('tools', 'screwDriver1.webp', 'Public Domain'),
    object: 'a screwdriver with a yellow handle',
    colours: ['yellow', 'amber', 'gold', 'mustard'],
  },
  {
    id: 'black-screwdriver',
    ...categorization('tools', 'screwDriver2.webp', 'CC0-1.0'),
    object: 'a screwdriver with a black handle',
    colours: ['black', 'charcoal'],
  },
  {
    id: 'tweezers',
    ...categorization('tools', 'tweezer.webp', 'CC0-1.0'),
    object: 'two steel tweezers on denim',
    colours: STEEL,
  },
  {
    id: 'green-tape-measure',
    ...categorization('tools', 'measuringTape1.webp', 'Public Domain'),
    object: 'a tape measure in a lime-green case',
    colours: ['lime', 'green'],
  },
  {
    id: 'tailor-tape',
    ...categorization('tools', 'measuringTape4.webp', 'CC0-1.0'),
    object: 'a rolled tailor’s tape measure',
    colours: [...WHITE, 'beige'],
  },
  {
    id: 'chrome-tape-measure',
    ...categorization('tools', 'measuringTape5.webp', 'CC0-1.0'),
    object: 'a chrome tape measure on yellow',
    colours: STEEL,
  },
  {
    id: 'black-tape-measure',
    ...categorization('tools', 'measuringTape6.webp', 'Public Domain'),
    object: 'a tape measure in a black case',
    colours: ['black', 'charcoal'],
  },
  {
    id: 'red-multimeter',
    ...categorization('tools', 'multimeter1.webp', 'Public Domain'),
    object: 'a multimeter in a red case',
    colours: RED,
  },
  {
    id: 'grey-multimeter',
    ...categorization('tools', 'multimeter3.webp', 'Public Domain'),
    object: 'a dark grey multimeter',
    colours: ['black', 'charcoal', 'grey'],
  },
  {
    id: 'adjustable-wrench',
    ...categorization('tools', 'wrench1.webp', 'Public Domain'),
    object: 'a chrome adjustable wrench on cardboard',
    colours: STEEL,
  },
  {
    id: 'nail-clipper',
    ...categorization('tools', 'nailCutter.webp', 'Public Domain'),
    object: 'a chrome nail clipper',
    colours: STEEL,
  },
  {
    id: 'eraser',
    ...categorization('others', 'erasers.webp', 'CC0-1.0'),
    object: 'a pink and blue eraser',
    colours: ['pink', 'rose', 'coral'],
  },
  {
    id: 'spoons',
    ...categorization('others', 'spoons.webp', 'Public Domain'),
    object: 'five silver spoons on cloth',
    colours: STEEL,
  },
  {
    id: 'porcelain-cup',
    ...categorization('others', 'buffetset.webp', 'CC0-1.0'),
    object: 'a white porcelain cup and saucer',
    colours: WHITE,
  },
  {
    id: 'lab-scale',
    ...categorization('others', 'weighingMachine.webp', 'Public Domain'),
    object: 'a laboratory scale with a blue body',
    colours: ['blue', 'sky blue', 'navy'],
  },
  {
    id: 'cutlery',
    ...categorization('others', 'knife.webp', 'Public Domain'),
    object: 'a steel knife, fork and spoon on black',
    colours: STEEL,
  },
  {
    id: 'shepherd-dog',
    ...animals('farm', 'dog.webp', 'Public Domain'),
    object: 'a German shepherd in a field',
    colours: [...BROWN, 'black'],
  },
  {
    id: 'hens',
    ...animals('farm', 'chicken.webp', 'Public Domain'),
    object: 'four brown hens on grass',
    colours: [...BROWN, 'terracotta', 'orange'],
  },
  {
    id: 'giraffes',
    ...animals('world', 'giraffe.webp', 'CC0-1.0'),
    object: 'two giraffes among trees',
    colours: BROWN,
  },
  {
    id: 'koala',
    ...animals('world', 'koala.webp', 'Public Domain'),
    object: 'a koala in a tree',
    colours: GREY,
  },
  {
    id: 'hedgehog',
    ...animals('world', 'hedgehog.webp', 'Public Domain'),
    object: 'a hedgehog in grass',
    colours: BROWN,
  },
  {
    id: 'kangaroo',
    ...animals('world', 'kangaroo.webp', 'Public Domain'),
    object: 'a kangaroo and its joey on a path',
    colours: ['tan', 'beige', 'brown', 'khaki'],
  },
  {
    id: 'lemurs',
    ...animals('world', 'lemur.webp', 'CC0-1.0'),
    object: 'ring-tailed lemurs on a log',
    colours: GREY,
  },
  {
    id: 'discus',
    ...categorization('fishes', 'fish6.webp', 'CC0-1.0'),
    object: 'an orange-red discus fish',
    colours: ['orange', 'red', 'terracotta', 'coral', 'crimson'],
  },
  {
    id: 'salmon',
    ...categorization('fishes', 'fish8.webp', 'Public Domain'),
    object: 'a silvery salmon under water',
    colours: STEEL,
  },
  {
    id: 'clownfish',
    ...categorization('fishes', 'fish9.webp', 'Public Domain'),
    object: 'a clownfish in an anemone',
    colours: ['orange', 'amber'],
  },
  {
    id: 'anthias',
    ...categorization('fishes', 'fish10.webp', 'Public Domain'),
    object: 'orange anthias fish over coral',
    colours: ['orange', 'amber', 'coral'],
  },
  {
    id: 'grey-fish',
    ...categorization('fishes', 'fish12.webp', 'Public Domain'),
    object: 'a silvery fish over sand',
    colours: STEEL,
  },
];
