// Test tiers (docs/conventions.md#9-tests-in-tiers): unit (colocated), contract (ports × adapters), api
// (black box), fuzz (seeded campaign over the OpenAPI document), topology (all vs split), e2e (real
// Chromium), eval (AI quality floors). `npx vitest run --project <name>` runs one tier.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: process.env.CI ? ['default'] : ['default'],
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
        },
      },
      {
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: { name: 'api', include: ['tests/api/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
      },
      {
        test: {
          name: 'topology',
          include: ['tests/topology/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // The fuzzing campaign's seeded short run (tests/fuzz; `make fuzz` is the long one).
        test: {
          name: 'fuzz',
          include: ['tests/fuzz/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Quality floors of the AI engine (tests/eval): real models, so one file at a time.
        test: {
          name: 'eval',
          include: ['tests/eval/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        // Reliability (kill -9, engines going away): real processes, one file at a time.
        test: {
          name: 'chaos',
          include: ['tests/chaos/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
