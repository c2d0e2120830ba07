// Embedded search index bench (LanceDB): 100k generated documents + inventory items with offline
// USE-lite vectors (cached under .cache/bench/), then indexing throughput (embedding excluded), index
// size, RSS, recall@10 of the ANN (IVF_FLAT, and HNSW-SQ beside it) against exact kNN for several
// settings, and query latency p50/p95/p99 per stage for keyword, semantic and hybrid, flat scan beside.
// Run: node tests/bench/run.ts tests/bench/search/index   (or this file: [--count N] [--seed S] [--queries Q])

import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { createLanceDbSearchIndex, type AnnOptions } from '@kaboodle/search';
import type { SearchQuery } from '@kaboodle/search';
import {
  corpusVectors,
  entitiesWithVectors,
  generateQueries,
  offlineEmbedder,
  ownerOf,
  queryVectors,
} from './generate-items.ts';
import { intArg } from './bench-args.ts';
import { compareKeywordMemory } from './keyword-memory.ts';
import { compareVectorGraphs, figureRows } from './vector-graph-compare.ts';

const COUNT = intArg('--count', 100_000);
const SEED = intArg('--seed', 42);
const QUERIES = intArg('--queries', 200);
const BATCH = 1_000;

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const rss = () => process.memoryUsage().rss;
const peak = () => process.resourceUsage().maxRSS * 1024;
function table(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]!);
  const cell = (v: string | number | undefined) =>
    typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(v >= 100 ? 0 : 2)) : (v ?? '');
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k]).length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i]!)).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => cell(r[k]).padEnd(widths[i]!)).join('  '));
}

console.log(
  'documents carry passages of three sentences (vectors mixed from cached item vectors, not embedded: they size storage and excerpt cost)',
);
console.log(
  `corpus: ${COUNT.toLocaleString('en')} items (2 documents : 1 inventory item), seed ${SEED}; ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
);

// ---- vectors (cached) ------------------------------------------------------------------------
const embedder = await offlineEmbedder();
const dims = embedder.dimensions;
const vec = await corpusVectors(SEED, COUNT, embedder, {
  log: (l) => console.log(l),
});
console.log(
  `vectors: ${embedder.model} (${dims} dims), cache ${path.relative(process.cwd(), vec.dir)}: ${vec.cachedChunks} chunk(s) read from the cache, ${vec.embeddedChunks} embedded now${vec.embeddedChunks ? ` in ${(vec.embedMs / 1000).toFixed(0)} s (${(vec.embedMs / (vec.embeddedChunks * 5000)).toFixed(1)} ms/item)` : ''}`,
);
const queryTexts = generateQueries(SEED, QUERIES);
const qv = await queryVectors(SEED, queryTexts, embedder);
await embedder.close();
console.log(
  `queries: ${QUERIES} (${qv.cached ? 'vectors from the cache' : 'embedded now'}), e.g. ${queryTexts
    .slice(0, 4)
    .map((q) => JSON.stringify(q))
    .join(', ')}`,
);

// ---- indexing --------------------------------------------------------------------------------
// --keep DIR: build the index there once and reuse it on later runs (tuning the search settings).
const keepAt = process.argv.indexOf('--keep');
const keep = keepAt >= 0 ? process.argv[keepAt + 1] : undefined;
const dir = keep ?? (await mkdtemp(path.join(os.tmpdir(), 'kaboodle-index-bench-')));
const reuse = keep !== undefined && existsSync(path.join(keep, 'kaboodle-entities.lance'));
const hnswDir = `${dir}-hnsw`;
try {
  const rssBefore = rss();
  let t = performance.now();
  if (reuse) {
    console.log(`\nindexing skipped: reusing the index in ${dir} (--keep)`);
  } else {
    const index = createLanceDbSearchIndex({
      dir,
      dimensions: dims,
      // the load measures writes alone; the ANN build and compaction are timed separately below
      annMinRows: Number.MAX_SAFE_INTEGER,
      optimizeEveryWrites: Number.MAX_SAFE_INTEGER,
      optimizeEveryRows: Number.MAX_SAFE_INTEGER,
      optimizeIntervalMs: 3_600_000,
    });
    await index.open();
    let writeMs = 0;
    let buildMs = 0;
    for (let from = 0; from < COUNT; from += BATCH) {
      const t0 = performance.now();
      const batch = entitiesWithVectors(SEED, from, Math.min(COUNT, from + BATCH), vec.vectors, dims);
      const t1 = performance.now();
      const out = await index.upsert(batch);
      writeMs += performance.now() - t1;
      buildMs += t1 - t0;
      if (out.applied !== batch.length)
        throw new Error(`expected ${batch.length} applied, got ${JSON.stringify(out)}`);
    }
    console.log(
      `\nindexing: ${COUNT.toLocaleString('en')} items in ${(writeMs / 1000).toFixed(1)} s = ${Math.round((COUNT / writeMs) * 1000).toLocaleString('en')} items/s (upsert in batches of ${BATCH}; embedding and building the objects, ${(buildMs / 1000).toFixed(1)} s, excluded; goal ≥ 1,000)`,
    );

    // An update pass through the version guard (read versions, merge_insert on an existing table).
    const updates = entitiesWithVectors(SEED, 0, Math.min(COUNT, 5_000), vec.vectors, dims).map((e) => ({
      ...e,
      version: 2,
      title: `${e.title} (revised)`,
    }));
    t = performance.now();
    for (let i = 0; i < updates.length; i += BATCH) await index.upsert(updates.slice(i, i + BATCH));
    const updMs = performance.now() - t;
    console.log(
      `updates: ${updates.length.toLocaleString('en')} newer versions merged in ${(updMs / 1000).toFixed(1)} s = ${Math.round((updates.length / updMs) * 1000).toLocaleString('en')} items/s`,
    );

    await index.close();
  }
  t = performance.now();
  // retainVersionsMs 0: the size printed is the live table, not versions kept for concurrent readers
  const tuned = createLanceDbSearchIndex({
    dir,
    dimensions: dims,
    annMinRows: 5_000,
    flatMaxOwnerRows: 5_000,
    retainVersionsMs: 0,
    memoryIndex: false, // the table's own kNN; the in-memory graph is measured beside it below
  });
  await tuned.open();
  await tuned.optimize(); // builds the ANN index (≥ annMinRows live rows), compacts, refreshes FTS
  const annMs = performance.now() - t;
  const st = await tuned.stats();
  console.log(
    `ANN build + compaction + FTS refresh: ${(annMs / 1000).toFixed(1)} s (adapter default: ${JSON.stringify(tuned.annSettings(st.entities))}, cosine)`,
  );
  console.log(
    `index on disk: ${mb(st.sizeBytes)} for ${st.entities.toLocaleString('en')} entities (${(st.sizeBytes / st.entities / 1024).toFixed(1)} KB each); RSS ${mb(rss())} (was ${mb(rssBefore)} before loading), peak ${mb(peak())}`,
  );

  // ---- recall@10 of the ANN against exact kNN ------------------------------------------------
  const big = 'bench-big';
  const exact: string[][] = [];
  for (const v of qv.vectors) exact.push(await tuned.exactKnn(big, v, 10));
  // Cosine distances computed here from the corpus vectors (ids are bench-<seed>-<index>).
  const distanceTo = (q: number, id: string): number => {
    const item = Number(id.slice(id.lastIndexOf('-') + 1));
    const a = qv.vectors[q]!;
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let d = 0; d < dims; d++) {
      const x = a[d]!;
      const y = vec.vectors[item * dims + d]!;
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    return 1 - dot / Math.sqrt(na * nb);
  };
  const exactDistances = exact.map((keys, q) =>
    keys.map((k) => distanceTo(q, (JSON.parse(k) as string[])[2]!)).sort((a, b) => a - b),
  );
  // The alternative, side by side: HNSW-SQ on a copy of the same table.
  await rm(hnswDir, { recursive: true, force: true });
  await cp(dir, hnswDir, { recursive: true });
  {
    const db = await lancedb.connect(hnswDir);
    const tb = await db.openTable('kaboodle-entities');
    for (const ix of await tb.listIndices()) if (ix.columns.includes('vector')) await tb.dropIndex(ix.name);
    tb.close();
    db.close();
  }
  const hnswOptions = { kind: 'hnsw-sq' as const, m: 20, efConstruction: 300 };
  t = performance.now();
  const hnswIndex = createLanceDbSearchIndex({
    dir: hnswDir,
    dimensions: dims,
    ann: hnswOptions,
    annMinRows: 5_000,
    retainVersionsMs: 0,
    memoryIndex: false,
  });
  await hnswIndex.open();
  await hnswIndex.optimize();
  console.log(
    `alternative HNSW-SQ build (+ compaction) on a copy: ${((performance.now() - t) / 1000).toFixed(1)} s (${JSON.stringify(hnswIndex.annSettings(st.entities))})`,
  );

  console.log(`\nrecall@10 vs exact kNN (same vectors, owner with 99% of the items; ${QUERIES} queries):`);
  const recallRows: Record<string, string | number>[] = [];
  const settings: { label: string; dir: string; ann: AnnOptions; graph?: boolean; ef?: number }[] = [
    ...[5, 10, 20, 40].map((nprobes) => ({ label: `IVF_FLAT nprobes ${nprobes}`, dir, ann: { nprobes } })),
    ...[
      { ef: 40, refineFactor: 1 },
      { ef: 100, refineFactor: 2 },
      { ef: 300, refineFactor: 5 },
    ].map((x) => ({
      label: `HNSW-SQ ef ${x.ef} refine ${x.refineFactor}`,
      dir: hnswDir,
      ann: { ...hnswOptions, ...x },
    })),
    // The adapter's default for large owners: an in-memory index (HNSW graph via usearch + BM25)
    // built from the table.
    ...[32, 64, 128, 256].map((ef) => ({
      label: `in-memory HNSW graph (m 16, efC 100, ef ${ef}${ef === 128 ? ', default' : ''})`,
      dir,
      ann: {},
      graph: true,
      ef,
    })),
  ];
  let graphIndex: ReturnType<typeof createLanceDbSearchIndex> | undefined;
  for (const setting of settings) {
    // The graph settings share one build (the adapter's), changing only the search's ef.
    const probe =
      setting.graph && graphIndex
        ? graphIndex
        : createLanceDbSearchIndex({
            dir: setting.dir,
            dimensions: dims,
            ann: setting.ann,
            flatMaxOwnerRows: 0,
            optimizeIntervalMs: 3_600_000,
            memoryIndex: setting.graph ? {} : false,
          });
    if (probe !== graphIndex) await probe.open();
    if (setting.graph && !graphIndex) {
      const rssGraph = rss();
      const s = performance.now();
      if (!(await probe.awaitMemoryIndex(big))) throw new Error('the big owner got no in-memory index');
      console.log(
        `in-memory index of the big owner (HNSW graph + BM25): ${probe.memoryIndexes().vectors.toLocaleString('en')} entities built from the table in ${((performance.now() - s) / 1000).toFixed(1)} s (background, 8 ms slices), RSS +${mb(rss() - rssGraph)}`,
      );
    }
    if (setting.ef) probe.setMemoryIndexEf(setting.ef);
    let hit = 0;
    let hitTies = 0;
    const lat: number[] = [];
    for (let i = 0; i < qv.vectors.length; i++) {
      const s = performance.now();
      const hits = await probe.search({
        ownerId: big,
        mode: 'semantic',
        text: '',
        vector: qv.vectors[i]!,
        limit: 10,
      });
      lat.push(performance.now() - s);
      const want = new Set(exact[i]);
      hit += hits.filter((h) => want.has(JSON.stringify([big, h.entityType, h.id]))).length;
      // Ties: an item as close as the exact 10th is as right as the one exact kNN happened to list.
      const limit10 = exactDistances[i]![exactDistances[i]!.length - 1] ?? Infinity;
      hitTies += hits.filter((h) => distanceTo(i, h.id) <= limit10 + 1e-6).length;
    }
    recallRows.push({
      setting: setting.label,
      'recall@10 (ids)': hit / (qv.vectors.length * 10),
      'recall@10 (distance, ties count)': hitTies / (qv.vectors.length * 10),
      'p50 ms': pct(lat, 50),
      'p95 ms': pct(lat, 95),
    });
    if (setting.graph) graphIndex = probe;
    else await probe.close();
  }
  graphIndex?.setMemoryIndexEf(128); // back to the default for the latency cases below
  table(recallRows);
  console.log(
    '(ties: the corpus repeats titles, so several items share a vector and exact kNN lists one of equals; goal recall@10 ≥ 0.95)',
  );

  // ---- the in-memory vector graph alone: hnswlib f32 (before issue 21) and usearch f16 -----------
  {
    const bigItems = Array.from({ length: COUNT }, (_, i) => i).filter((i) => ownerOf(i) === big);
    const graphVectors = new Float32Array(bigItems.length * dims);
    bigItems.forEach((item, j) =>
      graphVectors.set(vec.vectors.subarray(item * dims, (item + 1) * dims), j * dims),
    );
    console.log(
      `\nvector graphs alone on the big owner's ${bigItems.length.toLocaleString('en')} vectors (each in a child process; ef 128, k 10):`,
    );
    const figs = await compareVectorGraphs(
      {
        vectors: graphVectors,
        dims,
        types: bigItems.map((i) => (i % 3 === 2 ? 'inventory_item' : 'document')),
        queries: qv.vectors,
      },
      { log: (l) => console.log(l) },
    );
    table(figureRows(figs));
  }

  // ---- latency per stage ---------------------------------------------------------------------
  const categories = ['Research Paper', 'Report', 'Furniture', 'Kitchen'];
  const cases: {
    name: string;
    make: (i: number) => SearchQuery;
    index?: ReturnType<typeof createLanceDbSearchIndex>;
  }[] = [
    {
      name: 'keyword (LanceDB BM25)',
      make: (i) => ({ ownerId: big, mode: 'keyword', text: queryTexts[i]!, limit: 20 }),
    },
    {
      name: 'semantic (IVF_FLAT, nprobes 20)',
      make: (i) => ({
        ownerId: big,
        mode: 'semantic',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
    },
    {
      name: 'hybrid (IVF_FLAT + BM25, RRF)',
      make: (i) => ({
        ownerId: big,
        mode: 'hybrid',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
    },
    {
      name: 'hybrid + filters (type, category)',
      make: (i) => ({
        ownerId: big,
        mode: 'hybrid',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
        entityTypes: [i % 2 ? 'document' : 'inventory_item'],
        category: categories[i % categories.length]!,
      }),
    },
    {
      name: 'documents + excerpts (POST /api/documents/search)',
      make: (i) => ({
        ownerId: big,
        mode: 'hybrid',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
        entityTypes: ['document'],
        withExcerpts: true,
      }),
    },
    {
      name: 'hybrid, small owner (exact flat scan)',
      make: (i) => ({
        ownerId: ownerOf(99 + 100 * (i % 20)),
        mode: 'hybrid',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
    },
  ];
  const flat = createLanceDbSearchIndex({
    dir,
    dimensions: dims,
    annMinRows: Number.MAX_SAFE_INTEGER,
    flatMaxOwnerRows: Number.MAX_SAFE_INTEGER,
    optimizeIntervalMs: 3_600_000,
    memoryIndex: false,
  });
  await flat.open();
  const sequential = createLanceDbSearchIndex({
    dir,
    dimensions: dims,
    parallelStages: false,
    optimizeIntervalMs: 3_600_000,
    memoryIndex: false,
  });
  await sequential.open();
  cases.push(
    {
      name: 'keyword, in-memory BM25 (adapter default)',
      make: (i) => ({ ownerId: big, mode: 'keyword', text: queryTexts[i]!, limit: 20 }),
      index: graphIndex,
    },
    {
      name: 'semantic, in-memory HNSW graph (adapter default)',
      make: (i) => ({
        ownerId: big,
        mode: 'semantic',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
      index: graphIndex,
    },
    {
      name: 'hybrid, in-memory HNSW graph + in-memory BM25 (RRF)',
      make: (i) => ({
        ownerId: big,
        mode: 'hybrid',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
      index: graphIndex,
    },
    {
      name: 'semantic, alternative HNSW-SQ (ef 100, refine 2)',
      make: (i) => ({
        ownerId: big,
        mode: 'semantic',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
      index: hnswIndex,
    },
    {
      name: 'hybrid, alternative HNSW-SQ + BM25',
      make: (i) => ({
        ownerId: big,
        mode: 'hybrid',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
      index: hnswIndex,
    },
    {
      name: 'hybrid, kNN then BM25 (not concurrent)',
      make: (i) => ({
        ownerId: big,
        mode: 'hybrid',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
      index: sequential,
    },
    {
      name: 'semantic, flat scan (no ANN)',
      make: (i) => ({
        ownerId: big,
        mode: 'semantic',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
      index: flat,
    },
    {
      name: 'hybrid, flat scan (no ANN)',
      make: (i) => ({
        ownerId: big,
        mode: 'hybrid',
        text: queryTexts[i]!,
        vector: qv.vectors[i]!,
        limit: 20,
      }),
      index: flat,
    },
  );
  console.log(
    `\nquery latency, ${QUERIES} queries each, limit 20, sequential (ms; stages: kNN, BM25 run concurrently):`,
  );
  const rows: Record<string, string | number>[] = [];
  for (const c of cases) {
    const idx = c.index ?? tuned;
    // warm-up: first touches load index pages
    for (let i = 0; i < 5; i++) await idx.search(c.make(i));
    const total: number[] = [];
    const stages: Record<string, number[]> = { knn: [], bm25: [], fusion: [], excerpts: [] };
    for (let i = 0; i < QUERIES; i++) {
      const s = performance.now();
      await idx.search(c.make(i));
      total.push(performance.now() - s);
      const tm = idx.lastTimings();
      for (const k of Object.keys(stages)) if (tm[k] !== undefined) stages[k]!.push(tm[k]!);
    }
    const fmt = (xs: number[]) =>
      xs.length ? `${pct(xs, 50).toFixed(1)}/${pct(xs, 95).toFixed(1)}/${pct(xs, 99).toFixed(1)}` : '-';
    rows.push({
      case: c.name,
      'total p50': pct(total, 50),
      'total p95': pct(total, 95),
      'total p99': pct(total, 99),
      'kNN p50/95/99': fmt(stages.knn!),
      'BM25 p50/95/99': fmt(stages.bm25!),
      'fusion p50/95/99': fmt(stages.fusion!),
      'excerpts p50/95/99': fmt(stages.excerpts!),
    });
  }
  table(rows);
  console.log(`RSS after queries ${mb(rss())}, peak ${mb(peak())}`);

  // A selective prefilter on the ANN path: does the ANN still find the filtered true top 10?
  {
    let hit = 0;
    let want = 0;
    for (let i = 0; i < QUERIES; i++) {
      const query: SearchQuery = {
        ownerId: big,
        mode: 'semantic',
        text: '',
        vector: qv.vectors[i]!,
        limit: 10,
        entityTypes: [i % 2 ? 'document' : 'inventory_item'],
        category: categories[i % categories.length]!,
      };
      const truth = new Set((await flat.search(query)).map((h) => h.id));
      const got = await tuned.search(query);
      want += truth.size;
      hit += got.filter((h) => truth.has(h.id)).length;
    }
    console.log(
      `filtered recall@10 (type + category prefilter, IVF_FLAT vs exact): ${(hit / Math.max(1, want)).toFixed(3)}`,
    );
  }
  await flat.close();
  await sequential.close();
  await hnswIndex.close();
  await graphIndex?.close();
  await tuned.close();
} finally {
  await rm(hnswDir, { recursive: true, force: true });
  if (!keep) await rm(dir, { recursive: true, force: true });
}

// The big owner's keyword postings and display rows, compact beside the structures they replaced.
await compareKeywordMemory({ count: COUNT, seed: SEED, queries: QUERIES });
