// POST /api/search over HTTP on a 100k-item embedded index: the search module as `--target=all`
// mounts it (real token verification, the offline USE-lite query embedder with its cache, LanceDB
// and the large owner's in-memory index), driven from a separate process at a fixed offered rate
// (an open loop: keyword 100 req/s, vector and hybrid 50 req/s) and at saturation (autocannon). Prints p50/p95/p99, the most req/s each mode
// sustains, and where the time goes: embed, ANN, BM25 and fusion measured on the index directly,
// embed/index/total from the server's Server-Timing header, HTTP = client latency − server total.
// Run: node tests/bench/run.ts tests/bench/search/http
//      (or this file: [--count N] [--seed S] [--duration seconds] [--connections C] [--reuse DIR],
//      --reuse: index into DIR once and reuse it on later runs, as index.bench.ts --keep does;
//      --modes keyword,hybrid: only the modes whose label contains one of these)

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { pino } from 'pino';
import { createHttpServer, createTokenVerifier } from '@kaboodle/platform';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, ACCESS_TOKEN_TYPE } from '@kaboodle/platform';
import { createMemoryEventBus } from '@kaboodle/platform';
import { createUseLiteEmbedder, USE_LITE_SPACE } from '@kaboodle/processing';
import { createLanceDbSearchIndex } from '@kaboodle/search';
import { createSearchModule } from '@kaboodle/search';
import { searchConfig } from '@kaboodle/search';
import { fuseHybrid } from '@kaboodle/search';
import {
  corpusVectors,
  entitiesWithVectors,
  generateQueries,
  offlineEmbedder,
  queryVectors,
} from './generate-items.ts';
import { numberArg } from './bench-args.ts';
import { drive, percentile, type DriverJob, type DriverResult } from './product-driver.ts';

// ---- the bench ---------------------------------------------------------------------------------
const COUNT = numberArg('--count', 100_000);
const SEED = numberArg('--seed', 42);
const DURATION = numberArg('--duration', 15);
const CONNECTIONS = numberArg('--connections', 16);
const OWNER = 'bench-big';

const pct = percentile;
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 1 : 0) : '-');
function table(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]!);
  const cell = (v: string | number | undefined) => (typeof v === 'number' ? ms(v) : (v ?? ''));
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k]).length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i]!)).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => cell(r[k]).padEnd(widths[i]!)).join('  '));
}

console.log(
  `corpus: ${COUNT.toLocaleString('en')} generated items (2 documents : 1 inventory item, 99% one owner), seed ${SEED}; ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
);

// Vectors from the shared cache (corpus-vectors.ts fills it; the first run embeds for ~1 minute).
const cacheEmbedder = await offlineEmbedder();
const dims = cacheEmbedder.dimensions;
const vec = await corpusVectors(SEED, COUNT, cacheEmbedder, { log: (l) => console.log(l) });
const probeTexts = generateQueries(SEED, 200);
const probeVectors = (await queryVectors(SEED, probeTexts, cacheEmbedder)).vectors;
await cacheEmbedder.close();

const reuseAt = process.argv.indexOf('--reuse');
const reuseDir = reuseAt >= 0 ? process.argv[reuseAt + 1] : undefined;
const reusing = reuseDir !== undefined && existsSync(path.join(reuseDir, 'kaboodle-entities.lance'));
const dir = reuseDir ?? (await mkdtemp(path.join(os.tmpdir(), 'kaboodle-http-bench-')));
const logger = pino({ level: 'silent' });
const bus = createMemoryEventBus({ logger });
const index = createLanceDbSearchIndex({ dir, dimensions: dims, logger });
const embedder = createUseLiteEmbedder();
let stopServer: (() => Promise<void>) | undefined;
try {
  // ---- index the corpus ---------------------------------------------------------------------
  await index.open();
  if (reusing) {
    console.log(`indexing skipped: reusing the index in ${dir} (--reuse)`);
  } else {
    let writeMs = 0;
    for (let from = 0; from < COUNT; from += 1_000) {
      const batch = entitiesWithVectors(SEED, from, Math.min(COUNT, from + 1_000), vec.vectors, dims);
      const t = performance.now();
      await index.upsert(batch);
      writeMs += performance.now() - t;
    }
    const tOpt = performance.now();
    await index.optimize(); // ANN + FTS refresh, as the running index does after a burst of writes
    console.log(
      `indexed ${COUNT.toLocaleString('en')} items in ${(writeMs / 1000).toFixed(1)} s (${Math.round((COUNT / writeMs) * 1000).toLocaleString('en')} items/s), ANN + FTS build ${((performance.now() - tOpt) / 1000).toFixed(1)} s, ANN index: ${await index.hasAnnIndex()}`,
    );
  }
  // The big owner's in-memory index (HNSW graph + BM25), as the running service builds it on the
  // first query.
  const tGraph = performance.now();
  const graphBuilt = await index.awaitMemoryIndex(OWNER);
  console.log(
    `in-memory index: ${graphBuilt ? `${index.memoryIndexes().vectors.toLocaleString('en')} entities in ${((performance.now() - tGraph) / 1000).toFixed(1)} s` : 'none'}`,
  );

  // ---- cost split on the index itself (sequential, one query at a time) -----------------------
  await embedder.warmUp?.();
  const split = {
    embedCold: [] as number[],
    embedBatched: [] as number[],
    ann: [] as number[],
    annTable: [] as number[],
    bm25: [] as number[],
    bm25Table: [] as number[],
    fusion: [] as number[],
  };
  for (const [i, text] of probeTexts.slice(0, 100).entries()) {
    let t = performance.now();
    await embedder.embed([`${text} ${i}`]); // a text never seen: no cache
    split.embedCold.push(performance.now() - t);
    const vector = probeVectors[i]!;
    t = performance.now();
    const byVector = await index.search({ ownerId: OWNER, text, vector, mode: 'semantic', limit: 60 });
    split.ann.push(performance.now() - t);
    index.useMemoryIndexes(false);
    t = performance.now();
    await index.search({ ownerId: OWNER, text, vector, mode: 'semantic', limit: 60 });
    split.annTable.push(performance.now() - t);
    index.useMemoryIndexes(true);
    t = performance.now();
    const byWords = await index.search({ ownerId: OWNER, text, mode: 'keyword', limit: 60 });
    split.bm25.push(performance.now() - t);
    index.useMemoryIndexes(false);
    t = performance.now();
    await index.search({ ownerId: OWNER, text, mode: 'keyword', limit: 60 });
    split.bm25Table.push(performance.now() - t);
    index.useMemoryIndexes(true);
    t = performance.now();
    fuseHybrid(byVector, byWords, text, 100_000).slice(0, 20);
    split.fusion.push(performance.now() - t);
  }
  for (let i = 0; i < 10; i++) {
    const texts = probeTexts.slice(i * 16, i * 16 + 16).map((q) => `${q} batch ${i}`);
    const t = performance.now();
    await embedder.embed(texts);
    split.embedBatched.push((performance.now() - t) / texts.length);
  }
  console.log('\ncost split on the index, one query at a time (ms)');
  table(
    [
      ['embed (USE-lite, one new query)', split.embedCold],
      ['embed (per query, batches of 16)', split.embedBatched],
      ['kNN (semantic, 60), in-memory HNSW graph', split.ann],
      ['kNN (semantic, 60), LanceDB IVF_FLAT', split.annTable],
      ['BM25 (keyword, 60), in-memory', split.bm25],
      ['BM25 (keyword, 60), LanceDB FTS', split.bm25Table],
      ['fusion (weighted, in process)', split.fusion],
    ].map(([stage, xs]) => ({
      stage: stage as string,
      p50: pct(xs as number[], 50),
      p95: pct(xs as number[], 95),
      p99: pct(xs as number[], 99),
    })),
  );

  // ---- the server --------------------------------------------------------------------------
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
  const verifier = createTokenVerifier({ getJwks: async () => ({ keys: [jwk] }) });
  const token = await new SignJWT({ email: 'bench@example.com', role: 'user', sid: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: ACCESS_TOKEN_TYPE })
    .setSubject(OWNER)
    .setIssuer(ACCESS_TOKEN_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  const search = createSearchModule({
    bus,
    verifier,
    logger,
    config: { ...searchConfig.parse({ SEARCH_REBUILD_ON_START: 'false' }), KABOODLE_DATA_DIR: dir },
    processing: {
      kind: 'in-process',
      module: () => ({
        name: 'processing',
        embedder: { ...USE_LITE_SPACE, embed: (t: string[]) => embedder.embed(t) },
      }),
    },
    catalogue: undefined,
    openIndex: () => index,
  });
  const http = createHttpServer({ logger });
  http.mount(search.router!);
  await search.start!();
  const server = http.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stopServer = async () => {
    await new Promise((r) => server.close(r));
    await search.stop!();
  };

  // "New" runs append a per-request tag to each query (nobody asked it before: neither the query
  // cache nor the result cache can help); "repeated" cycles a pool of 50.
  const texts = generateQueries(SEED + 1, 2_000);
  const pool = generateQueries(SEED + 2, 50);
  // Each path runs twice: through the in-memory index (the default) and the table's own kNN and FTS.
  const modes: {
    label: string;
    searchType: string;
    rate: number;
    queries: string[];
    unique: boolean;
    table?: boolean;
  }[] = [
    {
      label: 'keyword (in-memory), new queries',
      searchType: 'keyword',
      rate: 100,
      queries: texts,
      unique: true,
    },
    {
      label: 'semantic (vector kNN, in-memory), new queries',
      searchType: 'vector',
      rate: 50,
      queries: texts,
      unique: true,
    },
    {
      label: 'hybrid (API semantic, in-memory), new queries',
      searchType: 'semantic',
      rate: 50,
      queries: texts,
      unique: true,
    },
    {
      label: 'keyword (LanceDB FTS), new queries',
      searchType: 'keyword',
      rate: 100,
      queries: texts,
      unique: true,
      table: true,
    },
    {
      label: 'semantic (vector kNN, LanceDB), new queries',
      searchType: 'vector',
      rate: 50,
      queries: texts,
      unique: true,
      table: true,
    },
    {
      label: 'hybrid (API semantic, LanceDB), new queries',
      searchType: 'semantic',
      rate: 50,
      queries: texts,
      unique: true,
      table: true,
    },
    {
      label: 'hybrid, 50 repeated queries (cached)',
      searchType: 'semantic',
      rate: 50,
      queries: pool,
      unique: false,
    },
  ];
  // HTTP + token check + JSON, one request at a time: client latency minus the server's own total.
  const overhead: number[] = [];
  for (const q of pool.concat(pool).slice(0, 100)) {
    const t = performance.now();
    const res = await fetch(`${url}/api/search`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'x-requested-with': 'XMLHttpRequest',
      },
      body: JSON.stringify({ query: q, search_type: 'keyword', limit: 20 }),
    });
    await res.arrayBuffer();
    const client = performance.now() - t;
    const total = Number(/total;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
    overhead.push(client - total);
  }
  console.log(
    `HTTP + auth + JSON (client latency − server total, sequential keyword requests): p50 ${ms(pct(overhead, 50))} ms, p95 ${ms(pct(overhead, 95))} ms`,
  );

  // Warm-up: load the model's worker, the index caches and the HTTP path.
  await drive({ url, token, searchType: 'semantic', queries: pool, rate: 20, connections: 4, durationS: 3 });

  const rows: Record<string, string | number>[] = [];
  const serverRows: Record<string, string | number>[] = [];
  let run = 0;
  // --modes a,b: only the modes whose label contains one of these (a quicker look at a few paths)
  const modesAt = process.argv.indexOf('--modes');
  const only = modesAt >= 0 ? (process.argv[modesAt + 1] ?? '').split(',').filter((x) => x) : [];
  for (const m of modes) {
    if (only.length > 0 && !only.some((o) => m.label.includes(o))) continue;
    const job = (rate: number): DriverJob => ({
      url,
      token,
      searchType: m.searchType,
      queries: m.queries,
      ...(m.unique ? { uniqueTag: `r${++run}n` } : {}),
      rate,
      connections: CONNECTIONS,
      durationS: DURATION,
    });
    // Each run starts on an idle server: requests a finished run left queued are drained first.
    const settle = () => new Promise((r) => setTimeout(r, 5_000));
    await settle();
    index.useMemoryIndexes(!m.table);
    const fixed = await drive(job(m.rate));
    await settle();
    const saturated = await drive(job(0));
    const errs = (r: DriverResult) => r.failed;
    rows.push({
      mode: m.label,
      offered: `${m.rate}/s`,
      achieved: `${fixed.rps.toFixed(0)}/s`,
      p50: fixed.p50,
      p95: fixed.p95,
      p99: fixed.p99,
      errors: errs(fixed),
      'max req/s': saturated.rps.toFixed(0),
      'p50 @max': saturated.p50,
      'p99 @max': saturated.p99,
      'errors @max': errs(saturated),
    });
    const s = fixed.server;
    serverRows.push({
      mode: m.label,
      'embed p50': s.embed.p50,
      'index p50': s.index.p50,
      'total p50': s.total.p50,
      'embed p95': s.embed.p95,
      'index p95': s.index.p95,
      'total p95': s.total.p95,
    });
  }
  console.log(
    `\nPOST /api/search at a fixed offered rate and at saturation (${CONNECTIONS} connections, ${DURATION} s each; latency ms)`,
  );
  table(rows);
  console.log(
    '\nserver side at the fixed rate (Server-Timing of each response, ms; index = ANN/BM25/fusion)',
  );
  table(serverRows);
  const row = (label: string) => rows.find((r) => r.mode === label) ?? { p95: NaN };
  const keyword = row('keyword (in-memory), new queries');
  const vector = row('semantic (vector kNN, in-memory), new queries');
  const hybrid = row('hybrid (API semantic, in-memory), new queries');
  console.log(
    `\ngoals: keyword p95 ≤ 15 ms at 100 req/s: ${ms(keyword.p95 as number)} ms ${(keyword.p95 as number) <= 15 ? 'met' : 'NOT met'}; ` +
      `semantic/hybrid p95 ≤ 60 ms at 50 req/s: ${ms(vector.p95 as number)} / ${ms(hybrid.p95 as number)} ms ${Math.max(vector.p95 as number, hybrid.p95 as number) <= 60 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `query cache: ${JSON.stringify(search.embedder.stats)}; RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`,
  );
} finally {
  await stopServer?.();
  await index.close().catch(() => undefined);
  await embedder.close?.();
  await bus.close();
  if (!reuseDir) await rm(dir, { recursive: true, force: true });
}
