// Shared helpers for the processing benchmarks: medians, peak RSS, a fixed-width table.
/* eslint-disable no-console -- command-line benchmarks print their results */

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Peak resident set size of this process (all threads) in MB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

export async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
}

/**
 * Wall and CPU milliseconds (user + system, all threads of this process). On a shared machine the
 * wall time includes waiting for a core; the CPU time is what the work itself costs.
 */
export async function timeCpu<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const c = process.cpuUsage();
  const t = performance.now();
  const v = await fn();
  const d = process.cpuUsage(c);
  return [v, performance.now() - t, (d.user + d.system) / 1000];
}

/** The 1-minute load average and core count, printed with figures so contention is visible. */
export async function loadNote(): Promise<string> {
  const os = await import('node:os');
  return `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`;
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]!);
  const cell = (v: string | number) =>
    typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(1)) : v;
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k] ?? '').length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i]!)).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => cell(r[k] ?? '').padEnd(widths[i]!)).join('  '));
}

export function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
}
