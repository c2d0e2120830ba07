// The memory index's keyword postings and display rows at bench size, the compact structures beside
// the ones they replaced (legacy-keyword-index.ts and a Map of row objects) in one process: heap and
// array-buffer bytes after a forced GC, bytes per entity, build time, keyword query p50/p95/max with
// the top 20's rows read back, GC pauses during the query run, and snapshot save/load time.
// Run alone: node tests/bench/search/keyword-memory.ts [--count N] [--seed S] [--queries Q]
// (index.bench.ts runs it too, after its own cases).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { OwnerDisplayRows } from '../../../services/search/src/index/display-rows.ts';
import { OwnerKeywordIndex } from '../../../services/search/src/index/keyword-index.ts';
import { createRowMapper, displayRow } from '../../../services/search/src/index/lancedb-rows.ts';
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

export async function compareKeywordMemory(opts: {
  count: number;
  seed: number;
  queries: number;
}): Promise<void> {
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
  console.log(
    `\nkeyword postings + display rows of the big owner: ${docs.length.toLocaleString('en')} entities, ${queries.length} queries (top 20, rows read back)`,
  );
  const rows: Record<string, string | number>[] = [];
  try {
    for (const kind of ['compact', 'legacy'] as const) {
      const before = settle();
      const started = performance.now();
      let search: (q: string) => { key: string }[];
      let rowOf: (key: string) => unknown;
      let keep: unknown;
      let postingsBytes = NaN;
      let rowFileBytes = 0;
      if (kind === 'compact') {
        const words = new OwnerKeywordIndex();
        const display = new OwnerDisplayRows(path.join(dir, 'live'));
        for (const d of docs) {
          words.load(d.key, d.type, d.text, d.lead);
          display.set(d.key, d.row);
        }
        words.markReady();
        display.flush();
        // the build leaves a delta that the background merge folds in right after (in 4 ms steps)
        while (words.segments().merging || words.segments().delta > 0)
          await new Promise((r) => setImmediate(r));
        const m = words.memory();
        postingsBytes = m.postings + m.terms;
        rowFileBytes = display.memory().file;
        search = (q) => words.search(q, 20);
        rowOf = (k) => display.get(k);
        keep = { words, display };
      } else {
        const words = new LegacyKeywordIndex();
        const display = new Map<string, Record<string, unknown>>();
        for (const d of docs) {
          words.load(d.key, d.type, d.text, d.lead);
          display.set(d.key, { ...d.row });
        }
        words.markReady();
        search = (q) => words.search(q, 20);
        rowOf = (k) => display.get(k);
        keep = { words, display };
      }
      const buildMs = performance.now() - started;
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
      rows.push({
        structures: kind,
        'build s': buildMs / 1000,
        'heap MB': heap / 1048576,
        'buffers MB': buffers / 1048576,
        'RSS +MB': (after.rss - before.rss) / 1048576,
        'B/entity': (heap + buffers) / docs.length,
        'postings B/entity': Number.isNaN(postingsBytes) ? '' : postingsBytes / docs.length,
        'row file B/entity': rowFileBytes / docs.length,
        'p50 ms': pct(lat, 50),
        'p95 ms': pct(lat, 95),
        'max ms': Math.max(...lat),
        'GCs in run': gc.count,
        'GC ms (max)': `${gc.total.toFixed(0)} (${gc.max.toFixed(1)})`,
      });
      if (kind === 'compact') {
        const { words, display } = keep as { words: OwnerKeywordIndex; display: OwnerDisplayRows };
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
      keep = undefined;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const keys = Object.keys(rows[0]!);
  const cell = (v: string | number | undefined) =>
    typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(v >= 100 ? 0 : 2)) : (v ?? '');
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k]).length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i]!)).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => cell(r[k]).padEnd(widths[i]!)).join('  '));
  console.log(
    '(heap and buffers: growth after a forced GC; RSS +: growth, which the freed legacy pass may understate; rows: compact reads them from its file)',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await compareKeywordMemory({
    count: intArg('--count', 100_000),
    seed: intArg('--seed', 42),
    queries: intArg('--queries', 200),
  });
}
