// How search ranks and scores, from the two lists the index gives (BM25 with its raw score, kNN with
// its cosine): the hybrid's fusion, and the match percentage, a probability that the hit is what the
// searcher wanted, calibrated per mode so that it means the same for every query. Both were fitted
// on the "tune" halves of the evaluation sets (services/search/bench/eval.bench.ts prints the fit
// and the figures on the "report" halves and on every set): never on the sets they are reported on.
import type { SearchHit } from './index/search-index.port.ts';

/** Below this calibrated probability a hit is a weak match: the API says so and the vault shows it. */
export const GOOD_MATCH = 0.3;

export type HybridFusion =
  { method: 'learned' } | { method: 'rrf'; k?: number } | { method: 'weighted'; vectorWeight: number };

/**
 * The default: a logistic combination of the cosine, its distance to the query's best cosine, BM25
 * per query word and that times BM25's share of the best, fitted on the tune half of the man-page
 * known-item set. Plain RRF (k = 60) lost to keyword search there (MRR 0.48 vs 0.65) and the old
 * 0.85/0.15 weighted sum did too (0.61): a fixed share for the vector list is wrong when the
 * embedder knows little of the domain. Here a clear vector winner comes first, and otherwise the
 * words decide, by how much of the query they match.
 */
export const DEFAULT_FUSION: HybridFusion = { method: 'learned' };
export const LEARNED_FUSION = {
  cosine: 1.28,
  cosineFromBest: 15.8,
  bm25PerWord: -1.39,
  bm25PerWordTimesShare: 2.83,
};

/**
 * Logistic calibration per mode, fitted on each tune query's top hit (relevant or not) of the
 * man-page set, half the team's queries and half the unrelated queries (each unrelated query
 * counted 20 times: searchers type far more off-target queries than one in fifty, and a weak match
 * shown as a good one costs more than the reverse). Features are absolute: the cosine, and BM25 per
 * query word over the most a single rare word can score in this library (so a library of five
 * documents and one of five thousand read alike), with the log of the query's word count (one word
 * of four matched is not a match). Relative scores (share of the best) made every top hit 100 %.
 */
export const CALIBRATION = {
  semantic: { cosine: 1.574, bias: -2.616 },
  keyword: { bm25Norm: 9.308, logWords: 2.313, bias: -9.027 },
  hybrid: { cosine: 4.419, bm25Norm: 7.132, logWords: 0.979, bias: -8.354 },
} as const;

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

/** The calibrated probability that a hit is a good match, from absolute evidence only. */
export function matchProbability(mode: ScoredMode, e: Evidence, words: number, corpusSize: number): number {
  const cos = e.cosine ?? 0;
  const bm25Norm = (e.bm25 ?? 0) / (words * rareWordIdf(corpusSize));
  const logWords = Math.log(words);
  let z: number;
  if (mode === 'semantic') z = CALIBRATION.semantic.cosine * cos + CALIBRATION.semantic.bias;
  else if (mode === 'keyword') {
    const c = CALIBRATION.keyword;
    z = c.bm25Norm * bm25Norm + c.logWords * logWords + c.bias;
  } else {
    const c = CALIBRATION.hybrid;
    z = c.cosine * cos + c.bm25Norm * bm25Norm + c.logWords * logWords + c.bias;
  }
  return Number.isFinite(z) ? sigmoid(z) : 0;
}

const keyOf = (h: SearchHit) => `${h.entityType}:${h.id}`;

interface Candidate {
  hit: SearchHit;
  cosine: number;
  bm25: number;
  bm25Relative: number;
  vectorRank: number;
  wordRank: number;
}

function candidates(byVector: SearchHit[], byWords: SearchHit[]): Candidate[] {
  const minCos = byVector.reduce((m, h) => Math.min(m, h.raw ?? h.score), Infinity);
  const maxBm25 = byWords.reduce((m, h) => Math.max(m, h.raw ?? 0), 0);
  const out = new Map<string, Candidate>();
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
function fusionScores(cands: Candidate[], fusion: HybridFusion, query: string): number[] {
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
      f.bm25PerWordTimesShare * perWord * c.bm25Relative
    );
  });
}

/**
 * The hybrid list: the two lists fused, each hit scored with its calibrated match probability.
 * Shown scores never rise down the list (a lower-ranked hit shows at most the score above it).
 */
export function fuseHybrid(
  byVector: SearchHit[],
  byWords: SearchHit[],
  query: string,
  /** The owner's number of entities (BM25's scale grows with it). */
  corpusSize: number,
  fusion: HybridFusion = DEFAULT_FUSION,
): SearchHit[] {
  const cands = candidates(byVector, byWords);
  const order = fusionScores(cands, fusion, query);
  const words = queryWordCount(query);
  const ranked = cands
    .map((c, i) => ({ c, s: order[i]! }))
    .sort((a, b) => b.s - a.s || a.c.vectorRank - b.c.vectorRank || a.c.wordRank - b.c.wordRank);
  return monotone(
    ranked.map(({ c }) => ({
      ...c.hit,
      score: matchProbability('hybrid', { cosine: c.cosine, bm25: c.bm25 }, words, corpusSize),
    })),
  );
}

/** One engine's list (keyword or semantic), its order kept, scored with the calibrated probability. */
export function calibrateList(
  mode: 'keyword' | 'semantic',
  hits: SearchHit[],
  query: string,
  corpusSize: number,
): SearchHit[] {
  const words = queryWordCount(query);
  return monotone(
    hits.map((h) => ({
      ...h,
      score: matchProbability(
        mode,
        mode === 'keyword' ? { bm25: h.raw ?? 0 } : { cosine: h.raw ?? h.score },
        words,
        corpusSize,
      ),
    })),
  );
}

function monotone(hits: SearchHit[]): SearchHit[] {
  let cap = 1;
  return hits.map((h) => {
    const score = Math.max(0, Math.min(cap, h.score));
    cap = score;
    return { ...h, score };
  });
}
