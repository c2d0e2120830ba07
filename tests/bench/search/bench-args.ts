// Command-line numbers for the search benches: `--name value`, else the fallback.

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
