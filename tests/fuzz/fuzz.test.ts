// The fuzzing campaign's seeded short run inside `make test`: a few hundred cases of every kind plus
// the light hostile corpus against a throwaway `kaboodle --target=all`. The seed is printed; replay a
// failure with FUZZ_SEED=<seed> (here or with `make fuzz`). `make fuzz` runs 10,000 cases.
import { randomInt } from 'node:crypto';
import { expect, it } from 'vitest';
import { runCampaign } from './campaign.ts';
import { detailLine, findingsText, summaryLine } from './report.ts';

// CI replays one fixed seed so a run's verdict belongs to its commit; elsewhere each run explores a
// new one (`make fuzz` explores 10,000 cases).
const CI_SEED = 20261126;
const seed = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : process.env.CI
    ? CI_SEED
    : randomInt(2 ** 31 - 1);
const cases = Number(process.env.FUZZ_TEST_CASES ?? 300);

it(`answers ${cases} fuzzed requests without a crash, an undeclared status, a leak or a breach (seed ${seed})`, async () => {
  console.log(`[fuzz] seed ${seed}: replay with FUZZ_SEED=${seed} npx vitest run --project fuzz`);
  const result = await runCampaign({
    mode: 'all',
    cases,
    seed,
    concurrency: 4,
    heavy: false,
    settleMs: 90_000,
    log: (line) => console.log(`[fuzz] ${line}`),
  });
  console.log(
    `${summaryLine(result.cases, result.findings)}\n${detailLine(result.findings)}\n${result.stats.table()}`,
  );
  expect(result.findings, `seed ${seed}\n${findingsText(result.findings)}`).toEqual([]);
  expect(result.cases).toBeGreaterThanOrEqual(cases);
});
