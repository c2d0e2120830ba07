// How search ranks and scores, from the two lists the index gives (BM25 with its raw score, kNN with
// its cosine): the hybrid's fusion, and the match percentage, a probability that the hit is what the
// searcher wanted, calibrated per mode so that it means the same for every query. Both were fitted
// on the "tune" halves of the evaluation sets (tests/bench/search/eval.bench.ts prints the fit
// and the figures on the "report" halves and on every set): never on the sets they are reported on.
import type { RankedRef } from './index/search-index.port.ts';

/** A ranked entity: a display hit, or only its name and scores (SearchIndex.searchKeys). */
type Ranked = RankedRef & { excerpt?: string };

/** Below this calibrated probability a hit is a weak match: the API says so and the vault shows it. */
export const GOOD_MATCH = 0.3;

export type HybridFusion =
  { method: 'learned' } | { method: 'rrf'; k?: number } | { method: 'weighted'; vectorWeight: number };

/**
 * The default: BM25 per query word (raised by its share of the best BM25), plus the cosine, its
 * distance to the query's best cosine, and a reciprocal-rank bonus of the vector list. Weights were
 * chosen on the tune halves by MRR on the man-page known-item set, among those that keep the hybrid
 * at or above keyword and vector alone on every tune set (the man pages, their first 120 as a small
 * library, the team's set): tests/bench/search/eval.bench.ts prints the result on the report
 * halves. Plain RRF (k = 60) lost to keyword search there (MRR 0.48 vs 0.65) and the old
 * 0.85/0.15 weighted sum did too (0.61): a fixed share for the vector list is wrong when the
 * embedder knows little of the domain. Here a clear vector winner comes first, and otherwise the
 * words decide, by how much of the query they match.
 */
export const DEFAULT_FUSION: HybridFusion = { method: 'learned' };
export const LEARNED_FUSION = {
  cosine: 1,
  cosineFromBest: 10,
  bm25PerWord: 1,
  bm25PerWordTimesShare: 2,
  /** Added as vectorRank / (vectorRankK + rank in the vector list, from 0). */
  vectorRank: 3,
  vectorRankK: 10,
};

/**
 * Logistic calibration per mode, fitted on each tune query's top hit (relevant or not) of the
 * man-page sets (all 813 pages, and the first 120 as a small library), half the team's queries and
 * half the unrelated queries. Each unrelated query counts 30 times: searchers type far more
 * off-target queries than one in fifty, and a weak match shown as a good one costs more than the
 * reverse (30 is the smallest of 20/30/50 that kept every tune set's unrelated queries below a good
 * match). Features are absolute: the cosine, and BM25 per query word over the most a single rare
 * word can score in this library (so a library of five documents and one of five thousand read
 * alike), with the log of the query's word count (one word of four matched is not a match); and
 * the hit's distance above the query's background, the score at rank BACKGROUND_RANK of the same
 * list. A vector hit that stands out of its crowd is likelier right. For BM25 the fit weighs the
 * distance negatively, i.e. it credits the background itself: an unrelated query's words are rare
 * in the library, so nothing else matches them (background near 0), where a question about the
 * library's subject finds a crowd that shares its words. Relative scores (share of the best) made
 * every top hit 100 %. Refitted when keyword search began scoring word pairs (search-scoring.ts
 * PAIR_BOOST), which raised BM25's scale. tests/bench/search/eval.bench.ts prints the figures on
 * the report halves, and the refit beside these constants.
 */
export const CALIBRATION = {
  semantic: { cosine: 7.272, aboveBackground: 3.573, bias: -6.966 },
  keyword: { bm25Norm: 8.557, logWords: 2.251, aboveBackground: -2.977, bias: -8.648 },
  hybrid: {
    cosine: 4.728,
    bm25Norm: 6.009,
    logWords: 1.088,
    cosineAboveBackground: -2.441,
    bm25AboveBackground: -1.111,
    bias: -8.474,
  },
} as const;

/** The rank whose score is a query's background (lists are asked for at least this many hits). */
export const BACKGROUND_RANK = 10;

/** BM25's inverse document frequency of a word found in one document of `n` (Lucene's form). */
export function rareWordIdf(n: number): number {
  return Math.log(1 + (Math.max(1, n) - 0.5) / 1.5);
}

export type ScoredMode = keyof typeof CALIBRATION;

const STOP = new Set(
  'a an and are as at be by for from has have how i in is it its of on or that the their this to was were what when which who why will with do does did can my our we you your'.split(
    ' ',
  ),
);

/** The query's content words (what BM25 scores), at least one. */
export function queryWordCount(query: string): number {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return Math.max(1, words.filter((w) => w.length > 1 && !STOP.has(w)).length);
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export interface Evidence {
  /** Cosine to the query (the vector list's lowest when the hit is not in it). */
  cosine?: number;
  /** Raw BM25 (0 when the hit is not in the keyword list). */
  bm25?: number;
}

/** The scores at BACKGROUND_RANK of the query's lists (a list shorter than that: its last cosine, BM25 0). */
export interface Background {
  cosine?: number;
  bm25?: number;
}

/** A list's background score: the hit at BACKGROUND_RANK, else (keyword) 0 or (vector) the last. */
export function backgroundOf(hits: RankedRef[], kind: 'cosine' | 'bm25'): number {
  const at = hits[BACKGROUND_RANK - 1] ?? (kind === 'cosine' ? hits[hits.length - 1] : undefined);
  return at ? (at.raw ?? at.score) : 0;
}

/** The calibrated probability that a hit is a good match, from absolute evidence only. */
export function matchProbability(
  mode: ScoredMode,
  e: Evidence,
  words: number,
  corpusSize: number,
  background: Background = {},
): number {
  const cos = e.cosine ?? 0;
  const scale = words * rareWordIdf(corpusSize);
  const bm25Norm = (e.bm25 ?? 0) / scale;
  const bm25Above = Math.max(0, (e.bm25 ?? 0) - (background.bm25 ?? 0)) / scale;
  const cosAbove = Math.max(0, cos - (background.cosine ?? cos));
  const logWords = Math.log(words);
  let z: number;
  if (mode === 'semantic') {
    const c = CALIBRATION.semantic;
    z = c.cosine * cos + c.aboveBackground * cosAbove + c.bias;
  } else if (mode === 'keyword') {
    const c = CALIBRATION.keyword;
    z = c.bm25Norm * bm25Norm + c.logWords * logWords + c.aboveBackground * bm25Above + c.bias;
  } else {
    const c = CALIBRATION.hybrid;
    z =
      c.cosine * cos +
      c.bm25Norm * bm25Norm +
      c.logWords * logWords +
      c.cosineAboveBackground * cosAbove +
      c.bm25AboveBackground * bm25Above +
      c.bias;
  }
  return Number.isFinite(z) ? sigmoid(z) : 0;
}

const keyOf = (h: RankedRef) => `${h.entityType}:${h.id}`;

interface Candidate<H extends Ranked> {
  hit: H;
  cosine: number;
  bm25: number;
  bm25Relative: number;
  vectorRank: number;
  wordRank: number;
}

function candidates<H extends Ranked>(byVector: H[], byWords: H[]): Candidate<H>[] {
  const minCos = byVector.reduce((m, h) => Math.min(m, h.raw ?? h.score), Infinity);
  const maxBm25 = byWords.reduce((m, h) => Math.max(m, h.raw ?? 0), 0);
  const out = new Map<string, Candidate<H>>();
  byVector.forEach((h, i) =>
    out.set(keyOf(h), {
      hit: h,
      cosine: h.raw ?? h.score,
      bm25: 0,
      bm25Relative: 0,
      vectorRank: i,
      wordRank: byWords.length,
    }),
  );
  byWords.forEach((h, i) => {
    const bm25 = h.raw ?? 0;
    const seen = out.get(keyOf(h));
    const c = seen ?? {
      hit: h,
      cosine: Number.isFinite(minCos) ? minCos : 0,
      bm25: 0,
      bm25Relative: 0,
      vectorRank: byVector.length,
      wordRank: i,
    };
    c.bm25 = bm25;
    c.bm25Relative = maxBm25 > 0 ? bm25 / maxBm25 : 0;
    c.wordRank = i;
    // The excerpt comes from whichever list has one (the vector list first).
    if (c.hit.excerpt === undefined && h.excerpt !== undefined) c.hit = { ...c.hit, excerpt: h.excerpt };
    out.set(keyOf(h), c);
  });
  return [...out.values()];
}

/** The fusion's ordering score of each candidate (higher first); ties keep the vector order. */
function fusionScores(cands: Candidate<Ranked>[], fusion: HybridFusion, query: string): number[] {
  if (fusion.method === 'rrf') {
    const k = fusion.k ?? 60;
    return cands.map((c) => 1 / (k + c.vectorRank + 1) + 1 / (k + c.wordRank + 1));
  }
  if (fusion.method === 'weighted') {
    const w = Math.min(1, Math.max(0, fusion.vectorWeight));
    return cands.map((c) => w * Math.max(0, c.cosine) + (1 - w) * c.bm25Relative);
  }
  const best = cands.reduce((m, c) => Math.max(m, c.cosine), -Infinity);
  const words = queryWordCount(query);
  const f = LEARNED_FUSION;
  return cands.map((c) => {
    const perWord = c.bm25 / words;
    return (
      f.cosine * c.cosine +
      f.cosineFromBest * (c.cosine - best) +
      f.bm25PerWord * perWord +
      f.bm25PerWordTimesShare * perWord * c.bm25Relative +
      f.vectorRank / (f.vectorRankK + c.vectorRank)
    );
  });
}

/**
 * The hybrid list: the two lists fused, each hit scored with its calibrated match probability.
 * Shown scores never rise down the list (a lower-ranked hit shows at most the score above it).
 */
export function fuseHybrid<H extends Ranked>(
  byVector: H[],
  byWords: H[],
  query: string,
  /** The owner's number of entities (BM25's scale grows with it). */
  corpusSize: number,
  fusion: HybridFusion = DEFAULT_FUSION,
): H[] {
  const cands = candidates(byVector, byWords);
  const order = fusionScores(cands, fusion, query);
  const words = queryWordCount(query);
  const background = { cosine: backgroundOf(byVector, 'cosine'), bm25: backgroundOf(byWords, 'bm25') };
  const ranked = cands
    .map((c, i) => ({ c, s: order[i]! }))
    .sort((a, b) => b.s - a.s || a.c.vectorRank - b.c.vectorRank || a.c.wordRank - b.c.wordRank);
  return monotone(
    ranked.map(({ c }) => ({
      ...c.hit,
      score: matchProbability('hybrid', { cosine: c.cosine, bm25: c.bm25 }, words, corpusSize, background),
    })),
  );
}

/**
 * One engine's list (keyword or semantic), its order kept, scored with the calibrated probability.
 * Pass at least BACKGROUND_RANK hits when there are that many (cut to the page after).
 */
export function calibrateList<H extends Ranked>(
  mode: 'keyword' | 'semantic',
  hits: H[],
  query: string,
  corpusSize: number,
): H[] {
  const words = queryWordCount(query);
  const background =
    mode === 'keyword' ? { bm25: backgroundOf(hits, 'bm25') } : { cosine: backgroundOf(hits, 'cosine') };
  return monotone(
    hits.map((h) => ({
      ...h,
      score: matchProbability(
        mode,
        mode === 'keyword' ? { bm25: h.raw ?? 0 } : { cosine: h.raw ?? h.score },
        words,
        corpusSize,
        background,
      ),
    })),
  );
}

function monotone<H extends Ranked>(hits: H[]): H[] {
  let cap = 1;
  return hits.map((h) => {
    const score = Math.max(0, Math.min(cap, h.score));
    cap = score;
    return { ...h, score };
  });
}
