// Test tiers (docs/conventions.md#9-tests-in-tiers): unit (colocated), contract (ports × adapters), api
// (black box), fuzz (seeded campaign over the OpenAPI document), topology (all vs split), e2e (real
// Chromium), eval (AI quality floors). `npx vitest run --project <name>` runs one tier.
import { availableParallelism, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Every new embedded database (a fresh one per unit test, one per product process) is copied from an
// empty cluster kept here instead of made by initdb: 2.2–2.5 s of CPU less each (pglite-template.ts).
// Workers and the products they start inherit it.
process.env.PGLITE_TEMPLATE_DIR ||= resolve(import.meta.dirname, '.cache/pglite');
process.env.NODE_COMPILE_CACHE ||= resolve(import.meta.dirname, '.cache/node-compile');

// Two lanes. Self-contained tiers (each file on its own engines, schemas or topics; topology files on
// a private broker too) share one pool of workers. Vitest's default of cores − 1 gives a 2-core CI
// machine a single worker, so these tiers ran one file at a time although most of a contract or
// chaos file is waiting on a broker or a child process. After the pool, one file at a time:
// topology, whose files run split products on CI's shared Kafka and Postgres (two at once would
// consume each other's events), and e2e, which is CPU-bound (Chromium and a product per file: two
// at once gained about 10 % on two cores) and holds screens to timing budgets (a debounce check
// failed when two files shared the cores). Vitest gives every project that runs one file at a time
// a single queue after the pool (groupSpecs in vitest/dist), so these lanes cannot run side by side
// within one run: `make test` (tests/run-vitest.sh) runs the pool, then two lanes in their own vitest
// processes: e2e files with timing budgets beside topology alone, the other e2e files two at once.
// The pool has one worker more than the machine has cores: its files wait on brokers, child
// processes and Chromium often enough that a 2-core CI machine was 81 % busy with 2 workers and
// 90 % with 3, which ended the pool in 647 s instead of 771 s (docs/benchmarks/2026-11-27-ci-time.md).
// At most one worker per 2 GB of memory (a worker with a product, models and PGlite can hold that).
// TEST_WORKERS overrides the pool size.
const pool =
  Number(process.env.TEST_WORKERS) ||
  Math.max(2, Math.min(availableParallelism() + 1, Math.floor(totalmem() / 2 ** 31)));
// Topology files that run split products on CI's shared engines (KAFKA_BROKERS, DATABASE_URL); a new
// topology file that does so must be listed here.
const SHARED_ENGINE_TOPOLOGY = [
  'tests/topology/topology.test.ts',
  'tests/topology/api-contract.test.ts',
  'tests/topology/admin-command.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'services/*/src/**/*.test.ts',
            'proto/src/**/*.test.ts',
            'frontends/*/src/**/*.test.{ts,tsx}',
          ],
          testTimeout: 20_000,
          maxWorkers: pool,
        },
      },
      {
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: pool,
        },
      },
      {
        // Each file starts its products on embedded or private engines; catalogue-postgres is the
        // one on CI's shared Postgres, in its own schema, with no bus.
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: pool,
        },
      },
      {
        // The topology files whose split products use CI's shared Kafka and Postgres: one at a time.
        test: {
          name: 'topology',
          include: SHARED_ENGINE_TOPOLOGY,
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // The rest of the topology tier brings its own engines (a private librdkafka mock broker, or
        // embedded ones): it joins the pool.
        test: {
          name: 'topology-private',
          include: ['tests/topology/**/*.test.ts'],
          exclude: SHARED_ENGINE_TOPOLOGY,
          testTimeout: 180_000,
          hookTimeout: 180_000,
          maxWorkers: pool,
        },
      },
      {
        // The fuzzing campaign's seeded short run (tests/fuzz; `make fuzz` is the long one).
        test: {
          name: 'fuzz',
          include: ['tests/fuzz/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 60_000,
          maxWorkers: pool,
        },
      },
      {
        // Quality floors of the AI engine (tests/eval): real models, in process.
        test: {
          name: 'eval',
          include: ['tests/eval/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          maxWorkers: pool,
        },
      },
      {
        // Reliability (kill -9, engines going away): real processes on private engines.
        test: {
          name: 'chaos',
          include: ['tests/chaos/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          maxWorkers: pool,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // A poll waits for a screen to reach a state; vitest's 1 s default failed a dashboard
          // fetch on a busy CI machine (the topology lane runs beside e2e). Budgets are measured
          // explicitly, never through a poll's timeout.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
