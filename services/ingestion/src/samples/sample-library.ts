// The first-run sample library (issue 18): what it holds, in words. Six short documents on the
// crafts the inventory side catalogues (two by each of three authors, so the graph links them) and
// six photos of handmade goods, one per inventory category. sample-files.ts draws them offline.

export interface SampleDocument {
  kind: 'document';
  file: string;
  format: 'pdf' | 'txt';
  title: string;
  author: string;
  year: number;
  paragraphs: string[];
}

export interface SamplePhoto {
  kind: 'photo';
  file: string;
  /** The drawing (see sample-files.ts) and the words on its label. */
  drawing: 'bowl' | 'necklace' | 'stool' | 'fan' | 'tote' | 'vase';
  label: string;
}

export type SampleEntry = SampleDocument | SamplePhoto;

export const SAMPLE_LIBRARY: readonly SampleEntry[] = [
  {
    kind: 'document',
    file: 'sample-venetian-glass-beads.pdf',
    format: 'pdf',
    title: 'Glass Trade Beads of the Venetian Lagoon',
    author: 'Elena Moretti',
    year: 2019,
    paragraphs: [
      'Murano glassmakers drew canes of coloured glass and cut them into beads that travelled along trade routes to West Africa, where they were valued as currency and as heirlooms.',
      'Chevron beads are built from six or seven layers of glass, then ground at both ends to reveal a star pattern; the number of layers and the grinding mark a bead from before 1900.',
      'Collectors date a strand by its wear, the colour of the core glass and the shape of the perforation. Beads strung on raffia in the Ghana markets are often older than the string suggests.',
    ],
  },
  {
    kind: 'document',
    file: 'sample-pricing-handmade-goods.txt',
    format: 'txt',
    title: 'Pricing Handmade Goods for a Market Stall',
    author: 'Elena Moretti',
    year: 2023,
    paragraphs: [
      'A fair price covers materials, the hours at the bench, a share of the stall fee and a margin for the items that never sell. Makers who count only materials undercharge by half.',
      'Keep an import cost and a retail price for every item: beads, bowls and tote bags bought in lots need the lot price divided fairly, including shipping and duty.',
      'Round retail prices to whole amounts that a customer can pay quickly in cash, and note which items sell at the first market of the season; they set the tone for the rest.',
    ],
  },
  {
    kind: 'document',
    file: 'sample-stoneware-bowls.pdf',
    format: 'pdf',
    title: 'Caring for Hand-Thrown Stoneware Bowls',
    author: 'Tomas Okonkwo',
    year: 2022,
    paragraphs: [
      'Stoneware is fired above 1200 degrees, which makes the clay body dense and the glaze hard; a well-fired bowl rings when tapped and does not absorb water through its foot.',
      'Crazing, the fine network of cracks in a glaze, appears when glaze and clay shrink at different rates. It is harmless on a decorative piece but a food bowl with crazing should be retired.',
      'Wash stoneware by hand in warm water, avoid sudden changes of temperature, and store bowls nested with a cloth between them so the unglazed feet do not scratch the glazed interiors.',
    ],
  },
  {
    kind: 'document',
    file: 'sample-three-legged-stools.pdf',
    format: 'pdf',
    title: 'Joinery for Three-Legged Stools',
    author: 'Tomas Okonkwo',
    year: 2020,
    paragraphs: [
      'A three-legged stool never rocks on an uneven floor, which is why milking stools and workshop stools have three legs. The legs are splayed at about twelve degrees for stability.',
      'Wedged through-tenons hold the legs in the seat: the tenon is sawn, driven through a tapered mortise and split with a hardwood wedge set across the grain of the seat.',
      'Teak and oak seats are carved to a shallow dish before the legs are fitted. A finish of linseed oil and wax keeps the wood from drying out in a heated room.',
    ],
  },
  {
    kind: 'document',
    file: 'sample-palm-leaf-fans.txt',
    format: 'txt',
    title: "Weaving Palm Leaf Fans: A Maker's Notes",
    author: 'Amara Diallo',
    year: 2021,
    paragraphs: [
      'Fresh palm leaves are split into strips of even width, boiled briefly and dried in the shade so that they stay supple and keep a pale straw colour.',
      'A plain twill weave makes a stiff fan blade; the handle is wrapped with dyed raffia and stitched so that the weave cannot unravel when the fan is used every day.',
      'Hand fans sell best before the hot season. Pair them with natural dye colours from the same dye pot as the tote bags for a stall that looks like one collection.',
    ],
  },
  {
    kind: 'document',
    file: 'sample-natural-dyes-totes.txt',
    format: 'txt',
    title: 'Natural Dyes for Cotton Tote Bags',
    author: 'Amara Diallo',
    year: 2024,
    paragraphs: [
      'Indigo gives blues from sky to navy depending on the number of dips; madder root gives reds and oranges; onion skins give a warm yellow that deepens with an iron mordant.',
      'Cotton must be scoured and mordanted with alum and tannin before dyeing, or the colour washes out in the first rinse. Weigh the fabric dry and keep notes for every batch.',
      'A tote bag dyed in indigo and printed with a carved block sells well beside woven fans and glass beads, because the colours of the natural dyes suit them all.',
    ],
  },
  { kind: 'photo', file: 'sample-red-stoneware-bowl.jpg', drawing: 'bowl', label: 'Stoneware bowl 18 cm' },
  {
    kind: 'photo',
    file: 'sample-glass-bead-necklace.png',
    drawing: 'necklace',
    label: 'Glass bead necklace',
  },
  { kind: 'photo', file: 'sample-teak-stool.jpg', drawing: 'stool', label: 'Teak stool 45 cm' },
  { kind: 'photo', file: 'sample-palm-hand-fan.png', drawing: 'fan', label: 'Palm leaf hand fan' },
  { kind: 'photo', file: 'sample-indigo-tote-bag.jpg', drawing: 'tote', label: 'Indigo cotton tote' },
  { kind: 'photo', file: 'sample-green-glass-vase.png', drawing: 'vase', label: 'Green glass vase' },
];
