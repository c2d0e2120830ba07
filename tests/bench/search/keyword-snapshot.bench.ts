// CPU per keyword query of a saved owner keyword index (the product's snapshot, loaded in 0.5 s instead
// of a 3-minute build): the bench generator's queries and common-word queries (2–4 of the corpus's 40
// most frequent words, one of its top five), at k 20 (a keyword search) and 60 (a hybrid's keyword
// list). Run it in two checkouts on the same snapshot to compare them; CPU time, not wall time.
// Run: node tests/bench/search/keyword-snapshot.bench.ts <dir> [--queries 400] [--rounds 3]
//   <dir>: .cache/bench/product-1m/current/search/memory-snapshots/<table>/<owner>/<generation>/keywords
import { OwnerKeywordIndex, analyse, createRowMapper } from '@kaboodle/search';
import { intArg } from './bench-args.ts';
import { generateItem, generateQueries, prng } from './generate-items.ts';

const dir = process.argv[2];
if (!dir || dir.startsWith('--')) throw new Error('usage: keyword-snapshot.bench.ts <keywords snapshot dir>');
const QUERIES = intArg('--queries', 400);
const ROUNDS = intArg('--rounds', 3);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

/** The 40 most frequent words of the generator's first 20,000 texts (as keyword-prune.bench.ts). */
function commonWords(): string[] {
  const mapper = createRowMapper(1, 100_000);
  const df = new Map<string, number>();
  for (let i = 0; i < 20_000; i++) {
    const row = mapper.toRow({ ...generateItem(42, i).entity, vector: new Float32Array([1]) });
    for (const w of new Set(analyse(row.search_text)))
      if (!/[a-z]0[a-z]/.test(w)) df.set(w, (df.get(w) ?? 0) + 1);
  }
  return [...df]
    .sort((a, b) => b[1] - a[1])
    .map(([w]) => w)
    .slice(0, 40);
}

const started = performance.now();
const index = await OwnerKeywordIndex.loadFrom(dir);
console.log(`loaded ${dir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const common = commonWords();
const r = prng(42);
const sets: Record<string, string[]> = {
  generator: generateQueries(42, QUERIES),
  common: Array.from({ length: QUERIES / 2 }, (_, i) => {
    const words = new Set([common[Math.floor(r() * 5)]!]);
    while (words.size < 2 + (i % 3)) words.add(common[Math.floor(r() * common.length)]!);
    return [...words].join(' ');
  }),
};
for (const q of sets.generator!.slice(0, 40)) index.search(q, 20); // compiled before anything is timed
console.log('queries     k    p50 / p95 / max / mean CPU ms a query (per round)');
for (let round = 1; round <= ROUNDS; round++)
  for (const [name, qs] of Object.entries(sets))
    for (const k of [20, 60]) {
      const t: number[] = [];
      for (const q of qs) {
        const c = process.cpuUsage();
        index.search(q, k);
        const u = process.cpuUsage(c);
        t.push((u.user + u.system) / 1000);
      }
      const mean = t.reduce((a, b) => a + b, 0) / t.length;
      console.log(
        `${name.padEnd(11)} ${String(k).padEnd(4)} ${[pct(t, 50), pct(t, 95), Math.max(...t), mean].map((x) => x.toFixed(2)).join(' / ')}  (round ${round})`,
      );
    }
