// Per-query confidence gates on the hybrid fusion, replayed on collected lists (issue 17: "a hybrid
// must never lose to keyword or vector alone"). Each variant is the shipped learned fusion
// (ranking.ts LEARNED_FUSION) with its vector terms weighed by how confident the query's two lists
// are; one variant is chosen on the tune halves only, by the smallest margin over the better
// single method and then by summed MRR, and only then shown on the report halves. Also lists, per
// report half, the questions the shipped hybrid ranks below keyword. Run by
// `node tests/bench/search/eval.bench.ts --fusion-study`. The shipped fusion is reproduced here
// (base variant) and checked query by query against fuseHybrid, so the study cannot drift from it.
import { fuseHybrid, LEARNED_FUSION, queryWordCount, rareWordIdf } from '@kaboodle/search';
import { mean, reciprocalRank } from '../../eval/support/metrics.ts';
import type { CollectedQuery, CollectedSet } from '../../eval/retrieval/collect.ts';

/** How much of the vector terms one query keeps, from its lists' confidence (1 = the shipped fusion). */
type Gate = (c: Confidence) => number;
interface Confidence {
  /** Best cosine minus the cosine at rank 10 (the list's background): a flat list says little. */
  vectorAbove: number;
  /** (best BM25 − second BM25) / best BM25: keyword's own margin between its top two. */
  keywordMargin: number;
}
interface Variant {
  label: string;
  gate?: Gate;
  /** BM25 per word × (idf of a rare word at 813 documents / at this library's size) ^ exponent. */
  idfExponent?: number;
  /** z-score fusion: BM25's z + weight × the cosine's z, each over its own list. */
  zWeight?: number;
}

export function variants(): Variant[] {
  const out: Variant[] = [{ label: 'shipped (learned)' }];
  for (const t of [0.01, 0.015, 0.02, 0.025, 0.03, 0.035])
    for (const keep of [0, 0.5])
      out.push({
        label: `flat vector < ${t}: keep ${keep}`,
        gate: (c) => (c.vectorAbove < t ? keep : 1),
      });
  for (const t of [0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2])
    out.push({ label: `vector × spread/${t}`, gate: (c) => Math.min(1, c.vectorAbove / t) });
  for (const k of [0.1, 0.2, 0.3, 0.4])
    for (const t of [0.05, 0.08, 0.12])
      for (const keep of [0, 0.25, 0.5])
        out.push({
          label: `keyword sure ≥ ${k}, vector flat < ${t}: keep ${keep}`,
          gate: (c) => (c.keywordMargin >= k && c.vectorAbove < t ? keep : 1),
        });
  for (const k of [0.03, 0.06, 0.1])
    out.push({ label: `keyword near-tie < ${k}: keep 0`, gate: (c) => (c.keywordMargin < k ? 0 : 1) });
  for (const a of [0.25, 0.5, 1])
    out.push({ label: `vector × (1 − ${a} · keyword margin)`, gate: (c) => 1 - a * c.keywordMargin });
  for (const e of [0.25, 0.5, 1]) out.push({ label: `BM25 on the library's idf ^${e}`, idfExponent: e });
  for (const w of [0.05, 0.1, 0.2, 0.5, 1]) out.push({ label: `z-scores, vector × ${w}`, zWeight: w });
  return out;
}

function confidence(q: CollectedQuery): Confidence {
  const cos = q.byVector.map((h) => h.raw ?? h.score);
  const bm = q.byWords.map((h) => h.raw ?? 0);
  return {
    vectorAbove: cos.length ? cos[0]! - (cos[9] ?? cos.at(-1)!) : 0,
    keywordMargin: bm.length > 1 && bm[0]! > 0 ? (bm[0]! - bm[1]!) / bm[0]! : bm.length ? 1 : 0,
  };
}

/** The learned fusion of ranking.ts, with the variant's change; ids best first. */
export function fuseVariant(q: CollectedQuery, v: Variant): string[] {
  const minCos = Math.min(...q.byVector.map((h) => h.raw ?? h.score));
  const maxBm = Math.max(0, ...q.byWords.map((h) => h.raw ?? 0));
  const key = (h: { entityType: string; id: string }) => `${h.entityType}:${h.id}`;
  type C = { id: string; cos: number; bm: number; share: number; vr: number; wr: number };
  const byKey = new Map<string, C>();
  q.byVector.forEach((h, i) =>
    byKey.set(key(h), { id: h.id, cos: h.raw ?? h.score, bm: 0, share: 0, vr: i, wr: q.byWords.length }),
  );
  q.byWords.forEach((h, i) => {
    const c = byKey.get(key(h)) ?? { id: h.id, cos: minCos, bm: 0, share: 0, vr: q.byVector.length, wr: i };
    c.bm = h.raw ?? 0;
    c.share = maxBm > 0 ? c.bm / maxBm : 0;
    c.wr = i;
    byKey.set(key(h), c);
  });
  const cands = [...byKey.values()];
  let score: (c: C) => number;
  if (v.zWeight !== undefined) {
    const stats = (xs: number[]) => {
      const m = mean(xs);
      return { m, sd: Math.sqrt(mean(xs.map((x) => (x - m) ** 2))) || 1 };
    };
    const sb = stats(q.byWords.map((h) => h.raw ?? 0).concat(q.byWords.length ? [] : [0]));
    const sc = stats(cands.map((c) => c.cos));
    const w = v.zWeight;
    score = (c) => (c.bm - sb.m) / sb.sd + (w * (c.cos - sc.m)) / sc.sd;
  } else {
    const f = LEARNED_FUSION;
    const best = Math.max(...cands.map((c) => c.cos));
    const words = queryWordCount(q.query);
    const keep = v.gate ? Math.max(0, v.gate(confidence(q))) : 1;
    const scale = v.idfExponent ? (rareWordIdf(813) / rareWordIdf(q.corpusSize)) ** v.idfExponent : 1;
    score = (c) => {
      const perWord = (c.bm / words) * scale;
      const vector =
        f.cosine * c.cos + f.cosineFromBest * (c.cos - best) + f.vectorRank / (f.vectorRankK + c.vr);
      return keep * vector + f.bm25PerWord * perWord + f.bm25PerWordTimesShare * perWord * c.share;
    };
  }
  return cands
    .map((c) => ({ c, s: score(c) }))
    .sort((a, b) => b.s - a.s || a.c.vr - b.c.vr || a.c.wr - b.c.wr)
    .map((x) => x.c.id);
}

const related = (qs: CollectedQuery[]) => qs.filter((q) => Object.keys(q.relevant).length > 0);
const mrr = (qs: CollectedQuery[], order: (q: CollectedQuery) => string[]) =>
  mean(qs.map((q) => reciprocalRank(order(q), q.relevant)));
const rankOf = (ids: string[], rel: Record<string, number>) => ids.findIndex((id) => (rel[id] ?? 0) > 0) + 1;
const keywordOrder = (q: CollectedQuery) => q.byWords.map((h) => h.id);
const vectorOrder = (q: CollectedQuery) => q.byVector.map((h) => h.id);
const shippedOrder = (q: CollectedQuery) =>
  fuseHybrid(q.byVector, q.byWords, q.query, q.corpusSize).map((h) => h.id);

/** The study's report, as lines of text. */
export function fusionStudy(sets: CollectedSet[]): string[] {
  const out: string[] = [];
  const all = sets.flatMap((s) => related(s.queries));
  const drift = all.filter((q) => shippedOrder(q).join() !== fuseVariant(q, { label: 'base' }).join());
  out.push(
    `Fusion study (base variant = fuseHybrid on ${all.length - drift.length} of ${all.length} queries)`,
  );
  if (drift.length) out.push(`!! the study's base differs from fuseHybrid on ${drift.length} queries`);
  const halves = (h: 'tune' | 'report') =>
    sets.map((s) => ({
      label: `${s.name} ${h}`,
      queries: related(s.queries).filter((q) => (q.half ?? 'tune') === h),
    }));
  const tune = halves('tune');
  const single = (qs: CollectedQuery[]) => Math.max(mrr(qs, keywordOrder), mrr(qs, vectorOrder));
  const scored = variants().map((v) => {
    const m = tune.map((g) => mrr(g.queries, (q) => fuseVariant(q, v)));
    return { v, m, margin: Math.min(...m.map((x, i) => x - single(tune[i]!.queries))) };
  });
  const ranked = [...scored].sort(
    (a, b) => b.margin - a.margin || b.m.reduce((s, x) => s + x, 0) - a.m.reduce((s, x) => s + x, 0),
  );
  out.push(
    `\nTune halves, MRR (${tune.map((g) => `${g.label} [${g.queries.length}]`).join(', ')}), best first:`,
  );
  for (const r of ranked.slice(0, 8).concat(ranked.filter((x) => x.v.label.startsWith('shipped'))))
    out.push(
      `  ${r.v.label.padEnd(44)}${r.m.map((x) => x.toFixed(4)).join('  ')}   smallest margin ${r.margin.toFixed(4)}`,
    );
  const chosen = ranked[0]!.v;
  const shipped = scored[0]!.v;
  out.push(`\nChosen on the tune halves: ${chosen.label}. Every set and half, MRR to 4 decimals:`);
  out.push(`  ${'set'.padEnd(16)}keyword  vector   shipped  chosen`);
  for (const s of sets)
    for (const [label, qs] of [
      ['all', related(s.queries)],
      ['tune', related(s.queries).filter((q) => (q.half ?? 'tune') === 'tune')],
      ['report', related(s.queries).filter((q) => q.half === 'report')],
    ] as const) {
      if (qs.length === 0) continue;
      const row = [mrr(qs, keywordOrder), mrr(qs, vectorOrder), mrr(qs, (q) => fuseVariant(q, shipped))];
      row.push(mrr(qs, (q) => fuseVariant(q, chosen)));
      out.push(`  ${`${s.name} ${label}`.padEnd(16)}${row.map((x) => x.toFixed(4).padEnd(9)).join('')}`);
    }
  // Where the shipped hybrid is below keyword on a report half, every question they rank apart.
  out.push(
    '\nReport halves: questions ranked better / worse by the shipped hybrid than by keyword (rank 0: not found)',
  );
  for (const g of halves('report')) {
    const apart = g.queries
      .map((q) => ({ q, k: rankOf(keywordOrder(q), q.relevant), h: rankOf(shippedOrder(q), q.relevant) }))
      .filter((x) => x.k !== x.h);
    // Rank 0 is "not in the list": worse than any rank.
    const better = apart.filter((x) => x.h > 0 && (x.k === 0 || x.h < x.k)).length;
    out.push(`  ${g.label}: ${better} better, ${apart.length - better} worse`);
    if (mrr(g.queries, shippedOrder) >= mrr(g.queries, keywordOrder)) continue;
    for (const { q, k, h } of apart)
      out.push(
        `    keyword ${String(k).padStart(3)}  hybrid ${String(h).padStart(3)}  vector ${String(rankOf(vectorOrder(q), q.relevant)).padStart(3)}  "${q.query}"`,
      );
  }
  return out;
}
