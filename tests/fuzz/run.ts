// `make fuzz`: the fuzzing campaign against a throwaway `kaboodle --target=all`, and, when the real
// engines' URLs are set (DATABASE_URL, KAFKA_BROKERS and S3_ENDPOINT, as .ci/run exports them), the
// same against one process per service. Prints the seed first (replay: FUZZ_SEED=… make fuzz, or
// FUZZ_ONLY=<case> for one case), then per mode the verdict line, the table by route and every
// finding; exits 1 on any finding.
//   FUZZ_CASES (default 10000), FUZZ_SEED (default: random), FUZZ_CONCURRENCY (default 6),
//   FUZZ_MODES (all,split: default all, plus split when the engines are set), FUZZ_LIGHT=1 (no 19 MB corpus files)
import { randomInt } from 'node:crypto';
import { runCampaign } from './campaign.ts';
import { detailLine, findingsText, summaryLine } from './report.ts';
import type { Mode } from './targets.ts';

const env = process.env;
const cases = Number(env.FUZZ_CASES ?? 10_000);
const seed = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : randomInt(2 ** 31 - 1);
const concurrency = Number(env.FUZZ_CONCURRENCY ?? 6);
const only = env.FUZZ_ONLY !== undefined && env.FUZZ_ONLY !== '' ? Number(env.FUZZ_ONLY) : undefined;
const engines = Boolean(env.DATABASE_URL && env.KAFKA_BROKERS && env.S3_ENDPOINT);
const modes = (env.FUZZ_MODES ? env.FUZZ_MODES.split(',') : engines ? ['all', 'split'] : ['all']) as Mode[];

console.log(
  `fuzz: seed ${seed} (replay: FUZZ_SEED=${seed} FUZZ_CASES=${cases} make fuzz), ${cases} cases per mode, modes ${modes.join(', ')}`,
);
if (!engines && !env.FUZZ_MODES)
  console.log(
    'fuzz: split mode skipped: DATABASE_URL, KAFKA_BROKERS and S3_ENDPOINT are not all set (make engines-up or .ci/run)',
  );

let failed = false;
for (const mode of modes) {
  const result = await runCampaign({
    mode,
    cases,
    seed,
    concurrency,
    heavy: env.FUZZ_LIGHT !== '1',
    ...(only !== undefined ? { only } : {}),
    log: (line) => console.log(`[${mode}] ${line}`),
  });
  console.log(
    `\n## ${mode === 'all' ? '--target=all (embedded engines)' : 'split: one process per service (real engines)'}, seed ${seed}\n`,
  );
  console.log(summaryLine(result.cases, result.findings));
  console.log(detailLine(result.findings));
  console.log(`wall time ${(result.wallMs / 1000).toFixed(0)} s, concurrency ${concurrency}\n`);
  console.log(result.stats.table());
  console.log(`\n${result.leaks.lines.join('\n')}`);
  if (result.findings.length) {
    failed = true;
    console.log(`\nfindings:\n${findingsText(result.findings)}`);
  }
}
process.exit(failed ? 1 : 0);
