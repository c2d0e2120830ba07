// Command-line numbers for the search benches: `--name value`, else the fallback. `--help` (or `-h`)
// prints the running bench's opening comment, which says how to run it, and exits: a bench takes
// no option it does not know, so `--help` would otherwise run it (a product bench fills 100,000 items).
import { readFileSync } from 'node:fs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  const lines = readFileSync(process.argv[1]!, 'utf8').split('\n');
  const usage = lines.slice(
    0,
    lines.findIndex((l) => !l.startsWith('//')),
  );
  console.log(usage.map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}

function raw(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** A positive integer option (counts, seeds, runs). */
export function intArg(name: string, fallback: number): number {
  const v = raw(name, fallback);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
}

/** A positive number option (durations, rates). */
export function numberArg(name: string, fallback: number): number {
  const v = raw(name, fallback);
  if (!Number.isFinite(v) || v < 1) throw new Error(`${name} must be a positive number`);
  return v;
}

/** A string option, or undefined when absent. */
export function stringArg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Every `flag NAME=VALUE` pair given (e.g. --env, --baseline-env), as an environment. */
export function envArgs(flag: string): Record<string, string> {
  return Object.fromEntries(
    process.argv.flatMap((a, i) =>
      process.argv[i - 1] === flag && a.includes('=') ? [a.split(/=(.*)/s, 2)] : [],
    ),
  ) as Record<string, string>;
}
