// The memory index's snapshot save under writes (issue 21): builds the big owner's memory index from
// the table, then measures the save that follows — its time, the peak RSS while it runs (the kernel's
// high-water mark, reset just before), the event loop's longest delay and p99, and the latency of
// small upserts made every 50 ms while it runs (they waited for the whole save while it held the
// writer's barrier). `--impl DIR` runs another checkout's search package (e.g. the code before the
// change, extracted with `git archive`) against the same table, for a side-by-side.
// Vectors are deterministic pseudo-random unit vectors (512 dims, as cold-start.bench.ts).
// `--snapshot OWNER_DIR` measures a saved snapshot instead (e.g. a copy of the 1M product bench's big
// owner): its parts are loaded with the package's snapshot store, then saved again, with the same
// figures (writes go through the adapter only in the table mode: here the save alone is timed).
// Run: node tests/bench/search/snapshot-save.bench.ts [--count N] [--keep DIR] [--impl DIR]
//      node tests/bench/search/snapshot-save.bench.ts --snapshot /tmp/copy/ROOT/OWNER_HASH [--impl DIR]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createLogger } from '@kaboodle/platform';
import type * as SearchPackage from '@kaboodle/search';
import type { IndexedEntity } from '@kaboodle/search';
import { generateItem, ownerOf, prng } from './generate-items.ts';
import { intArg } from './bench-args.ts';

const COUNT = intArg('--count', 100_000);
const SEED = intArg('--seed', 42);
const DIMS = 512;
const BATCH = 1_000;
const big = ownerOf(0);
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const keep = arg('--keep');
const impl = arg('--impl');
const search = (await import(
  impl ? pathToFileURL(path.resolve(impl, 'services/search/src/index.ts')).href : '@kaboodle/search'
)) as typeof SearchPackage;
const dir = keep ?? (await mkdtemp(path.join(os.tmpdir(), 'kaboodle-snapshot-save-')));
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;

function entities(from: number, to: number, version = 1): IndexedEntity[] {
  return Array.from({ length: to - from }, (_, k) => {
    const r = prng(SEED * 7_919 + from + k);
    const v = new Float32Array(DIMS).map(() => r() - 0.5);
    const n = Math.hypot(...v);
    return {
      ...generateItem(SEED, from + k).entity,
      ownerId: big,
      version,
      vector: v.map((x) => x / n),
      passages: [],
    };
  });
}

function open(memoryIndex: boolean) {
  return search.createLanceDbSearchIndex({
    dir,
    dimensions: DIMS,
    model: 'bench-pseudo-random',
    annMinRows: Number.MAX_SAFE_INTEGER,
    optimizeIntervalMs: 3_600_000,
    memoryIndex: memoryIndex ? { maxVectors: 2_000_000 } : false,
    ...(memoryIndex ? { logger: createLogger({ component: 'bench', level: 'info' }) } : {}),
  });
}

/** The kernel's peak RSS of this process since the last reset (Linux: VmHWM, reset via clear_refs). */
function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

const snapshotDir = arg('--snapshot');
if (snapshotDir) {
  await saveLoadedSnapshot(path.resolve(snapshotDir));
  process.exit(0);
}

/** What the bench uses of the package's (internal) memory-snapshots.ts. */
interface SnapshotModule {
  createSnapshotStore(
    root: string,
    identity: { dims: number; model: string },
  ): {
    load(
      ownerId: string,
      settings: object,
    ): Promise<
      | { parts: { words: { close(): void }; rows: { close(): void } }; entities: { keys: string[] } }
      | undefined
    >;
    save(
      ownerId: string,
      parts: unknown,
      entities: unknown,
    ): Promise<{ bytes: number; timings?: Record<string, number> }>;
  };
}

/** Loads the snapshot in ownerDir (a copy: the save replaces its generation) and saves it again. */
async function saveLoadedSnapshot(ownerDir: string): Promise<void> {
  // the store is internal to the package: loaded by path, as --impl loads the whole package
  const root = impl ? path.resolve(impl) : path.resolve(import.meta.dirname, '../../..');
  const store = (await import(
    pathToFileURL(path.join(root, 'services/search/src/index/memory-snapshots.ts')).href
  )) as SnapshotModule;
  const m = JSON.parse(readFileSync(path.join(ownerDir, 'manifest.json'), 'utf8')) as {
    ownerId: string;
    dims: number;
    model: string;
  };
  const snapshots = store.createSnapshotStore(path.dirname(ownerDir), { dims: m.dims, model: m.model });
  const t0 = performance.now();
  const loaded = await snapshots.load(m.ownerId, {});
  if (!loaded) throw new Error(`no snapshot in ${ownerDir}`);
  const loadMs = performance.now() - t0;
  const rssBefore = process.memoryUsage().rss;
  writeFileSync('/proc/self/clear_refs', '5');
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t1 = performance.now();
  const saved = await snapshots.save(m.ownerId, loaded.parts, loaded.entities);
  const saveMs = performance.now() - t1;
  loop.disable();
  console.log(
    JSON.stringify({
      impl: impl ?? 'this checkout',
      entities: loaded.entities.keys.length,
      loadS: +(loadMs / 1000).toFixed(1),
      saveS: +(saveMs / 1000).toFixed(2),
      bytes: mb(saved.bytes),
      steps: Object.fromEntries(Object.entries(saved.timings ?? {}).map(([k, v]) => [k, Math.round(v)])),
      rssBeforeSave: mb(rssBefore),
      rssPeakDuringSave: mb(peakRss()),
      loopMaxMs: Math.round(loop.max / 1e6),
      loopP99Ms: Math.round(loop.percentile(99) / 1e6),
    }),
  );
  loaded.parts.words.close();
  loaded.parts.rows.close();
}

console.log(
  `snapshot save: ${COUNT.toLocaleString('en')} items, ${impl ? `code of ${impl}` : 'this checkout'}; ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(1)}; data in ${dir}`,
);
try {
  if (!existsSync(path.join(dir, 'kaboodle-entities.lance'))) {
    const writer = open(false);
    await writer.open();
    const t = performance.now();
    for (let from = 0; from < COUNT; from += BATCH)
      await writer.upsert(entities(from, Math.min(COUNT, from + BATCH)));
    await writer.optimize();
    await writer.close();
    console.log(`table written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  await rm(path.join(dir, 'memory-snapshots'), { recursive: true, force: true });
  const index = open(true);
  await index.open();
  const t0 = performance.now();
  if (!(await index.awaitMemoryIndex(big))) throw new Error('the big owner got no memory index');
  const built = performance.now() - t0;
  // the save starts right after the build: measure from here to its end
  const rssBefore = process.memoryUsage().rss;
  writeFileSync('/proc/self/clear_refs', '5');
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const saveStart = performance.now();
  let saved = false;
  const done = index.memorySnapshotsSaved().then(() => (saved = true));
  const latencies: number[] = [];
  let next = COUNT + 10_000_000 + Math.floor(Math.random() * 1e6);
  while (!saved) {
    const w = performance.now();
    await index.upsert(entities(next, next + 10, 2));
    next += 10;
    latencies.push(performance.now() - w);
    if (!saved) await new Promise((r) => setTimeout(r, 50));
  }
  await done;
  const saveMs = performance.now() - saveStart;
  loop.disable();
  const peak = peakRss();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  console.log(
    JSON.stringify({
      impl: impl ?? 'this checkout',
      count: COUNT,
      buildS: +(built / 1000).toFixed(1),
      saveS: +(saveMs / 1000).toFixed(2),
      rssBeforeSave: mb(rssBefore),
      rssPeakDuringSave: mb(peak),
      loopMaxMs: Math.round(loop.max / 1e6),
      loopP99Ms: Math.round(loop.percentile(99) / 1e6),
      writes: latencies.length,
      writeP50Ms: Math.round(pct(0.5)),
      writeMaxMs: Math.round(latencies.at(-1) ?? 0),
    }),
  );
  await index.close();
} finally {
  if (!keep) await rm(dir, { recursive: true, force: true });
}
