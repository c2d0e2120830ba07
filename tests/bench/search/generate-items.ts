// Generated search corpus for the benches (this one's index bench and the HTTP bench): documents and
// inventory items with realistic text, a pure function of (seed, index), so any prefix of a run is
// the same items; their vectors come from the offline embedder (USE-lite) and are cached on disk
// under .cache/bench/, keyed by seed + model, in chunks of 5,000 (a stopped run resumes).

import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexedEntity } from '@kaboodle/search';

export const BENCH_CACHE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../.cache/bench',
);
export const CHUNK = 5_000;

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

export interface Embedder {
  model: string;
  dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * Bumped whenever generateItem changes what it embeds, so a stale cache is never read. Version 1
 * repeats titles (16.6k distinct texts in 100k items, so many identical vectors: the bench counts
 * recall with ties, and it is a hard case for HNSW); a more varied generator costs a 30-minute re-embed.
 */
export const GENERATOR_VERSION = 1;

/** The cache folder of one (seed, model): chunk-<n>.f32 files of CHUNK × dimensions float32. */
export function cacheDir(seed: number, model: string): string {
  return path.join(
    BENCH_CACHE_DIR,
    `search-items-${GENERATOR_VERSION > 1 ? `v${GENERATOR_VERSION}-` : ''}seed${seed}-${model.replace(/[^a-z0-9.-]+/gi, '_')}`,
  );
}

/**
 * Vectors for items [0, count) of the corpus: read from the cache, embedding (and caching) the
 * chunks that are missing. Reports whether anything came from the cache.
 */
export async function corpusVectors(
  seed: number,
  count: number,
  embedder: Embedder,
  opts: { batch?: number; log?: (line: string) => void } = {},
): Promise<{
  vectors: Float32Array;
  cachedChunks: number;
  embeddedChunks: number;
  embedMs: number;
  dir: string;
}> {
  const dims = embedder.dimensions;
  const dir = cacheDir(seed, embedder.model);
  await mkdir(dir, { recursive: true });
  const vectors = new Float32Array(count * dims);
  const chunks = Math.ceil(count / CHUNK);
  let cachedChunks = 0;
  let embeddedChunks = 0;
  let embedMs = 0;
  const batch = opts.batch ?? 64;
  for (let c = 0; c < chunks; c++) {
    const file = path.join(dir, `chunk-${c}.f32`);
    const from = c * CHUNK;
    const n = Math.min(CHUNK, count - from);
    if (existsSync(file)) {
      const buf = await readFile(file);
      const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
      if (all.length >= n * dims) {
        vectors.set(all.subarray(0, n * dims), from * dims);
        cachedChunks++;
        continue;
      }
    }
    // Embed the whole chunk (even past `count`) so the cached file serves any later, larger run.
    const started = performance.now();
    const chunkVectors = new Float32Array(CHUNK * dims);
    for (let i = 0; i < CHUNK; i += batch) {
      const texts = Array.from(
        { length: Math.min(batch, CHUNK - i) },
        (_, j) => generateItem(seed, from + i + j).embedText,
      );
      const vs = await embedder.embed(texts);
      vs.forEach((v, j) => chunkVectors.set(v, (i + j) * dims));
      if ((i / batch) % 20 === 0)
        opts.log?.(
          `  embedding chunk ${c + 1}/${chunks}: ${i}/${CHUNK} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
    }
    embedMs += performance.now() - started;
    const tmp = `${file}.tmp`;
    await writeFile(tmp, new Uint8Array(chunkVectors.buffer));
    await rename(tmp, file);
    vectors.set(chunkVectors.subarray(0, n * dims), from * dims);
    embeddedChunks++;
  }
  return { vectors, cachedChunks, embeddedChunks, embedMs, dir };
}

/** Query vectors, cached the same way (one file per seed, model and count). */
export async function queryVectors(
  seed: number,
  texts: string[],
  embedder: Embedder,
): Promise<{ vectors: Float32Array[]; cached: boolean }> {
  const dims = embedder.dimensions;
  const file = path.join(cacheDir(seed, embedder.model), `queries-${texts.length}.f32`);
  if (existsSync(file)) {
    const buf = await readFile(file);
    const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    if (all.length === texts.length * dims) {
      return { vectors: texts.map((_, i) => all.slice(i * dims, (i + 1) * dims)), cached: true };
    }
  }
  const vectors = await embedder.embed(texts);
  const flat = new Float32Array(texts.length * dims);
  vectors.forEach((v, i) => flat.set(v, i * dims));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, new Uint8Array(flat.buffer));
  return { vectors, cached: false };
}

/**
 * The full entities [from, to) with their vectors (vectors is the corpus array from corpusVectors).
 * Documents get passages of three sentences each, as the pipeline makes them. Their vectors are NOT
 * embedded (that would triple the embedding time): each mixes the document's vector with another
 * cached item's, so they are realistic in size and spread, for sizing storage and excerpt cost only.
 */
export function entitiesWithVectors(
  seed: number,
  from: number,
  to: number,
  vectors: Float32Array,
  dims: number,
  opts: { passages?: boolean } = {},
): IndexedEntity[] {
  const total = vectors.length / dims;
  const out: IndexedEntity[] = [];
  for (let i = from; i < to; i++) {
    const entity = generateItem(seed, i).entity;
    const own = vectors.slice(i * dims, (i + 1) * dims);
    const passages: IndexedEntity['passages'] = [];
    if (entity.entityType === 'document' && opts.passages !== false) {
      const sentences = entity.content.match(/[^.]+\./g) ?? [];
      let offset = 0;
      for (let j = 0; j * 3 < sentences.length; j++) {
        const text = sentences
          .slice(j * 3, j * 3 + 3)
          .join('')
          .trim();
        const start = entity.content.indexOf(text, offset);
        offset = start + text.length;
        const other = ((i + 7_919 * (j + 1)) % total) * dims;
        const v = new Float32Array(dims);
        let n = 0;
        for (let d = 0; d < dims; d++) {
          v[d] = 0.6 * own[d]! + 0.4 * vectors[other + d]!;
          n += v[d]! * v[d]!;
        }
        n = Math.sqrt(n) || 1;
        for (let d = 0; d < dims; d++) v[d] = v[d]! / n;
        passages.push({ text, start, end: start + text.length, vector: v });
      }
    }
    out.push({ ...entity, vector: own, passages });
  }
  return out;
}

/** The offline model the pipeline uses (USE-lite, 512 dims), adapted to the cache's Embedder. */
export async function offlineEmbedder(): Promise<Embedder & { close(): Promise<void> }> {
  const { createUseLiteEmbedder, USE_LITE_SPACE } = await import('@kaboodle/processing');
  const e = createUseLiteEmbedder({ cacheSize: 0, maxBatch: 16 });
  return {
    model: USE_LITE_SPACE.model,
    dimensions: USE_LITE_SPACE.dimensions,
    embed: (texts) => e.embed(texts),
    close: async () => e.close?.(),
  };
}

// `node tests/bench/search/generate-items.ts [count] [seed]` fills the vector cache ahead of a bench.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2] ?? 100_000);
  const seed = Number(process.argv[3] ?? 42);
  const embedder = await offlineEmbedder();
  const res = await corpusVectors(seed, count, embedder, { log: console.log });
  await queryVectors(seed, generateQueries(seed, 200), embedder);
  console.log(
    `cache ${res.dir}: ${res.cachedChunks} chunks cached, ${res.embeddedChunks} embedded in ${(res.embedMs / 1000).toFixed(0)} s`,
  );
  await embedder.close();
}
