// Generated search corpus for the benches (index, HTTP and product benches): documents and inventory
// items with realistic text, a pure function of (seed, index), so any prefix of a run is the same
// items. Their vectors (corpus-vectors.ts, re-exported here) come from the offline embedder.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexedEntity } from '@kaboodle/search';

export const BENCH_CACHE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../.cache/bench',
);

/** Deterministic PRNG (mulberry32) so the corpus is identical on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIELDS = {
  'Climate Science': [
    'ocean warming',
    'glacier retreat',
    'carbon capture',
    'drought forecasting',
    'sea level rise',
  ],
  Economics: [
    'inflation expectations',
    'labour markets',
    'trade tariffs',
    'central bank policy',
    'housing prices',
  ],
  Medicine: [
    'vaccine efficacy',
    'antibiotic resistance',
    'sleep apnea',
    'cardiac rehabilitation',
    'gut microbiome',
  ],
  'Computer Science': [
    'graph databases',
    'compiler optimisation',
    'vector search',
    'distributed consensus',
    'type inference',
  ],
  History: [
    'medieval trade routes',
    'the printing press',
    'colonial archives',
    'industrial revolution',
    'ancient coinage',
  ],
  Law: [
    'contract disputes',
    'data protection',
    'tenancy rights',
    'patent litigation',
    'employment tribunals',
  ],
  Education: [
    'early literacy',
    'remote classrooms',
    'exam anxiety',
    'teacher training',
    'bilingual schooling',
  ],
  Ecology: ['pollinator decline', 'urban wildlife', 'wetland restoration', 'invasive species', 'soil fungi'],
} as const;
const CATEGORIES = [
  'Research Paper',
  'Report',
  'Article',
  'Thesis',
  'Book Chapter',
  'Policy Brief',
  'Letter',
];
const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Marie',
  'Nikola',
  'Rosalind',
  'Chidi',
  'Mei',
  'Sofia',
  'Arjun',
  'Lena',
  'Tomas',
];
const LAST = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Haddad',
  'Novak',
  'García',
  'Kowalski',
  'Osei',
  'Brennan',
];
const STUDY = [
  'A longitudinal study of',
  'Rethinking',
  'New evidence on',
  'A field guide to',
  'Measuring',
  'The hidden cost of',
  'Lessons from',
  'Towards a theory of',
];
const PLACES = [
  'coastal towns',
  'northern Europe',
  'West Africa',
  'rural India',
  'the Andes',
  'small businesses',
  'public hospitals',
  'city schools',
];
const VERBS = ['shows', 'suggests', 'argues', 'finds', 'documents', 'questions', 'estimates', 'compares'];
const LINKS = ['because of', 'despite', 'alongside', 'in contrast to', 'as a result of', 'together with'];
const OBJECTS = [
  'armchair',
  'table lamp',
  'tote bag',
  'wristwatch',
  'ceramic bowl',
  'bookshelf',
  'rug',
  'kettle',
  'guitar',
  'bicycle',
  'camera',
  'vase',
  'desk',
  'jacket',
  'teapot',
  'mirror',
  'radio',
  'stool',
  'necklace',
  'backpack',
];
const COLOURS = [
  'crimson',
  'navy',
  'olive',
  'mustard',
  'ivory',
  'charcoal',
  'teal',
  'burgundy',
  'sand',
  'coral',
];
const MATERIALS = [
  'oak',
  'walnut',
  'leather',
  'linen',
  'brass',
  'stoneware',
  'wool',
  'bamboo',
  'steel',
  'glass',
];
const STYLES = [
  'mid-century',
  'vintage',
  'handmade',
  'Scandinavian',
  'industrial',
  'art deco',
  'rustic',
  'minimalist',
];
const ORIGINS = [
  'a flea market in Lyon',
  'an estate sale',
  'a workshop in Kyoto',
  'a Marrakech souk',
  'an online auction',
  "a grandmother's attic",
];

export interface GeneratedItem {
  /** Position in the corpus (the same item for the same seed and index, always). */
  index: number;
  entity: Omit<IndexedEntity, 'vector'>;
  /**
   * The text that was embedded: the title (documents) or name (items). USE-lite costs ~10 ms for 40
   * characters and ~30 ms for 140 here, so titles keep 100k items near 15 minutes; the index bench
   * measures the index, not the embedding quality (the eval bench does that).
   */
  embedText: string;
}

/** 99% of items belong to one big owner, 1% to 20 small owners (the per-owner prefilter's two cases). */
export function ownerOf(index: number): string {
  return index % 100 === 99 ? `bench-small-${Math.floor(index / 100) % 20}` : 'bench-big';
}

export function generateItem(seed: number, index: number): GeneratedItem {
  const r = prng(seed * 1_000_003 + index);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const isDoc = index % 3 !== 2; // two documents for every inventory item
  const id = `bench-${seed}-${index}`;
  const ownerId = ownerOf(index);
  const createdAt = new Date(Date.UTC(2020, 0, 1) + Math.floor(r() * 5 * 365) * 86_400_000);
  if (isDoc) {
    const field = pick(Object.keys(FIELDS)) as keyof typeof FIELDS;
    const topic = pick(FIELDS[field]);
    const other = pick(FIELDS[field]);
    const place = pick(PLACES);
    const author = `${pick(FIRST)} ${pick(LAST)}`;
    const title = `${pick(STUDY)} ${topic} in ${place}`;
    const sentence = () =>
      `${pick(['This paper', 'The survey', 'Our analysis', 'The dataset', 'The author'])} ${pick(VERBS)} that ${pick(FIELDS[field])} ${pick(['rose', 'fell', 'changed', 'stayed flat', 'varied'])} ${pick(LINKS)} ${pick(FIELDS[field])} in ${pick(PLACES)}.`;
    const summary = `${sentence()} ${sentence()}`;
    const content = Array.from({ length: 6 + Math.floor(r() * 10) }, sentence).join(' ');
    const hashtags = [
      topic.replaceAll(' ', '-'),
      other.replaceAll(' ', '-'),
      field.toLowerCase().replaceAll(' ', '-'),
    ];
    return {
      index,
      embedText: title,
      entity: {
        entityType: 'document',
        id,
        ownerId,
        version: 1,
        title,
        description: summary,
        content,
        category: pick(CATEGORIES),
        hashtags: [...new Set(hashtags)],
        keywords: [author, field, `${2000 + Math.floor(r() * 26)}`],
        url: `/api/documents/${id}/file`,
        imageUrl: '',
        createdAt,
        updatedAt: createdAt,
        passages: [],
      },
    };
  }
  const object = pick(OBJECTS);
  const colour = pick(COLOURS);
  const material = pick(MATERIALS);
  const style = pick(STYLES);
  const name = `${style} ${colour} ${material} ${object}`;
  const description = `A ${style} ${object} made of ${material}, ${colour} with ${pick(['brass', 'wooden', 'black', 'white', 'gold'])} details; bought from ${pick(ORIGINS)}. ${pick(['Light wear on the edges.', 'In excellent condition.', 'Needs a small repair.', 'Original box included.'])}`;
  return {
    index,
    embedText: name,
    entity: {
      entityType: 'inventory_item',
      id,
      ownerId,
      version: 1,
      title: name,
      description,
      content: '',
      category: pick(['Furniture', 'Lighting', 'Accessories', 'Kitchen', 'Music', 'Clothing', 'Decor']),
      hashtags: [object.replaceAll(' ', '-'), colour, material],
      keywords: [material, colour, style],
      url: '',
      imageUrl: `/api/inventory/${id}/image`,
      createdAt,
      updatedAt: createdAt,
      passages: [],
    },
  };
}

/**
 * Every text generateItem can embed, in a fixed order: document titles (study × topic × place) then
 * item names (style × colour × material × object), 18,560 in all whatever the corpus size, so the
 * vector cache embeds each once and a million items cost no more embedding than a thousand.
 */
export function embedTextUniverse(): string[] {
  const out: string[] = [];
  for (const study of STUDY)
    for (const topic of Object.values(FIELDS).flat())
      for (const place of PLACES) out.push(`${study} ${topic} in ${place}`);
  for (const style of STYLES)
    for (const colour of COLOURS)
      for (const material of MATERIALS)
        for (const object of OBJECTS) out.push(`${style} ${colour} ${material} ${object}`);
  return out;
}

/**
 * generateItem(seed, index).embedText without building the rest of the item: the same draws of the
 * PRNG up to the title or name (about 20x faster, for walking a million items' vectors).
 */
export function embedTextOf(seed: number, index: number): string {
  const r = prng(seed * 1_000_003 + index);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  r(); // createdAt
  if (index % 3 !== 2) {
    const field = pick(Object.keys(FIELDS)) as keyof typeof FIELDS;
    const topic = pick(FIELDS[field]);
    pick(FIELDS[field]); // the second hashtag's topic
    const place = pick(PLACES);
    r(); // author's first name
    r(); // author's last name
    return `${pick(STUDY)} ${topic} in ${place}`;
  }
  const object = pick(OBJECTS);
  const colour = pick(COLOURS);
  const material = pick(MATERIALS);
  const style = pick(STYLES);
  return `${style} ${colour} ${material} ${object}`;
}

/** Search queries with what a person would type: keyword-ish, descriptive, and vague. */
export function generateQueries(seed: number, count: number): string[] {
  const r = prng(seed * 7_919 + 17);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const topics = Object.values(FIELDS).flat();
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    switch (i % 4) {
      case 0:
        out.push(pick(topics));
        break;
      case 1:
        out.push(`${pick(COLOURS)} ${pick(MATERIALS)} ${pick(OBJECTS)}`);
        break;
      case 2:
        out.push(`research about ${pick(topics)} in ${pick(PLACES)}`);
        break;
      default:
        out.push(
          `something ${pick(STYLES)} to ${pick(['sit on', 'carry things', 'light a room', 'make tea', 'play music'])}`,
        );
    }
  }
  return out;
}

export * from './corpus-vectors.ts';
