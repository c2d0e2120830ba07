// Scores collected retrieval sets the way the product ranks them: keyword, vector and the hybrid
// (the search service's own code on the two lists), with MRR, success@10 and nDCG@10 per query
// group, and the calibrated top-hit probabilities for related and unrelated queries.
import { calibrateList, fuseHybrid, GOOD_MATCH, type HybridFusion } from '@kaboodle/search';
import type { SearchHit } from '@kaboodle/search';
import { mean, median, ndcgAt, reciprocalRank } from '../support/metrics.ts';
import type { CollectedQuery } from './collect.ts';

export type Method = 'keyword' | 'vector' | 'hybrid';

export function rank(q: CollectedQuery, method: Method, fusion?: HybridFusion): SearchHit[] {
  if (method === 'keyword') return calibrateList('keyword', q.byWords, q.query, q.corpusSize);
  if (method === 'vector') return calibrateList('semantic', q.byVector, q.query, q.corpusSize);
  return fuseHybrid(q.byVector, q.byWords, q.query, q.corpusSize, fusion);
}

export interface GroupFigures {
  queries: number;
  mrr: number;
  success10: number;
  ndcg10: number;
}

export function rankingFigures(
  queries: CollectedQuery[],
  method: Method,
  fusion?: HybridFusion,
): GroupFigures {
  const related = queries.filter((q) => Object.keys(q.relevant).length > 0);
  const ids = related.map((q) => rank(q, method, fusion).map((h) => h.id));
  return {
    queries: related.length,
    mrr: mean(ids.map((r, i) => reciprocalRank(r, related[i]!.relevant))),
    success10: mean(ids.map((r, i) => (reciprocalRank(r.slice(0, 10), related[i]!.relevant) > 0 ? 1 : 0))),
    ndcg10: mean(ids.map((r, i) => ndcgAt(r, related[i]!.relevant, 10))),
  };
}

export interface CalibrationFigures {
  /** Median top-hit score of the related queries, and the share whose top hit is a good match. */
  relatedMedian: number;
  relatedGood: number;
  /** Share of related queries whose top hit is relevant, against their mean top-hit score. */
  topCorrect: number;
  topMeanScore: number;
  /** The highest top-hit score any unrelated query got. */
  unrelatedMax: number;
  unrelated: number;
}

export function calibrationFigures(queries: CollectedQuery[], method: Method): CalibrationFigures {
  const related = queries.filter((q) => Object.keys(q.relevant).length > 0);
  const unrelated = queries.filter((q) => Object.keys(q.relevant).length === 0);
  const top = (q: CollectedQuery) => rank(q, method)[0];
  const relTops = related.map(top);
  return {
    relatedMedian: median(relTops.map((h) => h?.score ?? 0)),
    relatedGood: mean(relTops.map((h) => ((h?.score ?? 0) >= GOOD_MATCH ? 1 : 0))),
    topCorrect: mean(related.map((q, i) => ((q.relevant[relTops[i]?.id ?? ''] ?? 0) > 0 ? 1 : 0))),
    topMeanScore: mean(relTops.map((h) => h?.score ?? 0)),
    unrelatedMax: Math.max(0, ...unrelated.map((q) => top(q)?.score ?? 0)),
    unrelated: unrelated.length,
  };
}

/**
 * How well the calibrated top-hit score tells a right top hit from a wrong one or from an
 * unrelated query's best guess: the probability that a random right one scores above a random
 * wrong one (ties count half).
 */
export function topHitAuc(queries: CollectedQuery[], method: Method): number {
  const right: number[] = [];
  const wrong: number[] = [];
  for (const q of queries) {
    const top = rank(q, method)[0];
    if (!top) continue;
    ((q.relevant[top.id] ?? 0) > 0 ? right : wrong).push(top.score);
  }
  if (right.length === 0 || wrong.length === 0) return Number.NaN;
  let wins = 0;
  for (const r of right) for (const w of wrong) wins += r > w ? 1 : r === w ? 0.5 : 0;
  return wins / (right.length * wrong.length);
}
