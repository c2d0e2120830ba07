// Issue 21's figures on the real product process: `kaboodle --target=all` (embedded defaults) with the
// generated corpus in its search index under a signed-up user's id (99 % of the items), driven over
// HTTP from a separate process at fixed offered rates: keyword 100/s, hybrid 100/s, semantic kNN
// 50/s; client p50/p95/p99/max, the server's Server-Timing p95, its RSS (max, end), event-loop delay
// p99/max and GC pauses during each run; recall@10 of semantic answers against exact kNN; the same
// runs while 300 text files/min are uploaded; and cold start (spawn → first search answered, and
// → the big owner's in-memory index built). With --baseline, today's code runs the same phases,
// alternating, and the medians print side by side.
// Run: node tests/bench/search/product.bench.ts [--count 100000] [--runs 3] [--duration 15]
//   [--reuse DIR] (fill once, keep: DIR/<side>) [--baseline CHECKOUT] [--log FILE] [--port N]
//   [--ingest-rate 300] [--modes keyword,hybrid,semantic] [--no-ingest] [--recall-queries 100]
//   [--env NAME=VALUE ...] (extra server settings, both sides) [--seed 42]
//   [--baseline-env NAME=VALUE ...] (the baseline side only: a setting side by side; --baseline . runs
//   this checkout on both sides)
//   [--max-rss 8192] (MB: the server is killed past it, the run fails: the machine is shared)
//   [--settle-timeout 180] (s: a start's snapshot save is waited for before measuring, at most this)
//   [--fill-only] (sign up and fill each side's folder, then stop: a fill need not run on a quiet machine)
// A baseline checkout: git worktree add --detach /tmp/kb-baseline f1a3b1a &&
//   (cd /work/<this checkout> && find . -name node_modules -prune -type d -not -path './.tools/*' \
//     -exec cp -al {} /tmp/kb-baseline/{} \;)  (hard-linked copies: the baseline must run its own code)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { envArgs, intArg, numberArg, stringArg } from './bench-args.ts';
import { generateQueries } from './generate-items.ts';
import { drive, type DriverResult } from './product-driver.ts';
import { startIngesting, type IngestReport } from './product-ingest.ts';
import { exactTop10, recallAt10, type RecallSet } from './product-recall.ts';
import {
  checkoutAt,
  cpuMs,
  rssMb,
  rssSampler,
  savedUser,
  signIn,
  signUp,
  startProduct,
  THIS_CHECKOUT,
} from './product-server.ts';
import type { BenchUser, Checkout, MemoryBreakdown, ProductServer } from './product-server.ts';
import { LOADED_UNCHANGED, MEMORY_INDEX_BUILT, search, SNAPSHOT_SAVED } from './product-server.ts';

const arg = stringArg;
const COUNT = intArg('--count', 100_000);
const SEED = intArg('--seed', 42);
const RUNS = intArg('--runs', 3);
const DURATION = numberArg('--duration', 15);
const INGEST_RATE = numberArg('--ingest-rate', 300);
const RECALL_QUERIES = intArg('--recall-queries', 100);
const PORT = Number(arg('--port') ?? 0);
const READY_TIMEOUT_S = numberArg('--ready-timeout', 300);
/** How long a start's snapshot save is waited for before the measured phases (see measure). */
const SETTLE_TIMEOUT_S = numberArg('--settle-timeout', 180);
const MAX_RSS_MB = numberArg('--max-rss', 8_192);
const INGEST = !process.argv.includes('--no-ingest');
const REUSE = arg('--reuse');
const LOG = arg('--log');
const SERVER_ENV = envArgs('--env');
const BASELINE_ENV = envArgs('--baseline-env');
/** The server settings of a side: --env, and on the baseline --baseline-env over them. */
const envOf = (side: Checkout) =>
  side.label === 'baseline' ? { ...SERVER_ENV, ...BASELINE_ENV } : SERVER_ENV;
const MODES = [
  { name: 'keyword', searchType: 'keyword', rate: 100 },
  { name: 'hybrid', searchType: 'hybrid', rate: 100 },
  { name: 'semantic', searchType: 'vector', rate: 50 },
].filter((m) => (arg('--modes') ?? 'keyword,hybrid,semantic').split(',').includes(m.name));

const lines: string[] = [];
const say = (line = '') => {
  lines.push(line);
  console.log(line);
};
const f = (x: number | undefined, digits = 1) =>
  x === undefined || !Number.isFinite(x) ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(digits);
const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- sides and their data folders ------------------------------------------------------------
const sides: Checkout[] = [checkoutAt('current', THIS_CHECKOUT)];
const baselineAt = arg('--baseline');
if (baselineAt) sides.unshift(checkoutAt('baseline', baselineAt));

say(`# Search on the product process (${new Date().toISOString()})`);
say();
say(`command: node tests/bench/search/product.bench.ts ${process.argv.slice(2).join(' ')}`);
say(
  `corpus: ${COUNT.toLocaleString('en')} generated items (99 % one signed-up owner), seed ${SEED}; ` +
    `${RUNS} run(s) per side of ${DURATION} s per mode; ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
);
for (const s of sides) say(`${s.label}: ${s.root} at ${s.commit}`);
if (Object.keys(SERVER_ENV).length) say(`server settings: ${JSON.stringify(SERVER_ENV)}`);
if (Object.keys(BASELINE_ENV).length) say(`baseline's own settings: ${JSON.stringify(BASELINE_ENV)}`);

const recall: RecallSet = await exactTop10(SEED, COUNT, RECALL_QUERIES, (l) => say(l));

/** A data folder with the bench user and the filled index (made once, kept with --reuse). */
async function prepare(side: Checkout): Promise<{ dir: string; user: BenchUser; temporary: boolean }> {
  const dir = REUSE
    ? path.resolve(REUSE, side.label)
    : await mkdtemp(path.join(os.tmpdir(), `kb-product-${side.label}-`));
  const stamp = path.join(dir, 'bench-fill.json');
  if (existsSync(stamp)) {
    const was = JSON.parse(await readFile(stamp, 'utf8')) as { count: number; seed: number; commit: string };
    const user = await savedUser(dir);
    if (was.count === COUNT && was.seed === SEED && user) {
      say(
        `${side.label}: reusing ${dir} (filled by ${was.commit}${was.commit !== side.commit ? `, now ${side.commit}: delete the folder to refill` : ''})`,
      );
      return { dir, user, temporary: false };
    }
    say(`${side.label}: ${dir} holds ${was.count} items of seed ${was.seed}: filling again`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const first = await startProduct(side, {
    dataDir: dir,
    port: PORT,
    env: envOf(side),
    maxRssMb: MAX_RSS_MB,
  });
  let user: BenchUser;
  try {
    user = await signUp(first, dir);
  } finally {
    await first.stop();
  }
  const fill = spawnSync(
    process.execPath,
    [
      path.join(path.dirname(fileURLToPath(import.meta.url)), 'product-fill.ts'),
      side.root,
      dir,
      String(COUNT),
      String(SEED),
      user.id,
    ],
    { stdio: 'inherit' },
  );
  if (fill.status !== 0)
    throw new Error(`${side.label}: filling the index exited with ${fill.status ?? fill.signal}`);
  await writeFile(stamp, JSON.stringify({ count: COUNT, seed: SEED, commit: side.commit }));
  say(
    `${side.label}: signed up, verified and filled ${dir} in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return { dir, user, temporary: !REUSE };
}

// ---- one run: start, cold start, recall, the modes quiet and while ingesting, stop --------------
interface ModeFigures extends DriverResult {
  /** The server's CPU time over the run divided by its requests (ms): main thread, all threads. */
  cpuMainPerRequest: number;
  cpuAllPerRequest: number;
  rssMaxMb: number;
  rssEndMb: number;
  loopP99: number;
  loopMax: number;
  gcCount: number;
  gcTotalMs: number;
  gcMaxMs: number;
}
interface RunFigures {
  listeningS: number;
  firstAnswerS: number;
  memoryIndexS: number;
  firstFromMemoryS: number;
  recall: number;
  quiet: Record<string, ModeFigures>;
  ingesting: Record<string, ModeFigures>;
  ingest?: IngestReport;
  rssEndMb: number;
  /** Where the RSS is at the end (the diagnostics preload's breakdown). */
  memoryEnd?: MemoryBreakdown;
}

/**
 * Each run starts on an idle server: an overloaded run leaves requests queued inside it (the driver
 * gave up on them, the server did not), so wait until a kNN probe answers within 100 ms three times running.
 */
let settleSerial = 0;
async function settle(server: ProductServer, token: string): Promise<void> {
  await sleep(2_000);
  const until = performance.now() + 120_000;
  for (let fast = 0; fast < 3 && performance.now() < until;) {
    const t = performance.now();
    // a new text each time: it waits behind any queued embedding, and no cache answers it
    await search(server, token, `settle ${++settleSerial}`, 'vector');
    fast = performance.now() - t < 100 ? fast + 1 : 0;
    await sleep(200);
  }
}

async function measureMode(server: ProductServer, token: string, mode: (typeof MODES)[number], tag: string) {
  await settle(server, token);
  await server.diagnostics(); // starts the server's counters afresh
  const rss = rssSampler(server.pid);
  const cpuBefore = cpuMs(server.pid);
  const result = await drive({
    url: server.url,
    token,
    searchType: mode.searchType,
    queries: generateQueries(SEED + 1, 2_000),
    uniqueTag: tag,
    rate: mode.rate,
    durationS: DURATION,
  });
  const cpu = cpuMs(server.pid);
  const d = await server.diagnostics();
  const mem = rss.stop();
  return {
    ...result,
    cpuMainPerRequest: (cpu.main - cpuBefore.main) / Math.max(1, result.requests),
    cpuAllPerRequest: (cpu.all - cpuBefore.all) / Math.max(1, result.requests),
    rssMaxMb: mem.maxMb,
    rssEndMb: mem.endMb,
    loopP99: d.eventLoop.p99,
    loopMax: d.eventLoop.max,
    gcCount: d.gc.count,
    gcTotalMs: d.gc.totalMs,
    gcMaxMs: d.gc.maxMs,
  } satisfies ModeFigures;
}

let runSerial = 0;
/** Where a run is, with the server's RSS (on the terminal only, not in the log): a failed run says how far it got. */
const progress = (server: ProductServer, what: string) =>
  console.log(
    `  ${((performance.now() - server.spawnedAt) / 1000).toFixed(0)} s: ${what}; RSS ${f(rssMb(server.pid), 0)} MB`,
  );
async function oneRun(
  side: Checkout,
  data: { dir: string; user: BenchUser; memoryIndexFits: boolean },
): Promise<RunFigures> {
  const server = await startProduct(side, {
    dataDir: data.dir,
    port: PORT,
    env: envOf(side),
    maxRssMb: MAX_RSS_MB,
  });
  try {
    return await measureRun(server, data);
  } catch (err) {
    const killed = /\[bench\] killed: .*/.exec(server.output())?.[0];
    throw new Error(killed ?? (err as Error).message, { cause: err });
  } finally {
    await server.stop();
  }
}

async function measureRun(
  server: ProductServer,
  data: { dir: string; user: BenchUser; memoryIndexFits: boolean },
): Promise<RunFigures> {
  const token = await signIn(server.url, data.user);
  // Cold start: the first search answered 200, then the first after the in-memory index is built.
  let firstAnswer = NaN;
  const deadline = performance.now() + READY_TIMEOUT_S * 1000;
  while (performance.now() < deadline) {
    const r = await search(server, token, 'ocean warming', 'keyword');
    if (r.status === 200) {
      firstAnswer = performance.now() - server.spawnedAt;
      break;
    }
    await sleep(100);
  }
  // Only an owner that fits under the checkout's SEARCH_MEMORY_INDEX_MAX gets one (the log is silent otherwise).
  const built = data.memoryIndexFits
    ? await server.waitForLine(MEMORY_INDEX_BUILT, Math.max(0, deadline - performance.now()))
    : undefined;
  let fromMemory = NaN;
  if (built !== undefined && (await search(server, token, 'glacier retreat', 'keyword')).status === 200)
    fromMemory = performance.now() - server.spawnedAt;

  progress(server, `first answer ${f(firstAnswer / 1000)} s, in-memory index ${f((built ?? NaN) / 1000)} s`);
  // A build, or a load whose reconcile changed something (the last run's ingest phases write to the
  // folder), is followed by a snapshot save: its scan, copies and checksums share the thread with
  // the searches, so the phases wait for it. Bounded: a checkout without snapshots logs no save.
  if (built !== undefined && (await server.waitForLine(LOADED_UNCHANGED, 0)) === undefined) {
    const saved = await server.waitForLine(SNAPSHOT_SAVED, SETTLE_TIMEOUT_S * 1000);
    progress(server, saved === undefined ? 'no snapshot save seen' : `snapshot saved ${f(saved / 1000)} s`);
  }

  // Recall@10 of semantic (kNN) answers, one query at a time on the quiet server.
  const answers: string[][] = [];
  for (const q of recall.queries) answers.push((await search(server, token, q, 'vector', 20)).ids);
  const figures: RunFigures = {
    listeningS: server.listeningMs / 1000,
    firstAnswerS: firstAnswer / 1000,
    memoryIndexS: (built ?? NaN) / 1000,
    firstFromMemoryS: fromMemory / 1000,
    recall: recallAt10(recall, answers),
    quiet: {},
    ingesting: {},
    rssEndMb: NaN,
  };
  progress(server, `recall@10 ${f(figures.recall, 3)}`);
  // Warm-up: the query embedder's worker, caches and the HTTP path.
  await drive({
    url: server.url,
    token,
    searchType: 'hybrid',
    queries: generateQueries(SEED + 2, 50),
    uniqueTag: 'w',
    rate: 20,
    durationS: 3,
  });
  for (const m of MODES) {
    figures.quiet[m.name] = await measureMode(server, token, m, `r${++runSerial}n`);
    progress(server, `${m.name}: p95 ${f(figures.quiet[m.name]!.p95)} ms`);
  }
  if (INGEST) {
    const ingest = startIngesting(server.url, () => token, INGEST_RATE);
    await sleep(10_000); // the pipeline's workers and models load before the first measured run
    for (const m of MODES) {
      figures.ingesting[m.name] = await measureMode(server, token, m, `r${++runSerial}n`);
      progress(server, `${m.name} while ingesting: p95 ${f(figures.ingesting[m.name]!.p95)} ms`);
    }
    figures.ingest = await ingest.stop();
  }
  figures.rssEndMb = rssMb(server.pid);
  figures.memoryEnd = (await server.diagnostics()).memory;
  return figures;
}

// ---- the runs, alternating sides ----------------------------------------------------------------
/** The checkout's SEARCH_MEMORY_INDEX_MAX with the bench's settings (its own default otherwise). */
function memoryIndexMax(side: Checkout): number {
  const config = pathToFileURL(path.join(side.root, 'services/search/src/search-config.ts')).href;
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { searchConfig } from '${config}'; console.log(searchConfig.parse(process.env).SEARCH_MEMORY_INDEX_MAX)`,
    ],
    { cwd: side.root, env: { ...process.env, ...envOf(side) }, encoding: 'utf8' },
  );
  const n = Number(r.stdout.trim());
  if (r.status !== 0 || !Number.isFinite(n))
    throw new Error(`${side.label}: reading SEARCH_MEMORY_INDEX_MAX failed: ${r.stderr}`);
  return n;
}

const prepared = new Map<
  Checkout,
  { dir: string; user: BenchUser; temporary: boolean; memoryIndexFits: boolean }
>();
for (const side of sides) {
  const max = memoryIndexMax(side);
  const bigOwner = COUNT - Math.floor(COUNT / 100);
  const memoryIndexFits = bigOwner > 5_000 && bigOwner <= max;
  if (!memoryIndexFits)
    say(
      `${side.label}: the big owner's ${bigOwner.toLocaleString('en')} items get no in-memory index (SEARCH_MEMORY_INDEX_MAX ${max.toLocaleString('en')}): the table answers`,
    );
  prepared.set(side, { ...(await prepare(side)), memoryIndexFits });
}
if (process.argv.includes('--fill-only')) {
  say('--fill-only: the folders are filled; no runs');
  process.exit(0);
}
const results = new Map<Checkout, RunFigures[]>(sides.map((s) => [s, []]));
const failures: string[] = [];
try {
  for (let r = 1; r <= RUNS; r++) {
    for (const side of sides) {
      let fig: RunFigures;
      try {
        fig = await oneRun(side, prepared.get(side)!);
      } catch (err) {
        // One failed run (a server killed past --max-rss, a crash) leaves the others' figures standing.
        failures.push(`run ${r} ${side.label}: ${(err as Error).message.split('\n')[0]}`);
        say(`run ${r}/${RUNS} ${side.label}: FAILED: ${(err as Error).message}`);
        continue;
      }
      results.get(side)!.push(fig);
      const q = (m: string) => fig.quiet[m];
      say(
        `run ${r}/${RUNS} ${side.label}: ready ${f(fig.firstAnswerS)} s, in-memory index ${f(fig.memoryIndexS)} s, recall@10 ${f(fig.recall, 3)}; ` +
          MODES.map(
            (m) =>
              `${m.name} p95 ${f(q(m.name)?.p95)} p99 ${f(q(m.name)?.p99)} ms, CPU ${f(q(m.name)?.cpuMainPerRequest, 2)} ms main`,
          ).join(', ') +
          (fig.ingest ? `; ingest ${f(fig.ingest.completedPerMin, 0)} files/min` : ''),
      );
    }
  }
} finally {
  for (const p of prepared.values()) if (p.temporary) rmSync(p.dir, { recursive: true, force: true });
}

// ---- medians side by side -------------------------------------------------------------------------
const med = (side: Checkout, pick: (r: RunFigures) => number | undefined) =>
  median(results.get(side)!.map((r) => pick(r) ?? NaN));
const rows: [string, (r: RunFigures) => number | undefined, number?][] = [
  ['cold start: listening (s)', (r) => r.listeningS],
  ['cold start: first search answered (s)', (r) => r.firstAnswerS, 30],
  ['cold start: big owner in-memory index built (s)', (r) => r.memoryIndexS],
  ['cold start: first answer from the in-memory index (s)', (r) => r.firstFromMemoryS, 30],
  ['recall@10, semantic vs exact kNN (ties count)', (r) => r.recall, 0.95],
];
const goals: Record<string, { p95: number; p99: number }> = {
  keyword: { p95: 15, p99: 50 },
  hybrid: { p95: 30, p99: 80 },
};
for (const phase of ['quiet', 'ingesting'] as const) {
  if (phase === 'ingesting' && !INGEST) continue;
  for (const m of MODES) {
    const at = `${m.name} ${m.rate}/s${phase === 'ingesting' ? ' + ingest' : ''}`;
    const g = (r: RunFigures) => r[phase][m.name];
    rows.push(
      [`${at}: p50 (ms)`, (r) => g(r)?.p50],
      [`${at}: p95 (ms)`, (r) => g(r)?.p95, goals[m.name]?.p95],
      [`${at}: p99 (ms)`, (r) => g(r)?.p99, goals[m.name]?.p99],
      [`${at}: max (ms)`, (r) => g(r)?.max],
      [`${at}: server p95 (ms)`, (r) => g(r)?.serverP95],
      [`${at}: server CPU per request, main thread (ms)`, (r) => g(r)?.cpuMainPerRequest],
      [`${at}: server CPU per request, all threads (ms)`, (r) => g(r)?.cpuAllPerRequest],
      [`${at}: failed requests`, (r) => g(r)?.failed],
      [`${at}: event-loop delay p99 (ms)`, (r) => g(r)?.loopP99, m.name === 'keyword' ? 10 : undefined],
      [`${at}: event-loop delay max (ms)`, (r) => g(r)?.loopMax],
      [`${at}: GC pauses (count)`, (r) => g(r)?.gcCount],
      [`${at}: GC pauses total (ms)`, (r) => g(r)?.gcTotalMs],
      [`${at}: GC pause max (ms)`, (r) => g(r)?.gcMaxMs],
      [`${at}: RSS max (MB)`, (r) => g(r)?.rssMaxMb],
    );
  }
}
if (INGEST) rows.push(['ingestion while searching (files/min completed)', (r) => r.ingest?.completedPerMin]);
rows.push([
  'RSS at the end (MB)',
  (r) => r.rssEndMb,
  COUNT >= 1_000_000 ? 4096 : COUNT <= 100_000 ? 1024 : undefined,
]);
// The end's RSS apart: the main thread's V8 heap, its typed arrays, the other anonymous pages (the
// worker threads' heaps and native memory: usearch, LanceDB, onnxruntime) and mapped files.
const m = (r: RunFigures) => r.memoryEnd;
rows.push(
  ['at the end: main V8 heap, total (MB)', (r) => m(r)?.heapTotal],
  ['at the end: array buffers (MB)', (r) => m(r)?.arrayBuffers],
  [
    'at the end: other anonymous memory (MB)',
    (r) => (m(r) ? m(r)!.anonymous - m(r)!.heapTotal - m(r)!.arrayBuffers : undefined),
  ],
  ['at the end: file-backed (MB)', (r) => m(r)?.fileBacked],
);

say();
say(
  `medians of ${RUNS} run(s) per side, failed runs left out (goal: issue 21's bound, higher is better only for recall and files/min)`,
);
say();
say(`| figure | ${sides.map((s) => `${s.label} (${s.commit})`).join(' | ')} | goal |`);
say(`|---|${sides.map(() => '---|').join('')}---|`);
for (const [label, pick, goal] of rows) {
  const digits = label.startsWith('recall') ? 3 : label.includes('CPU per request') ? 2 : 1;
  say(
    `| ${label} | ${sides.map((s) => f(med(s, pick), digits)).join(' | ')} | ${goal === undefined ? '' : (label.startsWith('recall') ? '≥ ' : '≤ ') + goal} |`,
  );
}
if (failures.length) say(`\nfailed runs (not in the medians): ${failures.join('; ')}`);
const firstFailure = [...results.values()]
  .flat()
  .flatMap((r) => [...Object.values(r.quiet), ...Object.values(r.ingesting)])
  .find((m) => m.firstFailure);
if (firstFailure) say(`\nfirst failed request: ${firstFailure.firstFailure}`);
const rejected = [...results.values()].flat().find((r) => r.ingest?.firstRejection);
if (rejected) say(`first rejected upload: ${rejected.ingest!.firstRejection}`);
say();
say(
  'Event-loop delay: perf_hooks.monitorEventLoopDelay sampled every 1 ms in the server (an idle loop reads ~1 ms); GC: PerformanceObserver gc entries; both from tests/bench/search/product-diagnostics.ts, preloaded. RSS: /proc/<pid>/status VmRSS every 200 ms. CPU per request: the server’s utime + stime over the run (/proc/<pid>/stat, the main thread from /proc/<pid>/task/<pid>/stat) divided by the requests sent, background work included.',
);
if (LOG) {
  writeFileSync(LOG, `${lines.join('\n')}\n`);
  console.log(`log written to ${LOG}`);
}
