// Exact kNN over the big owner's corpus vectors, the reference for the product bench's recall@10.
// Item vectors are a text vector plus a little of another's (corpus-vectors.ts), so a query's cosine
// with every item follows from its dot products with the 18,560 text vectors: a million items cost
// two lookups each per query instead of 512 multiplications.
import { normaliseQuery } from '@kaboodle/search';
import {
  embedTextOf,
  generateQueries,
  offlineEmbedder,
  ownerOf,
  prng,
  PERTURBATION,
  queryVectors,
  textVectors,
} from './generate-items.ts';

export interface RecallSet {
  queries: string[];
  /** Per query: the 10th best exact cosine (ties with it count as right), and every item's cosine. */
  tenth: number[];
  cosine: (query: number, itemIndex: number) => number;
  seed: number;
}

export async function exactTop10(
  seed: number,
  count: number,
  queryCount: number,
  log: (line: string) => void,
): Promise<RecallSet> {
  const started = performance.now();
  const embedder = await offlineEmbedder();
  const texts = await textVectors(embedder, { log });
  const queries = generateQueries(seed, 200).slice(0, queryCount);
  // The reference embeds each query as the server does (normalised: NFKC, lower case, one space).
  // It used to embed the raw text: 16 of the 100 queries have capitals, so the server searched with
  // other vectors than the reference's and recall through the server read 0.881 against the graph's
  // 0.977 (docs/benchmarks/2026-11-27-burst-during-save.md).
  const asServed = generateQueries(seed, 200).map(normaliseQuery);
  const qv = (await queryVectors(seed, asServed, embedder, 'normalised-')).vectors.slice(0, queryCount);
  await embedder.close();
  const dims = embedder.dimensions;
  const U = texts.index.size;
  // query × text dot products
  const qu = new Float64Array(queries.length * U);
  for (let q = 0; q < queries.length; q++) {
    const v = qv[q]!;
    for (let t = 0; t < U; t++) {
      let s = 0;
      for (let d = 0; d < dims; d++) s += v[d]! * texts.vectors[t * dims + d]!;
      qu[q * U + t] = s;
    }
  }
  // each item's text, partner and norm (as corpusVectorSource computes them)
  const a = new Int32Array(count);
  const b = new Int32Array(count);
  const norm = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    a[i] = texts.index.get(embedTextOf(seed, i))!;
    b[i] = Math.floor(prng(seed * 7_777_777 + i)() * U);
    let n = 0;
    for (let d = 0; d < dims; d++) {
      const x = texts.vectors[a[i]! * dims + d]! + PERTURBATION * texts.vectors[b[i]! * dims + d]!;
      n += x * x;
    }
    norm[i] = Math.sqrt(n) || 1;
  }
  const cosine = (q: number, i: number) =>
    (qu[q * U + a[i]!]! + PERTURBATION * qu[q * U + b[i]!]!) / norm[i]!;
  const tenth: number[] = [];
  for (let q = 0; q < queries.length; q++) {
    const best: number[] = []; // the 10 best cosines, ascending
    for (let i = 0; i < count; i++) {
      if (ownerOf(i) !== 'bench-big') continue;
      const c = cosine(q, i);
      if (best.length < 10 || c > best[0]!) {
        best.push(c);
        best.sort((x, y) => x - y);
        if (best.length > 10) best.shift();
      }
    }
    tenth.push(best[0] ?? -Infinity);
  }
  log(
    `exact kNN for ${queries.length} recall queries over ${count.toLocaleString('en')} items in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { queries, tenth, cosine, seed };
}

/**
 * recall@10 of the answers (ids, best first): of each answer's first 10 corpus items (files the bench
 * ingested are not in the reference and are skipped), those at least as close as the exact 10th
 * (float tolerance 1e-5: the server's float32 vectors).
 */
export function recallAt10(set: RecallSet, answers: string[][]): number {
  const prefix = `bench-${set.seed}-`;
  let hit = 0;
  answers.forEach((ids, q) => {
    const items = ids.filter((id) => id.startsWith(prefix)).slice(0, 10);
    for (const id of items) if (set.cosine(q, Number(id.slice(prefix.length))) >= set.tenth[q]! - 1e-5) hit++;
  });
  return hit / (answers.length * 10);
}
