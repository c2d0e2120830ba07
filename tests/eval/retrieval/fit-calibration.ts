// Refits the match-percentage calibration (ranking.ts CALIBRATION) on collected sets' tune halves,
// exactly as it was fitted: one example per query, its top hit in the mode's own ranking, labelled
// right or wrong, unrelated queries weighted. The bench prints the refit beside the shipped
// constants, so a change of index, embedder or fusion shows when the calibration is stale.
import { backgroundOf, fuseHybrid, queryWordCount, rareWordIdf, type ScoredMode } from '@kaboodle/search';
import type { CollectedQuery } from './collect.ts';

/** Weighted logistic regression by gradient descent on standardised features. */
export function fitLogistic(rows: Array<{ x: number[]; y: number; w: number }>): {
  w: number[];
  bias: number;
} {
  const d = rows[0]?.x.length ?? 0;
  const total = rows.reduce((s, r) => s + r.w, 0) || 1;
  const mu = Array.from({ length: d }, (_, i) => rows.reduce((s, r) => s + r.w * r.x[i]!, 0) / total);
  const sd = Array.from(
    { length: d },
    (_, i) => Math.sqrt(rows.reduce((s, r) => s + r.w * (r.x[i]! - mu[i]!) ** 2, 0) / total) || 1,
  );
  const z = rows.map((r) => r.x.map((v, i) => (v - mu[i]!) / sd[i]!));
  const w = new Array<number>(d).fill(0);
  let b = 0;
  for (let it = 0; it < 4000; it++) {
    const g = new Array<number>(d).fill(0);
    let gb = 0;
    rows.forEach((r, k) => {
      const p = 1 / (1 + Math.exp(-(b + z[k]!.reduce((s, v, i) => s + v * w[i]!, 0))));
      const e = (p - r.y) * r.w;
      z[k]!.forEach((v, i) => (g[i]! += e * v));
      gb += e;
    });
    for (let i = 0; i < d; i++) w[i]! -= 0.5 * (g[i]! / total + 0.001 * w[i]!);
    b -= (0.5 * gb) / total;
  }
  const raw = w.map((v, i) => v / sd[i]!);
  return { w: raw, bias: b - raw.reduce((s, v, i) => s + v * mu[i]!, 0) };
}

function topEvidence(
  mode: ScoredMode,
  q: CollectedQuery,
): { id: string; cosine: number; bm25: number } | undefined {
  const minCos = Math.min(...q.byVector.map((h) => h.raw ?? h.score));
  const cos = (id: string) => q.byVector.find((h) => h.id === id)?.raw ?? minCos;
  const bm = (id: string) => q.byWords.find((h) => h.id === id)?.raw ?? 0;
  const top =
    mode === 'keyword'
      ? q.byWords[0]
      : mode === 'semantic'
        ? q.byVector[0]
        : fuseHybrid(q.byVector, q.byWords, q.query, q.corpusSize)[0];
  return top && { id: top.id, cosine: cos(top.id), bm25: bm(top.id) };
}

function features(mode: ScoredMode, q: CollectedQuery, e: { cosine: number; bm25: number }): number[] {
  const words = queryWordCount(q.query);
  const scale = words * rareWordIdf(q.corpusSize);
  const cosAbove = Math.max(0, e.cosine - backgroundOf(q.byVector, 'cosine'));
  const bmAbove = Math.max(0, e.bm25 - backgroundOf(q.byWords, 'bm25')) / scale;
  if (mode === 'semantic') return [e.cosine, cosAbove];
  if (mode === 'keyword') return [e.bm25 / scale, Math.log(words), bmAbove];
  return [e.cosine, e.bm25 / scale, Math.log(words), cosAbove, bmAbove];
}

/** The calibration refit on the given (tune) queries, in CALIBRATION's shape. */
export function refitCalibration(queries: CollectedQuery[], unrelatedWeight = 30) {
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  const fit = (mode: ScoredMode) =>
    fitLogistic(
      queries.flatMap((q) => {
        const top = topEvidence(mode, q);
        if (!top) return [];
        const related = Object.keys(q.relevant).length > 0;
        return [
          {
            x: features(mode, q, top),
            y: (q.relevant[top.id] ?? 0) > 0 ? 1 : 0,
            w: related ? 1 : unrelatedWeight,
          },
        ];
      }),
    );
  const s = fit('semantic');
  const k = fit('keyword');
  const h = fit('hybrid');
  return {
    semantic: { cosine: r3(s.w[0]!), aboveBackground: r3(s.w[1]!), bias: r3(s.bias) },
    keyword: { bm25Norm: r3(k.w[0]!), logWords: r3(k.w[1]!), aboveBackground: r3(k.w[2]!), bias: r3(k.bias) },
    hybrid: {
      cosine: r3(h.w[0]!),
      bm25Norm: r3(h.w[1]!),
      logWords: r3(h.w[2]!),
      cosineAboveBackground: r3(h.w[3]!),
      bm25AboveBackground: r3(h.w[4]!),
      bias: r3(h.bias),
    },
  };
}
