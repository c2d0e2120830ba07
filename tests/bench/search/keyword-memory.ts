// The memory index's keyword postings and display rows at bench size, the compact structures beside
// the ones they replaced (legacy-keyword-index.ts and a Map of row objects), each in a child process
// of its own (one's garbage and the stemmer's cache do not colour the other's figures): heap and
// array-buffer growth after a forced GC, bytes per entity, build time (postings, rows, and the
// background fold of the build's last delta), keyword query p50/p95/max with the top 20's rows read
// back, GC pauses during the query run, and snapshot save/load time.
// Run alone: node tests/bench/search/keyword-memory.ts [--count N] [--seed S] [--queries Q]
// (index.bench.ts runs it too, after its own cases).
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRowMapper, displayRow, OwnerDisplayRows, OwnerKeywordIndex } from '@kaboodle/search';
import { intArg } from './bench-args.ts';
import { generateItem, generateQueries, ownerOf } from './generate-items.ts';
import { LegacyKeywordIndex } from './legacy-keyword-index.ts';

interface Doc {
  key: string;
  type: string;
  text: string;
  lead: string;
  row: Record<string, unknown>;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

function settle(): NodeJS.MemoryUsage {
  // without --expose-gc (index.bench.ts under run.ts), the flag is set late and gc taken from a context
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  gc();
  return process.memoryUsage();
}

/** GC pauses while fn runs (PerformanceObserver 'gc'). */
async function withGcPauses<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; count: number; total: number; max: number }> {
  const pauses: number[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push(e.duration);
  });
  obs.observe({ entryTypes: ['gc'] });
  const value = await fn();
  await new Promise((r) => setTimeout(r, 50)); // the observer reports asynchronously
  obs.disconnect();
  return {
    value,
    count: pauses.length,
    total: pauses.reduce((a, b) => a + b, 0),
    max: Math.max(0, ...pauses),
  };
}

type Kind = 'compact' | 'legacy';
type Figures = Record<string, string | number>;
interface Options {
  count: number;
  seed: number;
  queries: number;
}

/** Runs each kind in a child process and prints their figures side by side. */
export async function compareKeywordMemory(opts: Options): Promise<void> {
  console.log(
    `\nkeyword postings + display rows of the big owner (${opts.count.toLocaleString('en')}-item corpus, ${opts.queries} queries × 3, top 20 with rows read back):`,
  );
  const rows: Figures[] = [];
  for (const kind of ['compact', 'legacy'] as const) {
    const args = [...process.execArgv, fileURLToPath(import.meta.url), '--only', kind];
    for (const [k, v] of Object.entries(opts)) args.push(`--${k}`, String(v));
    const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    const lines = (child.stdout ?? '').split('\n');
    for (const line of lines) if (line && !line.startsWith('RESULT ')) console.log(line);
    const result = lines.find((l) => l.startsWith('RESULT '));
    if (child.status !== 0 || !result) throw new Error(`keyword-memory ${kind} failed: ${child.stderr}`);
    rows.push(JSON.parse(result.slice('RESULT '.length)) as Figures);
  }
  const keys = Object.keys(rows[0]!);
  const cell = (v: string | number | undefined) =>
    typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(v >= 100 ? 0 : 2)) : (v ?? '');
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k]).length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i]!)).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => cell(r[k]).padEnd(widths[i]!)).join('  '));
  console.log(
    '(heap, buffers, RSS: growth over the process holding the generated corpus, after a forced GC; compact rows live in a file and are read back per query)',
  );
}

/** One kind's figures, in this process. */
async function measure(kind: Kind, opts: Options): Promise<Figures> {
  const mapper = createRowMapper(1, 100_000);
  const docs: Doc[] = [];
  for (let i = 0; i < opts.count; i++) {
    if (ownerOf(i) !== 'bench-big') continue;
    const r = mapper.toRow({ ...generateItem(opts.seed, i).entity, vector: new Float32Array([1]) });
    docs.push({
      key: r.key,
      type: r.entity_type,
      text: r.search_text,
      lead: r.content_head,
      row: displayRow(r),
    });
  }
  const queries = generateQueries(opts.seed, opts.queries);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kaboodle-kw-bench-'));
  try {
    const before = settle();
    let t = performance.now();
    let search: (q: string) => { key: string }[];
    let rowOf: (key: string) => unknown;
    let postingsBytes: number | string = '';
    let rowFileBytes = 0;
    let foldMs = 0;
    let compact: { words: OwnerKeywordIndex; display: OwnerDisplayRows } | undefined;
    let legacy: { words: LegacyKeywordIndex; display: Map<string, Record<string, unknown>> } | undefined;
    if (kind === 'compact') {
      const words = new OwnerKeywordIndex();
      for (const d of docs) words.load(d.key, d.type, d.text, d.lead);
      words.markReady();
      const wordsMs = performance.now() - t;
      t = performance.now();
      // the build leaves a delta that the background merge folds in right after (in 4 ms steps)
      while (words.segments().merging || words.segments().delta > 0)
        await new Promise((r) => setImmediate(r));
      foldMs = performance.now() - t;
      t = performance.now();
      const display = new OwnerDisplayRows(path.join(dir, 'live'));
      for (const d of docs) display.set(d.key, d.row);
      display.flush();
      const m = words.memory();
      postingsBytes = (m.postings + m.terms) / docs.length;
      rowFileBytes = display.memory().file;
      search = (q) => words.search(q, 20);
      rowOf = (k) => display.get(k);
      compact = { words, display };
      t = wordsMs + (performance.now() - t); // postings + rows; the fold is its own column
    } else {
      const words = new LegacyKeywordIndex();
      for (const d of docs) words.load(d.key, d.type, d.text, d.lead);
      words.markReady();
      const display = new Map<string, Record<string, unknown>>();
      for (const d of docs) display.set(d.key, { ...d.row });
      search = (q) => words.search(q, 20);
      rowOf = (k) => display.get(k);
      legacy = { words, display };
      t = performance.now() - t;
    }
    const buildMs = t;
    const after = settle();
    const lat: number[] = [];
    const gc = await withGcPauses(async () => {
      for (let round = 0; round < 3; round++) {
        for (const q of queries) {
          const s = performance.now();
          for (const h of search(q)) rowOf(h.key);
          lat.push(performance.now() - s);
        }
        await new Promise((r) => setImmediate(r));
      }
    });
    const heap = after.heapUsed - before.heapUsed;
    const buffers = after.arrayBuffers - before.arrayBuffers;
    const figures: Figures = {
      structures: kind,
      entities: docs.length,
      'build s': buildMs / 1000,
      'fold s': foldMs / 1000,
      'heap MB': heap / 1048576,
      'buffers MB': buffers / 1048576,
      'RSS +MB': (after.rss - before.rss) / 1048576,
      'B/entity': (heap + buffers) / docs.length,
      'postings+terms B/entity': postingsBytes,
      'row file B/entity': rowFileBytes / docs.length,
      'p50 ms': pct(lat, 50),
      'p95 ms': pct(lat, 95),
      'max ms': Math.max(...lat),
      'GCs in run': gc.count,
      'GC ms (max)': `${gc.total.toFixed(0)} (${gc.max.toFixed(1)})`,
    };
    if (compact) {
      const { words, display } = compact;
      let s = performance.now();
      await words.saveTo(path.join(dir, 'snap'));
      await display.saveTo(path.join(dir, 'snap'));
      const saveMs = performance.now() - s;
      s = performance.now();
      const back = await OwnerKeywordIndex.loadFrom(path.join(dir, 'snap'));
      const backRows = await OwnerDisplayRows.loadFrom(path.join(dir, 'snap'));
      const loadMs = performance.now() - s;
      const same = queries.every(
        (q) => JSON.stringify(back.search(q, 20)) === JSON.stringify(words.search(q, 20)),
      );
      console.log(
        `compact snapshot: saved in ${(saveMs / 1000).toFixed(2)} s, loaded in ${(loadMs / 1000).toFixed(2)} s, same answers: ${same}; row file ${mb(rowFileBytes)}`,
      );
      backRows.close();
      display.close();
    }
    if (legacy) legacy.display.clear();
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const opts = {
    count: intArg('--count', 100_000),
    seed: intArg('--seed', 42),
    queries: intArg('--queries', 200),
  };
  if (process.argv.includes('--only')) {
    const only = process.argv[process.argv.indexOf('--only') + 1];
    if (only !== 'compact' && only !== 'legacy') throw new Error('--only compact|legacy');
    console.log(`RESULT ${JSON.stringify(await measure(only, opts))}`);
  } else await compareKeywordMemory(opts);
}
