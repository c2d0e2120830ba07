// Vectors of the generated search corpus (generate-items.ts): each distinct text the generator can
// embed (18,560 titles and names) is embedded once with the offline model and cached on disk under
// .cache/bench/search-texts-v2-<model>/; an item's vector is its text's vector with a little of
// another text's mixed in (deterministic per seed and index, renormalised), so a million items need
// no more embedding than a thousand and no two items share a vector by accident.
// `node tests/bench/search/corpus-vectors.ts [count] [seed]` fills the cache ahead of a bench and
// prints how many distinct texts that many items embed.

import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexedEntity } from '@kaboodle/search';
import {
  BENCH_CACHE_DIR,
  embedTextOf,
  embedTextUniverse,
  generateItem,
  generateQueries,
  prng,
} from './generate-items.ts';

export interface Embedder {
  model: string;
  dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * Bumped whenever what is embedded or how item vectors derive from it changes, so a stale cache is
 * never read. Version 1 embedded every item's title (identical vectors for repeated titles, and 100k
 * items took ~15 minutes); version 2 embeds the distinct texts once and perturbs per item.
 */
export const GENERATOR_VERSION = 2;
/** How much of another text's vector each item mixes into its own (before renormalising). */
export const PERTURBATION = 0.1;
/** Texts per cache file (a stopped embedding run resumes at the first missing file). */
export const CHUNK = 2_000;

const modelSlug = (model: string) => model.replace(/[^a-z0-9.-]+/gi, '_');

/** The cache folder of one (seed, model) for query vectors. */
export function cacheDir(seed: number, model: string): string {
  return path.join(BENCH_CACHE_DIR, `search-items-v${GENERATOR_VERSION}-seed${seed}-${modelSlug(model)}`);
}

/** Every distinct embed text's vector, one file per CHUNK texts (embedded on first use). */
export async function textVectors(
  embedder: Embedder,
  opts: { batch?: number; log?: (line: string) => void } = {},
): Promise<{
  vectors: Float32Array;
  index: Map<string, number>;
  cached: number;
  embedded: number;
  embedMs: number;
  dir: string;
}> {
  const texts = embedTextUniverse();
  const dims = embedder.dimensions;
  const dir = path.join(BENCH_CACHE_DIR, `search-texts-v${GENERATOR_VERSION}-${modelSlug(embedder.model)}`);
  await mkdir(dir, { recursive: true });
  const vectors = new Float32Array(texts.length * dims);
  let cached = 0;
  let embedded = 0;
  let embedMs = 0;
  const batch = opts.batch ?? 64;
  for (let from = 0, c = 0; from < texts.length; from += CHUNK, c++) {
    const slice = texts.slice(from, from + CHUNK);
    const file = path.join(dir, `texts-${c}.f32`);
    if (existsSync(file)) {
      const buf = await readFile(file);
      if (buf.byteLength === slice.length * dims * 4) {
        vectors.set(new Float32Array(buf.buffer, buf.byteOffset, slice.length * dims), from * dims);
        cached++;
        continue;
      }
    }
    const started = performance.now();
    const chunk = new Float32Array(slice.length * dims);
    for (let i = 0; i < slice.length; i += batch) {
      const vs = await embedder.embed(slice.slice(i, i + batch));
      vs.forEach((v, j) => chunk.set(v, (i + j) * dims));
    }
    embedMs += performance.now() - started;
    opts.log?.(
      `  embedded texts ${from + slice.length}/${texts.length} (${((performance.now() - started) / 1000).toFixed(0)} s for this chunk)`,
    );
    await writeFile(`${file}.tmp`, new Uint8Array(chunk.buffer));
    await rename(`${file}.tmp`, file);
    vectors.set(chunk, from * dims);
    embedded++;
  }
  return { vectors, index: new Map(texts.map((t, i) => [t, i])), cached, embedded, embedMs, dir };
}

/** Item vectors computed on demand from the text vectors: a million items without 2 GB held. */
export interface CorpusVectorSource {
  readonly dims: number;
  /** Item `index`'s vector (a new array, or written into `out`). */
  vectorOf(index: number, out?: Float32Array): Float32Array;
}

export function corpusVectorSource(
  seed: number,
  texts: { vectors: Float32Array; index: Map<string, number> },
  dims: number,
): CorpusVectorSource {
  const universe = texts.vectors.length / dims;
  // The generator's own texts must be the ones the fast path reads (a guard against drift).
  for (let i = 0; i < 300; i++) {
    if (embedTextOf(seed, i) !== generateItem(seed, i).embedText)
      throw new Error(`embedTextOf(${seed}, ${i}) differs from generateItem's embedText`);
  }
  return {
    dims,
    vectorOf(index, out = new Float32Array(dims)) {
      const text = embedTextOf(seed, index);
      const a = texts.index.get(text);
      if (a === undefined) throw new Error(`"${text}" is not in the embed-text universe`);
      const b = Math.floor(prng(seed * 7_777_777 + index)() * universe);
      let norm = 0;
      for (let d = 0; d < dims; d++) {
        const x = texts.vectors[a * dims + d]! + PERTURBATION * texts.vectors[b * dims + d]!;
        out[d] = x;
        norm += x * x;
      }
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) out[d] = out[d]! / norm;
      return out;
    },
  };
}

/** The source for (seed, embedder): text vectors from the cache (embedding what is missing). */
export async function corpusSource(
  seed: number,
  embedder: Embedder,
  opts: { log?: (line: string) => void } = {},
): Promise<CorpusVectorSource & { cached: number; embedded: number; embedMs: number; dir: string }> {
  const texts = await textVectors(embedder, opts);
  return { ...corpusVectorSource(seed, texts, embedder.dimensions), ...texts };
}

/** How many distinct texts items [0, count) embed. */
export function distinctEmbedTexts(seed: number, count: number): number {
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) seen.add(embedTextOf(seed, i));
  return seen.size;
}

/**
 * Vectors for items [0, count) of the corpus in one array (count × dimensions), for the benches that
 * hold them all (index.bench.ts). cachedChunks / embeddedChunks count text-cache files.
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
  const texts = await textVectors(embedder, opts);
  const dims = embedder.dimensions;
  const source = corpusVectorSource(seed, texts, dims);
  const vectors = new Float32Array(count * dims);
  for (let i = 0; i < count; i++) source.vectorOf(i, vectors.subarray(i * dims, (i + 1) * dims));
  return {
    vectors,
    cachedChunks: texts.cached,
    embeddedChunks: texts.embedded,
    embedMs: texts.embedMs,
    dir: texts.dir,
  };
}

/**
 * Query vectors, cached the same way (one file per seed, model, count and `tag`: texts prepared
 * another way, e.g. normalised as the server embeds them, need a tag of their own).
 */
export async function queryVectors(
  seed: number,
  texts: string[],
  embedder: Embedder,
  tag = '',
): Promise<{ vectors: Float32Array[]; cached: boolean }> {
  const dims = embedder.dimensions;
  const file = path.join(cacheDir(seed, embedder.model), `queries-${tag}${texts.length}.f32`);
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
 * The full entities [from, to) with their vectors: `vectors` is the corpus array from corpusVectors
 * or a CorpusVectorSource (then `total` says how many items the corpus has). Documents get passages
 * of three sentences each, as the pipeline makes them. Their vectors are NOT embedded: each mixes the
 * document's vector with another item's, realistic in size and spread, for storage and excerpt cost.
 */
export function entitiesWithVectors(
  seed: number,
  from: number,
  to: number,
  vectors: Float32Array | CorpusVectorSource,
  dims: number,
  opts: { passages?: boolean; total?: number; ownerOf?: (index: number, ownerId: string) => string } = {},
): IndexedEntity[] {
  const held = vectors instanceof Float32Array ? vectors : undefined;
  const total = held ? held.length / dims : (opts.total ?? to);
  const vectorOf = (i: number) =>
    held ? held.slice(i * dims, (i + 1) * dims) : (vectors as CorpusVectorSource).vectorOf(i);
  const out: IndexedEntity[] = [];
  for (let i = from; i < to; i++) {
    const entity = generateItem(seed, i).entity;
    const own = vectorOf(i);
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
        const other = vectorOf((i + 7_919 * (j + 1)) % total);
        const v = new Float32Array(dims);
        let n = 0;
        for (let d = 0; d < dims; d++) {
          v[d] = 0.6 * own[d]! + 0.4 * other[d]!;
          n += v[d]! * v[d]!;
        }
        n = Math.sqrt(n) || 1;
        for (let d = 0; d < dims; d++) v[d] = v[d]! / n;
        passages.push({ text, start, end: start + text.length, vector: v });
      }
    }
    const ownerId = opts.ownerOf ? opts.ownerOf(i, entity.ownerId) : entity.ownerId;
    out.push({ ...entity, ownerId, vector: own, passages });
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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2] ?? 100_000);
  const seed = Number(process.argv[3] ?? 42);
  const embedder = await offlineEmbedder();
  const res = await textVectors(embedder, { log: console.log });
  await queryVectors(seed, generateQueries(seed, 200), embedder);
  console.log(
    `cache ${res.dir}: ${res.cached} files cached, ${res.embedded} embedded in ${(res.embedMs / 1000).toFixed(0)} s; ` +
      `${count.toLocaleString('en')} items (seed ${seed}) embed ${distinctEmbedTexts(seed, count).toLocaleString('en')} distinct texts of ${res.index.size.toLocaleString('en')}`,
  );
  await embedder.close();
}
