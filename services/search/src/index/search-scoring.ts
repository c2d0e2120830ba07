// Engine-independent ranking maths shared by the index adapters: reciprocal rank fusion, the
// mapping of each engine's raw scores to [0, 1], tag normalisation and the excerpt choice. Kept
// pure so every adapter scores the same way and the rules are unit-tested once.
import type { IndexedEntityType, IndexedPassage } from './search-index.port.ts';

/** RRF's damping constant (Cormack et al. 2009; Elasticsearch's default too). */
export const RRF_K = 60;

/**
 * Keyword search adds the BM25 of the lead, the opening 500 characters of the content (what an
 * abstract, a first paragraph or a man page's synopsis says), at this weight to the BM25 of the
 * whole search text: a document's opening says what it is about more often than its body. Chosen
 * on the tune half of the man-page known-item set (weights 0.2–1: 0.3 best there); keyword MRR on
 * the report half went from 0.655 to 0.683 (tests/bench/search/eval.bench.ts).
 */
export const LEAD_BOOST = 0.3;

/**
 * Proximity evidence: the search text also holds its adjacent word pairs as terms (wordPairs in
 * keyword-index.ts: stems, stop words skipped, as an analyser's shingles), and a query's own pairs
 * add their BM25 at this weight. A document that says "create a file" answers "create a file"
 * better than one with "create" in one paragraph and "file" in another. Chosen on the tune half of
 * the man-page known-item set (0.15–1; 0.25 best over the whole set and its 120-page library
 * together): keyword MRR on the report half went from 0.681 to 0.715, on the tune half from 0.703
 * to 0.725 (tests/bench/search/eval.bench.ts prints the figures).
 */
export const PAIR_BOOST = 0.25;

/** How many candidates each list contributes to a fusion: enough depth for RRF to matter. */
export function fusionDepth(limit: number): number {
  return Math.min(200, Math.max(60, limit * 3));
}

export interface RankedKey {
  key: string;
}

/**
 * Reciprocal rank fusion of ranked lists (best first): Σ 1/(k + rank), rank from 1. The score is
 * divided by the best achievable sum over the lists that returned anything, so an entity first in
 * every non-empty list scores 1.0, and the result is deterministic for the same lists. Ties are
 * broken by key so equal inputs always give the same order.
 */
export function reciprocalRankFusion(
  lists: RankedKey[][],
  k = RRF_K,
): { key: string; score: number; ranks: (number | undefined)[] }[] {
  const nonEmpty = lists.filter((l) => l.length > 0).length;
  if (nonEmpty === 0) return [];
  const best = nonEmpty / (k + 1);
  const fused = new Map<string, { sum: number; ranks: (number | undefined)[] }>();
  lists.forEach((list, li) => {
    list.forEach((item, i) => {
      let f = fused.get(item.key);
      if (!f) {
        f = { sum: 0, ranks: lists.map(() => undefined) };
        fused.set(item.key, f);
      }
      // A key listed twice in one list counts once, at its best rank.
      if (f.ranks[li] !== undefined) return;
      f.ranks[li] = i + 1;
      f.sum += 1 / (k + i + 1);
    });
  });
  return [...fused.entries()]
    .map(([key, f]) => ({ key, score: clamp01(f.sum / best), ranks: f.ranks }))
    .sort(byScoreThenKey);
}

/** Cosine distance (0..2) → similarity clamped to [0, 1]: opposite or orthogonal vectors score 0. */
export function cosineDistanceToScore(distance: number): number {
  return clamp01(1 - distance);
}

/**
 * BM25 scores are unbounded and corpus-dependent, so keyword scores are relative to the best hit of
 * the same list: the top keyword hit scores 1.0, the others their share of it.
 */
export function bm25ToScores(raw: number[]): number[] {
  const max = raw.reduce((m, s) => (s > m ? s : m), 0);
  return raw.map((s) => (max > 0 ? clamp01(s / max) : 0));
}

export function clamp01(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

export function byScoreThenKey<T extends { score: number; key: string }>(a: T, b: T): number {
  return b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Tags compare case-insensitively and without a leading '#': '#AI' and 'ai' are one tag. */
export function normaliseTag(tag: string): string {
  return tag.trim().replace(/^#+/, '').trim().toLowerCase();
}

/** Lower-cased word tokens (letters and digits of any script) for keyword overlap. */
export function queryTerms(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * The passage that best answers the query: half its cosine similarity to the query vector (when
 * there is one) and half the share of query words it contains (when there are any). Ties go to the
 * earlier passage. Undefined when the entity has no passages.
 */
export function bestPassage(
  passages: Pick<IndexedPassage, 'text' | 'vector'>[],
  query: { text: string; vector?: Float32Array },
): { index: number; text: string; score: number } | undefined {
  if (passages.length === 0) return undefined;
  const terms = queryTerms(query.text);
  let best: { index: number; text: string; score: number } | undefined;
  passages.forEach((p, index) => {
    const parts: number[] = [];
    if (query.vector && p.vector.length > 0) parts.push(clamp01(cosine(p.vector, query.vector)));
    if (terms.length > 0) {
      const words = new Set(queryTerms(p.text));
      parts.push(terms.filter((t) => words.has(t)).length / terms.length);
    }
    const score = parts.length ? parts.reduce((s, x) => s + x, 0) / parts.length : 0;
    if (!best || score > best.score) best = { index, text: p.text, score };
  });
  return best;
}

export const ENTITY_TYPES: readonly IndexedEntityType[] = ['document', 'inventory_item'];

/** Limits are clamped, never rejected, here: the routes validate what users send. */
export function clampLimit(limit: number, max: number, fallback = 20): number {
  if (!Number.isFinite(limit)) return Math.min(fallback, max);
  return Math.max(1, Math.min(max, Math.floor(limit)));
}
