// Searches arriving while a large owner's in-memory index snapshot is being saved, side by side with
// another checkout. A save follows any start whose reconcile applied changes; each run makes one:
//   1. start the product on a filled data folder, ingest a few text files through the upload API,
//      and kill it (SIGKILL) once they are in the index, so its snapshot misses them;
//   2. start it again: the snapshot loads, the reconcile applies the files, a save begins; a
//      fixed-rate search load runs at once, during the save, with the RSS, event loop and the
//      save's own timings recorded.
// The burst used to take a million-item server past 20 GB RSS (docs/benchmarks/
// 2026-11-27-burst-during-save.md). Runs alternate between the checkouts; medians are printed.
// Run: node tests/bench/search/burst-during-save.ts --data .cache/bench/product-1m/current
//   [--baseline <checkout>] [--runs 3] [--mode keyword] [--rate 100] [--seconds 20] [--log FILE]
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { numberArg } from './bench-args.ts';
import { generateQueries } from './generate-items.ts';
import { drive, percentile } from './product-driver.ts';
import { startIngesting } from './product-ingest.ts';
import {
  THIS_CHECKOUT,
  checkoutAt,
  MEMORY_INDEX_BUILT,
  rssSampler,
  savedUser,
  signIn,
  startProduct,
  type Checkout,
  type ProductServer,
} from './product-server.ts';

const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const dataArg = arg('--data');
if (!dataArg) throw new Error('--data <a filled product data folder> is required');
// absolute: each checkout's server runs in its own folder
const dataDir = path.resolve(dataArg);
const baselineRoot = arg('--baseline');
const runs = numberArg('--runs', 3);
const mode = arg('--mode') ?? 'keyword';
const rate = numberArg('--rate', 100);
const seconds = numberArg('--seconds', 20);
const logFile = arg('--log');
const port = numberArg('--port', 4432);
const url = `http://127.0.0.1:${port}`;
const user = await savedUser(dataDir);
if (!user) throw new Error(`${dataDir} has no bench-user.json: fill it with product.bench.ts first`);

const say = (line: string) => {
  console.log(line);
  if (logFile) appendFileSync(logFile, `${line}\n`);
};
const SNAPSHOT_LOADED = /loaded an owner.s in-memory index from its snapshot/;
const SAVED = /saved an owner.s in-memory index snapshot/;

interface RunResult {
  p50: number;
  p95: number;
  p99: number;
  failed: number;
  requests: number;
  rssMaxMb: number;
  loopP99: number;
  saveMs: number;
  applied: number;
  killed: boolean;
}

/** The first log line matching `re`, parsed (the server logs JSON lines). */
function logLine(server: ProductServer, re: RegExp): Record<string, unknown> | undefined {
  const line = server
    .output()
    .split('\n')
    .find((l) => re.test(l));
  try {
    return line ? (JSON.parse(line) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A figure, or '-' when there is none (no answer came back). */
const f = (x: number | null | undefined, digits = 1): string =>
  typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '-';

/** Waits for a log line; a server that never prints it fails the run with its last output. */
async function expectLine(
  server: ProductServer,
  re: RegExp,
  what: string,
  timeoutMs = 600_000,
): Promise<void> {
  if ((await server.waitForLine(re, timeoutMs)) === undefined) {
    const tail = server.output().slice(-3_000);
    await server.stop();
    throw new Error(`the server did not ${what} within ${timeoutMs / 1000} s; its last output:\n${tail}`);
  }
}

async function oneRun(checkout: Checkout): Promise<RunResult> {
  const opts = { dataDir, port, maxRssMb: 9_000, timeoutMs: 600_000 };
  // 1. files the snapshot will miss
  const first = await startProduct(checkout, opts);
  await expectLine(first, MEMORY_INDEX_BUILT, 'load or build the memory index');
  const token = await signIn(url, user!);
  const ingest = startIngesting(url, () => token, 60);
  await new Promise((r) => setTimeout(r, 8_000));
  const ingested = await ingest.stop();
  await new Promise((r) => setTimeout(r, 8_000));
  first.child.kill('SIGKILL');
  await first.stop();
  // 2. the load during the save that follows the reconcile
  const server = await startProduct(checkout, opts);
  await expectLine(server, SNAPSHOT_LOADED, 'load the memory index from its snapshot');
  const loaded = logLine(server, SNAPSHOT_LOADED);
  await server.diagnostics();
  const rss = rssSampler(server.pid);
  const r = await drive({
    url,
    token: await signIn(url, user!),
    searchType: mode,
    queries: generateQueries(42, 200),
    uniqueTag: `B${Date.now()}n`,
    rate,
    durationS: seconds,
  });
  // a server killed over the RSS limit has no diagnostics: the run is recorded as killed
  const diag = await server.diagnostics().catch(() => undefined);
  const killed = diag === undefined;
  // (a server killed over the RSS limit saves nothing)
  const exited = new Promise((r) => server.child.once('exit', r));
  if (server.child.exitCode === null && server.child.signalCode === null)
    await Promise.race([server.waitForLine(SAVED, 300_000), exited]);
  const { maxMb } = rss.stop();
  const saved = logLine(server, SAVED);
  await server.stop();
  say(
    `  ${checkout.label}: ${mode} ${rate}/s ${seconds} s during the save: p50 ${f(r.p50)} p95 ${f(r.p95)} ` +
      `p99 ${f(r.p99)} ms (server p95 ${f(r.serverP95)}, index ${f(r.server.index?.p95)}), ` +
      `failed ${r.failed}/${r.requests}${r.firstFailure ? ` (${r.firstFailure})` : ''}, ` +
      `RSS max ${f(maxMb, 0)} MB${killed ? ' (KILLED over 9,000 MB)' : ''}, loop p99 ${diag?.eventLoop.p99.toFixed(1) ?? '-'} ms; ingested ${ingested.uploaded}, ` +
      `applied ${String(loaded?.applied)}; save ${String(saved?.ms)} ms ` +
      `(scan ${String(saved?.scanMs)}, freeze ${String(saved?.freezeMs)}, checksums ${String(saved?.checksumMs)})`,
  );
  return {
    p50: r.p50 ?? Number.NaN,
    p95: r.p95 ?? Number.NaN,
    p99: r.p99 ?? Number.NaN,
    failed: r.failed,
    requests: r.requests,
    rssMaxMb: maxMb,
    loopP99: diag?.eventLoop.p99 ?? Number.NaN,
    killed,
    saveMs: Number(saved?.ms ?? Number.NaN),
    applied: Number(loaded?.applied ?? 0),
  };
}

const checkouts = [
  ...(baselineRoot ? [checkoutAt('baseline', baselineRoot)] : []),
  checkoutAt('current', THIS_CHECKOUT),
];
say(
  `# burst during a snapshot save: ${dataDir}, ${runs} runs, ${mode} ${rate}/s for ${seconds} s; ` +
    checkouts.map((c) => `${c.label} ${c.commit}`).join(', '),
);
const results = new Map<string, RunResult[]>(checkouts.map((c) => [c.label, []]));
for (let run = 1; run <= runs; run++) {
  say(`run ${run}`);
  for (const c of checkouts) results.get(c.label)!.push(await oneRun(c));
}
const median = (xs: number[]) => percentile(xs, 50);
say('| checkout | p50 ms | p95 ms | p99 ms | failed | RSS max MB | loop p99 ms | save ms | killed |');
say('|---|---|---|---|---|---|---|---|---|');
for (const [label, rs] of results) {
  const m = (pick: (r: RunResult) => number, digits = 1) =>
    f(median(rs.map(pick).filter((x) => Number.isFinite(x))), digits);
  say(
    `| ${label} (median of ${rs.length}) | ${m((r) => r.p50)} | ${m((r) => r.p95)} | ${m((r) => r.p99)} | ` +
      `${m((r) => r.failed, 0)} | ${m((r) => r.rssMaxMb, 0)} | ${m((r) => r.loopP99)} | ${m((r) => r.saveMs, 0)} | ` +
      `${rs.filter((r) => r.killed).length} of ${rs.length} |`,
  );
}
