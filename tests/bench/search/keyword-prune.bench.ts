// Keyword query CPU of the big owner's memory index with and without dynamic pruning, side by side in
// one run (same index, same queries, alternating which goes first): per-query CPU time p50/p95/max for
// common-word queries (2–4 words, one of the corpus's five most frequent, the others of its top 40)
// and for the generator's own queries, at k 20 and 100; each pruned answer checked against the
// exhaustive one (keys and scores). Also the build + merge time and the postings' bytes (blocks apart).
// The corpus is the bench generator's (generate-items.ts), streamed into the index (never held).
// --zipf: a synthetic corpus instead, words drawn from a Zipf law (the scores spread as in real text).
// Run alone: node tests/bench/search/keyword-prune.bench.ts [--count N] [--seed S] [--queries Q] [--zipf]
import { createRowMapper, OwnerKeywordIndex, analyse, wordPairs } from '@kaboodle/search';
import { intArg } from './bench-args.ts';
import { generateItem, generateQueries, ownerOf, prng } from './generate-items.ts';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

interface Options {
  count: number;
  seed: number;
  queries: number;
  /** The bench generator's templated texts, or words drawn from a Zipf law (s = 1, 50,000 words). */
  corpus: 'generated' | 'zipf';
}

/** A synthetic document of the Zipf corpus: 5–150 words, its lead the first 8. */
function zipfDocument(r: () => number, cumulative: Float64Array): { text: string; lead: string } {
  const words = Array.from({ length: 5 + Math.floor(r() * r() * 145) }, () => {
    const x = r();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return `w${lo.toString(36)}q`;
  });
  const text = words.join(' ');
  return { text: `${text}\n${wordPairs(text)}`, lead: words.slice(0, 8).join(' ') };
}

function build(opts: Options): { index: OwnerKeywordIndex; common: string[]; ms: number; docs: number } {
  const mapper = createRowMapper(1, 100_000);
  const index = new OwnerKeywordIndex();
  const r = prng(opts.seed);
  const cumulative = new Float64Array(50_000);
  for (let i = 0, run = 0; i < cumulative.length; i++) cumulative[i] = run += 1 / (i + 1);
  for (let i = 0; i < cumulative.length; i++) cumulative[i]! /= cumulative[cumulative.length - 1]!;
  const df = new Map<string, number>();
  let docs = 0;
  const t = performance.now();
  for (let i = 0; i < opts.count; i++) {
    if (ownerOf(i) !== 'bench-big') continue;
    let text: string;
    if (opts.corpus === 'zipf') {
      const d = zipfDocument(r, cumulative);
      text = d.text;
      index.load(`z${i}`, i % 3 === 2 ? 'inventory_item' : 'document', text, d.lead);
    } else {
      const row = mapper.toRow({ ...generateItem(opts.seed, i).entity, vector: new Float32Array([1]) });
      text = row.search_text;
      index.load(row.key, row.entity_type, text, row.content_head);
    }
    docs++;
    // the most frequent words, from the first 20,000 texts (pairs left out: a query's words make them)
    if (docs <= 20_000)
      for (const w of new Set(analyse(text))) if (!/[a-z]0[a-z]/.test(w)) df.set(w, (df.get(w) ?? 0) + 1);
    if (i % 100_000 === 0 && i > 0) process.stdout.write(`  loaded ${i.toLocaleString('en')}\n`);
  }
  index.markReady();
  index.mergeNow();
  const common = [...df].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  return { index, common: common.slice(0, 40), ms: performance.now() - t, docs };
}

function commonQueries(common: string[], seed: number, count: number): string[] {
  const r = prng(seed);
  return Array.from({ length: count }, (_, i) => {
    const words = new Set([common[Math.floor(r() * 5)]!]);
    while (words.size < 2 + (i % 3)) words.add(common[Math.floor(r() * common.length)]!);
    return [...words].join(' ');
  });
}

function run(index: OwnerKeywordIndex, queries: string[], k: number) {
  const pruned: number[] = [];
  const exhaustive: number[] = [];
  let mismatches = 0;
  for (const [i, q] of queries.entries()) {
    const order = i % 2 === 0 ? (['p', 'e'] as const) : (['e', 'p'] as const);
    const got: Record<string, unknown> = {};
    for (const which of order) {
      // CPU time (user + system, µs), not wall time: on a shared machine the wall clock counts the
      // other processes' turns too
      const t = process.cpuUsage();
      got[which] = which === 'p' ? index.search(q, k) : index.searchExhaustive(q, k);
      const used = process.cpuUsage(t);
      (which === 'p' ? pruned : exhaustive).push((used.user + used.system) / 1000);
    }
    if (JSON.stringify(got.p) !== JSON.stringify(got.e)) mismatches++;
  }
  const f = (xs: number[]) =>
    `${pct(xs, 50).toFixed(2)} / ${pct(xs, 95).toFixed(2)} / ${Math.max(...xs).toFixed(2)}`;
  return { exhaustive: f(exhaustive), pruned: f(pruned), mismatches };
}

export function keywordPruneBench(opts: Options): void {
  console.log(
    `keyword pruning, ${opts.count.toLocaleString('en')}-item ${opts.corpus} corpus (seed ${opts.seed}):`,
  );
  const { index, common, ms, docs } = build(opts);
  const m = index.memory();
  console.log(
    `  big owner ${docs.toLocaleString('en')} documents, build + merge ${(ms / 1000).toFixed(1)} s; postings ${(m.postings / 1048576).toFixed(1)} MB, of which blocks ${(m.blocks / 1048576).toFixed(1)} MB (${((100 * m.blocks) / m.postings).toFixed(1)} %)`,
  );
  console.log(`  most frequent words: ${common.slice(0, 10).join(', ')}`);
  const commonWords = commonQueries(common, opts.seed, opts.queries);
  const sets: Record<string, string[]> = { 'common words': commonWords };
  if (opts.corpus === 'generated') sets['generator queries'] = generateQueries(opts.seed, opts.queries);
  // warm-up: both paths compiled before anything is timed
  for (const q of commonWords.slice(0, 20)) {
    index.search(q, 20);
    index.searchExhaustive(q, 20);
  }
  console.log(
    '  queries            k    exhaustive p50 / p95 / max ms   pruned p50 / p95 / max ms   mismatches (CPU ms a query)',
  );
  for (const [name, qs] of Object.entries(sets))
    for (const k of [20, 100]) {
      const r = run(index, qs, k);
      console.log(
        `  ${name.padEnd(18)} ${String(k).padEnd(4)} ${r.exhaustive.padEnd(31)} ${r.pruned.padEnd(27)} ${r.mismatches}`,
      );
    }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  keywordPruneBench({
    count: intArg('--count', 100_000),
    seed: intArg('--seed', 42),
    queries: intArg('--queries', 300),
    corpus: process.argv.includes('--zipf') ? 'zipf' : 'generated',
  });
}
