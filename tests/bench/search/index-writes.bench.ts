// Embedded index (LanceDB) write cost by batch size: 1,000 one-passage documents written 1, 2, 4 or 8
// per upsert into a fresh table each, side by side in one run. Prints process CPU per row (LanceDB's
// own threads included), wall per row, and a keyword query's CPU as the writes left the table (rows
// written since the last maintenance are not in the full-text index yet) and after optimize().
// Run: node tests/bench/search/index-writes.bench.ts [--rows N] [--runs N]
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLanceDbSearchIndex } from '@kaboodle/search';
import type { IndexedEntity } from '@kaboodle/search';
import { intArg } from './bench-args.ts';

const ROWS = intArg('--rows', 1_000);
const RUNS = intArg('--runs', 1);
const DIMS = 512;
const BATCHES = [1, 2, 4, 8];
const MAINTAIN_EVERY = 50; // writes between compaction + index refresh (the adapter's default)
const WORDS =
  'archive ceramic bowl woven basket ledger quarterly report inventory amber lamp brass vase linen scarf oak table'.split(
    ' ',
  );

function entity(i: number): IndexedEntity {
  const vector = new Float32Array(DIMS);
  let n = 0;
  for (let d = 0; d < DIMS; d++) n += (vector[d] = Math.sin(i * 31 + d)) ** 2;
  for (let d = 0; d < DIMS; d++) vector[d]! /= Math.sqrt(n);
  const content = `${Array.from({ length: 150 }, (_, k) => WORDS[(i * 13 + k * 7) % WORDS.length]).join(' ')} zq${i}tok`;
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const now = new Date();
  return {
    entityType: 'document',
    id,
    ownerId: 'bench-owner',
    version: 1,
    title: `Note ${i}`,
    description: content.slice(0, 200),
    content,
    category: 'Notes',
    hashtags: ['#notes'],
    keywords: [],
    url: `/api/documents/${id}/file`,
    imageUrl: '',
    createdAt: now,
    updatedAt: now,
    vector,
    passages: [{ text: content, start: 0, end: content.length, vector }],
  };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function keywordCpu(index: ReturnType<typeof createLanceDbSearchIndex>): Promise<number> {
  const queries: number[] = [];
  for (let q = 0; q < 50; q++) {
    const c = cpuMs();
    await index.search({
      ownerId: 'bench-owner',
      text: Array.from({ length: 10 }, (_, k) => `zq${(q * 10 + k) % ROWS}tok`).join(' '),
      mode: 'keyword',
      limit: 100,
    });
    queries.push(cpuMs() - c);
  }
  return median(queries);
}

async function run(batch: number): Promise<{ cpu: number; wall: number; query: number; optimized: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kaboodle-index-writes-'));
  const index = createLanceDbSearchIndex({ dir, dimensions: DIMS, optimizeEveryWrites: MAINTAIN_EVERY });
  try {
    await index.open();
    const c0 = cpuMs();
    const t0 = performance.now();
    for (let i = 0; i < ROWS; i += batch) {
      await index.upsert(Array.from({ length: Math.min(batch, ROWS - i) }, (_, k) => entity(i + k)));
    }
    const cpu = (cpuMs() - c0) / ROWS;
    const wall = (performance.now() - t0) / ROWS;
    const query = await keywordCpu(index);
    await index.optimize();
    return { cpu, wall, query, optimized: await keywordCpu(index) };
  } finally {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const results = new Map<number, { cpu: number[]; wall: number[]; query: number[]; optimized: number[] }>();
for (let r = 0; r < RUNS; r++) {
  for (const batch of r % 2 === 0 ? BATCHES : [...BATCHES].reverse()) {
    const got = await run(batch);
    const acc = results.get(batch) ?? { cpu: [], wall: [], query: [], optimized: [] };
    acc.cpu.push(got.cpu);
    acc.wall.push(got.wall);
    acc.query.push(got.query);
    acc.optimized.push(got.optimized);
    results.set(batch, acc);
  }
}
console.log(
  `${ROWS} one-passage documents (${DIMS} dims) per table, written N per upsert; medians of ${RUNS} run(s); ` +
    `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`,
);
console.table(
  BATCHES.map((b) => {
    const m = results.get(b)!;
    return {
      'rows per write': b,
      'CPU ms per row (all threads)': median(m.cpu).toFixed(1),
      'wall ms per row': median(m.wall).toFixed(1),
      'rows since last maintenance': ROWS - Math.floor(ROWS / b / MAINTAIN_EVERY) * MAINTAIN_EVERY * b,
      'keyword query CPU ms, as written / optimized': `${median(m.query).toFixed(1)} / ${median(m.optimized).toFixed(1)}`,
    };
  }),
);
