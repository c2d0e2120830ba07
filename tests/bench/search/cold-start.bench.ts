// Cold start of the embedded search index with a big owner: the time from opening the adapter to the
// big owner's memory index being ready, built from the table (no snapshot) and loaded from its
// snapshot (with a reconcile of writes the snapshot missed), the longest event-loop block meanwhile,
// the snapshot's save time and size on disk, and RSS.
// Vectors are deterministic pseudo-random unit vectors (512 dims, USE-lite's size), not embeddings:
// load and build costs depend on sizes, not meaning, and no embedder or vector cache is needed.
// Run: node tests/bench/search/cold-start.bench.ts [--count N] [--seed S] [--keep DIR [--no-build]]
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createLogger } from '@kaboodle/platform';
import { createLanceDbSearchIndex } from '@kaboodle/search';
import type { IndexedEntity } from '@kaboodle/search';
import { generateItem, generateQueries, ownerOf, prng } from './generate-items.ts';
import { intArg } from './bench-args.ts';

const COUNT = intArg('--count', 100_000);
const SEED = intArg('--seed', 42);
const DIMS = 512;
const BATCH = 1_000;
const MODEL = 'bench-pseudo-random';
const big = ownerOf(0);

const keepAt = process.argv.indexOf('--keep');
const keep = keepAt >= 0 ? process.argv[keepAt + 1] : undefined;
const dir = keep ?? (await mkdtemp(path.join(os.tmpdir(), 'kaboodle-cold-start-')));
const snapshots = path.join(dir, 'memory-snapshots');
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function vectors(from: number, to: number): Float32Array {
  const out = new Float32Array((to - from) * DIMS);
  for (let i = from; i < to; i++) {
    const r = prng(SEED * 7_919 + i);
    let n = 0;
    for (let j = 0; j < DIMS; j++) {
      const x = r() - 0.5;
      out[(i - from) * DIMS + j] = x;
      n += x * x;
    }
    n = Math.sqrt(n);
    for (let j = 0; j < DIMS; j++) out[(i - from) * DIMS + j]! /= n;
  }
  return out;
}
/** The generator's items from..to (no passages) with pseudo-random vectors. */
function entities(from: number, to: number): IndexedEntity[] {
  const v = vectors(from, to);
  return Array.from({ length: to - from }, (_, k) => ({
    ...generateItem(SEED, from + k).entity,
    vector: v.subarray(k * DIMS, (k + 1) * DIMS),
    passages: [],
  }));
}

async function folderBytes(d: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(d, e.name);
    total += e.isDirectory() ? await folderBytes(p) : (await stat(p)).size;
  }
  return total;
}

function open(memoryIndex: boolean) {
  return createLanceDbSearchIndex({
    dir,
    dimensions: DIMS,
    model: MODEL,
    annMinRows: Number.MAX_SAFE_INTEGER, // the ANN index plays no part in a memory index's start
    optimizeIntervalMs: 3_600_000,
    memoryIndex: memoryIndex ? { maxVectors: 2_000_000 } : false,
    // the memory index's own lines (load steps, reconcile counts, save times)
    ...(memoryIndex ? { logger: createLogger({ component: 'bench', level: 'info' }) } : {}),
  });
}

/** Opens the adapter and waits for the big owner's memory index (loaded in the background, or built). */
async function coldStart(label: string): Promise<Record<string, string>> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  loop.enable();
  const index = open(true);
  await index.open();
  const opened = performance.now() - t0;
  // give the background load at open a moment to claim the owner before asking for it
  await new Promise((r) => setTimeout(r, 50));
  if (!(await index.awaitMemoryIndex(big))) throw new Error('the big owner got no memory index');
  const ready = performance.now() - t0;
  loop.disable();
  const hits = await index.search({
    ownerId: big,
    mode: 'keyword',
    text: generateQueries(SEED, 1)[0]!,
    limit: 10,
  });
  if (index.lastTimings().memory !== 1 || hits.length === 0) throw new Error('not answered from memory');
  // The save that follows a build or a reconcile, with its own longest block (it holds writes back).
  const saveLoop = monitorEventLoopDelay({ resolution: 5 });
  saveLoop.enable();
  const saveStart = performance.now();
  await index.memorySnapshotsSaved();
  const saveMs = performance.now() - saveStart;
  saveLoop.disable();
  const row = {
    start: label,
    'open()': s(opened),
    'memory index ready': s(ready),
    'longest loop block': `${(loop.max / 1e6).toFixed(0)} ms`,
    'loop p99': `${(loop.percentile(99) / 1e6).toFixed(0)} ms`,
    'snapshot save after': saveMs > 5 ? `${s(saveMs)} (block ${(saveLoop.max / 1e6).toFixed(0)} ms)` : '-',
    'RSS +': mb(process.memoryUsage().rss - rss0),
  };
  await index.close();
  return row;
}

console.log(
  `cold start: ${COUNT.toLocaleString('en')} items (big owner ${big}: 99 %), ${DIMS}-dim pseudo-random vectors; ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(1)}; data in ${dir}`,
);
try {
  if (keep && existsSync(path.join(dir, 'kaboodle-entities.lance'))) {
    console.log('table reused (--keep)');
  } else {
    const writer = open(false);
    await writer.open();
    const t = performance.now();
    for (let from = 0; from < COUNT; from += BATCH)
      await writer.upsert(entities(from, Math.min(COUNT, from + BATCH)));
    await writer.optimize();
    await writer.close();
    console.log(`table written in ${s(performance.now() - t)}`);
  }
  const rows: Record<string, string>[] = [];
  // --no-build: keep the snapshot a previous run left (--keep) and measure the loads only
  if (!process.argv.includes('--no-build') || !existsSync(snapshots)) {
    await rm(snapshots, { recursive: true, force: true });
    rows.push(await coldStart('no snapshot (build from the table)'));
  }
  const size = await folderBytes(snapshots);
  rows.push(await coldStart('from the snapshot'));

  // Writes the snapshot missed (a crash after them): 1 % of the big owner updated, then a start.
  const writer = open(false);
  await writer.open();
  const changed = Math.max(1, Math.floor(COUNT / 100));
  const updates = entities(0, changed)
    .filter((e) => e.ownerId === big)
    // newer than any earlier run's revision (--keep)
    .map((e) => ({ ...e, version: Math.floor(Date.now() / 1000), title: `${e.title} (revised)` }));
  for (let i = 0; i < updates.length; i += BATCH) await writer.upsert(updates.slice(i, i + BATCH));
  await writer.close();
  rows.push(await coldStart(`from the snapshot + ${updates.length.toLocaleString('en')} rows to reconcile`));

  const keys = Object.keys(rows[0]!);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => r[k]!.length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i]!)).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => r[k]!.padEnd(widths[i]!)).join('  '));
  console.log(
    `snapshot on disk: ${mb(size)} (${snapshots}); table: ${mb((await folderBytes(dir)) - (await folderBytes(snapshots)))}`,
  );
} finally {
  if (!keep) await rm(dir, { recursive: true, force: true });
}
