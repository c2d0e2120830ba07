// Catalogue figures on this machine: storing documents (the file.processed path, one transaction each
// with its outbox events), listing and sorting pages, keyword search, the streamed CSV export (time and
// RSS growth: it must stay flat, keyset paging) and ListForIndex throughput. PGlite always; Postgres too
// when DATABASE_URL is set (a throwaway schema, dropped at the end).
//   node --expose-gc services/catalogue/bench/catalogue.bench.ts [documents=20000]
/* eslint-disable no-console -- a command-line benchmark: printing is its output */
import { randomUUID } from 'node:crypto';
import { createMemoryEventBus } from '@kaboodle/platform';
import { createPgliteDatabase } from '@kaboodle/platform';
import { createPostgresDatabase } from '@kaboodle/platform';
import { createOutbox } from '@kaboodle/platform';
import type { Database } from '@kaboodle/platform';
import { createEvent, Topics } from '@kaboodle/proto';
import { createActivityRepository } from '../src/activity.repository.ts';
import { createCatalogueReader } from '../src/catalogue-reader.ts';
import { createCatalogueService } from '../src/catalogue.service.ts';
import { csvRow } from '../src/csv-writer.ts';
import { createDocumentRepository } from '../src/document.repository.ts';
import { createInventoryRepository } from '../src/inventory.repository.ts';
import { createKaboodleRepository } from '../src/kaboodle.repository.ts';
import { migrations } from '../src/migrations.ts';
import { documentAnalysis, fileRef } from '../src/test-fixtures.ts';

const N = Number(process.argv[2] ?? 20_000);
const DIMS = 512;
const CATEGORIES = ['History', 'Economics', 'Crafts', 'Textiles', 'Science', 'Art', 'Law', 'Medicine'];
const WORDS = 'glass bead ledger stool joinery weave palm fan bowl clay kiln trade route coast market'.split(
  ' ',
);

const ms = (t: number) => `${t.toFixed(1)} ms`;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const rssMb = () => process.memoryUsage().rss / 1024 / 1024;

function analysis(i: number) {
  const base = documentAnalysis({
    title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`,
    category: CATEGORIES[i % CATEGORIES.length]!,
    year: 1900 + (i % 120),
  });
  const vec = Array.from({ length: DIMS }, (_, k) => Math.sin(i + k));
  return {
    ...base,
    summary: `${base.summary} ${WORDS.slice(0, 1 + (i % WORDS.length)).join(' ')}`,
    text: { text: `${base.text.text} ${'lorem ipsum '.repeat(200)}`, pageCount: 3, language: 'en' },
    embedding: { values: vec, provider: 'local', model: 'use-lite', dimensions: DIMS },
    passages: [0, 1, 2].map((p) => ({ text: `passage ${p}`, start: p * 10, end: p * 10 + 9, vector: vec })),
  };
}

async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
}

async function run(label: string, db: Database): Promise<void> {
  const bus = createMemoryEventBus();
  const outbox = createOutbox({ db, bus });
  await db.migrate([...migrations, ...outbox.migrations]);
  const documents = createDocumentRepository(db);
  const inventory = createInventoryRepository(db);
  const activity = createActivityRepository(db);
  const service = createCatalogueService({ db, documents, inventory, activity, outbox });
  const kaboodles = createKaboodleRepository(db);
  const reader = createCatalogueReader({ db, documents, inventory, kaboodles });
  const owner = `bench-${randomUUID()}`;

  console.log(`\n--- ${label}: ${N} documents (${DIMS}-dim embedding + 3 passages each) ---`);
  const storeStart = performance.now();
  const storeTimes: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await service.applyProcessed(
      createEvent(Topics.fileProcessed, {
        ownerId: owner,
        file: fileRef(owner),
        attempt: 1,
        result: { case: 'document', value: analysis(i) },
      }),
    );
    storeTimes.push(performance.now() - t);
  }
  const storeMs = performance.now() - storeStart;
  console.log(
    `store (file.processed → row + outbox): ${(N / (storeMs / 1000)).toFixed(0)} docs/s, p50 ${ms(pct(storeTimes, 0.5))}, p95 ${ms(pct(storeTimes, 0.95))}`,
  );

  const sample = async (name: string, fn: () => Promise<unknown>, runs = 30) => {
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) xs.push((await time(fn))[1]);
    console.log(`${name.padEnd(48)} p50 ${ms(pct(xs, 0.5))}  p95 ${ms(pct(xs, 0.95))}`);
  };
  await sample('list page 1, newest first', () =>
    documents.list(owner, { sort: 'created_at', order: 'desc' }, { page: 1, limit: 20 }),
  );
  await sample('list page 1, sort=title', () =>
    documents.list(owner, { sort: 'title', order: 'asc' }, { page: 1, limit: 20 }),
  );
  await sample(`list page ${Math.floor(N / 40)}, sort=publication_year`, () =>
    documents.list(
      owner,
      { sort: 'publication_year', order: 'asc' },
      { page: Math.floor(N / 40), limit: 20 },
    ),
  );
  await sample('list category filter', () =>
    documents.list(owner, { sort: 'title', order: 'asc', category: 'Crafts' }, { page: 1, limit: 20 }),
  );
  await sample('keyword search "kiln"', () =>
    documents.list(owner, { sort: 'created_at', order: 'desc', query: 'kiln' }, { page: 1, limit: 20 }),
  );
  await sample('categories', () => documents.categories(owner));
  await sample('stats', () => activity.stats(owner));

  global.gc?.();
  const before = rssMb();
  let peak = before;
  let bytes = 0;
  const [, exportMs] = await time(async () => {
    for await (const row of documents.iterate(owner, { sort: 'title', order: 'asc' }, 500, N)) {
      bytes += Buffer.byteLength(
        csvRow([
          row.id,
          row.title,
          row.author,
          row.category,
          row.summary,
          row.hashtags.map((h) => h.tag).join('; '),
        ]),
      );
      if (bytes % 50 === 0) peak = Math.max(peak, rssMb());
    }
  });
  peak = Math.max(peak, rssMb());
  console.log(
    `CSV export of ${N} rows (keyset, 500/batch): ${ms(exportMs)} (${(N / (exportMs / 1000)).toFixed(0)} rows/s, ${(bytes / 1e6).toFixed(1)} MB), RSS growth ${(peak - before).toFixed(0)} MB`,
  );

  let streamed = 0;
  const [, listMs] = await time(async () => {
    for await (const m of reader.listForIndex({ ownerId: owner })) if (m.entity.case) streamed++;
  });
  console.log(
    `ListForIndex (full protos with vectors): ${streamed} in ${ms(listMs)} (${(streamed / (listMs / 1000)).toFixed(0)}/s)`,
  );
  await bus.close();
}

const pg = createPgliteDatabase({ dataDir: `memory://catalogue-bench-${randomUUID()}`, schema: 'catalogue' });
await run('PGlite (embedded)', pg);
await pg.close();

if (process.env.DATABASE_URL) {
  const schema = `catalogue_bench_${randomUUID().slice(0, 8)}`;
  const db = createPostgresDatabase({ url: process.env.DATABASE_URL, schema });
  try {
    await run(`Postgres (${schema})`, db);
  } finally {
    await db.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await db.close();
  }
} else {
  console.log('\nPostgres: skipped (DATABASE_URL not set)');
}
