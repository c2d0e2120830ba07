// Where the product process's memory is (issue 21's RSS goal): `kaboodle --target=all` started on a
// folder the product bench filled (its snapshot saved: `product.bench.ts --count 100000 --reuse DIR
// --fill-only`, then one run), and after the big owner's in-memory index is loaded: RSS and its parts
// at rest, after 300 keyword searches and after 300 hybrid ones (one at a time; the first hybrid
// starts the query embedder's worker), then after 15 s of hybrid searches at 100/s (issue 21's load:
// sent at a fixed rate, not waiting for answers). The parts come from the diagnostics preload
// (product-diagnostics.ts): the main V8 heap, array buffers, other anonymous memory (worker heaps,
// native: usearch, LanceDB, onnxruntime, PGlite's WASM memory) and file-backed pages. Two settings
// side by side, alternating, medians of --runs: this checkout with two settings, or with --baseline
// another checkout's code (prepared as product.bench.ts's header says) against this one's:
//   node tests/bench/search/product-memory.bench.ts --data .cache/bench/product-100k/current \
//     [--runs 3] [--env NAME=VALUE ...] [--baseline-env NAME=VALUE ...] [--baseline CHECKOUT]
import path from 'node:path';
import { checkoutAt, savedUser, signIn, startProduct, THIS_CHECKOUT } from './product-server.ts';
import type { MemoryBreakdown } from './product-server.ts';
import { cpuMs, MEMORY_INDEX_BUILT, minorFaults, search } from './product-server.ts';
import { envArgs, intArg, stringArg } from './bench-args.ts';

const arg = stringArg;
// Absolute: each side's server runs in its own checkout's folder.
const DATA = arg('--data') && path.resolve(arg('--data')!);
if (!DATA) throw new Error('--data DIR: a folder the product bench filled (see the header)');
const RUNS = intArg('--runs', 3);
const SEARCHES = 300;
const sides = [
  {
    label: 'baseline',
    env: { ...envArgs('--env'), ...envArgs('--baseline-env') },
    checkout: checkoutAt('baseline', arg('--baseline') ?? THIS_CHECKOUT),
  },
  { label: 'current', env: envArgs('--env'), checkout: checkoutAt('current', THIS_CHECKOUT) },
];
const user = await savedUser(DATA);
if (!user) throw new Error(`${DATA}: no bench user (fill it with product.bench.ts --fill-only first)`);
const STAGES = ['at rest', 'after 300 keyword', 'after 300 hybrid', 'after hybrid 100/s'] as const;
const LOAD_RATE = 100;
const LOAD_SECONDS = 15;
/** The memory of each stage, and what the loaded stage cost per search. */
type Sample = Record<(typeof STAGES)[number], MemoryBreakdown> & {
  perSearch: { cpuAllMs: number; cpuMainMs: number; minorFaults: number };
};

async function oneRun({ env, checkout }: (typeof sides)[number]): Promise<Sample> {
  const server = await startProduct(checkout, { dataDir: DATA!, port: 0, env, maxRssMb: 8_192 });
  try {
    const token = await signIn(server.url, user!);
    if ((await server.waitForLine(MEMORY_INDEX_BUILT, 120_000)) === undefined)
      throw new Error('the big owner’s in-memory index was not loaded within 120 s');
    const run = async (type: string, query: string) => {
      const { status } = await search(server, token, query, type);
      if (status !== 200) throw new Error(`a ${type} search answered ${status}`);
    };
    const memory = async () => (await server.diagnostics()).memory!;
    await new Promise((r) => setTimeout(r, 5_000));
    const rest = await memory();
    for (let i = 0; i < SEARCHES; i++) await run('keyword', `glacier retreat ${i}`);
    const keyword = await memory();
    for (let i = 0; i < SEARCHES; i++) await run('hybrid', `ocean warming ${i}`);
    const hybrid = await memory();
    const cpuBefore = cpuMs(server.pid);
    const faultsBefore = minorFaults(server.pid);
    // Open loop: each search is sent on its tick whatever the earlier ones are doing; a failure is
    // kept (not left unhandled while later searches are still being sent) and reported at the end.
    const sent: Promise<void>[] = [];
    const failures: unknown[] = [];
    const started = performance.now();
    for (let i = 0; i < LOAD_RATE * LOAD_SECONDS; i++) {
      const due = started + (i * 1000) / LOAD_RATE - performance.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      sent.push(run('hybrid', `coral bleaching ${i}`).catch((err: unknown) => void failures.push(err)));
    }
    await Promise.all(sent);
    if (failures.length > 0)
      throw new Error(`${failures.length} of the searches at ${LOAD_RATE}/s failed`, { cause: failures[0] });
    const cpuAfter = cpuMs(server.pid);
    const searches = LOAD_RATE * LOAD_SECONDS;
    return {
      perSearch: {
        cpuAllMs: (cpuAfter.all - cpuBefore.all) / searches,
        cpuMainMs: (cpuAfter.main - cpuBefore.main) / searches,
        minorFaults: (minorFaults(server.pid) - faultsBefore) / searches,
      },
      'at rest': rest,
      'after 300 keyword': keyword,
      'after 300 hybrid': hybrid,
      'after hybrid 100/s': await memory(),
    };
  } finally {
    await server.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const results = new Map<string, Sample[]>(sides.map((s) => [s.label, []]));
console.log(`# Product memory, ${new Date().toISOString()}\n\ndata: ${DATA}; ${RUNS} run(s) per side`);
for (const s of sides)
  console.log(`${s.label}: ${s.checkout.root} (${s.checkout.commit}) ${JSON.stringify(s.env)}`);
for (let run = 1; run <= RUNS; run++) {
  for (const s of sides) {
    const sample = await oneRun(s);
    results.get(s.label)!.push(sample);
    console.log(`run ${run}/${RUNS} ${s.label}: RSS ${STAGES.map((st) => sample[st].rss).join(' / ')} MB`);
  }
}
const parts: [string, (m: MemoryBreakdown) => number][] = [
  ['RSS', (m) => m.rss],
  ['main V8 heap, total', (m) => m.heapTotal],
  ['array buffers', (m) => m.arrayBuffers],
  ['other anonymous', (m) => m.anonymous - m.heapTotal - m.arrayBuffers],
  ['file-backed', (m) => m.fileBacked],
];
// What the loaded stage cost per search: CPU (/proc, 10 ms ticks over ~15 s), and pages the kernel
// had to hand in (memory given back to it between searches comes back as faults).
console.log(`\nhybrid 100/s, per search (medians)\n\n| figure | ${sides.map((s) => s.label).join(' | ')} |`);
console.log(`|---|${sides.map(() => '---|').join('')}`);
for (const [name, key] of [
  ['CPU, all threads (ms)', 'cpuAllMs'],
  ['CPU, main thread (ms)', 'cpuMainMs'],
  ['minor page faults', 'minorFaults'],
] as const)
  console.log(
    `| ${name} | ${sides.map((s) => median(results.get(s.label)!.map((r) => r.perSearch[key])).toFixed(2)).join(' | ')} |`,
  );
console.log(`\nmedians, MB\n\n| stage: part | ${sides.map((s) => s.label).join(' | ')} |`);
console.log(`|---|${sides.map(() => '---|').join('')}`);
for (const st of STAGES)
  for (const [name, pick] of parts)
    console.log(
      `| ${st}: ${name} | ${sides.map((s) => median(results.get(s.label)!.map((r) => pick(r[st])))).join(' | ')} |`,
    );
