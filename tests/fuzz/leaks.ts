// Nothing left behind: after the cases (and the processing they started) have settled, the target has
// no temp files (blob-store partial writes, anything in its TMPDIR), no descriptor on one, and no more
// descriptors, threads or memory than at the warm baseline, within the bounds below.
import type { Target } from './targets.ts';
import { probe, tempFiles } from './targets.ts';
import type { ProcessProbe } from './targets.ts';
import type { Finding } from './verdict.ts';

export interface Snapshot {
  at: number;
  processes: ProcessProbe[];
  tempFiles: string[];
}

export interface LeakReport {
  ok: boolean;
  lines: string[];
  findings: Finding[];
}

/**
 * Descriptors may differ from the baseline by a few that come and go on their own: keep-alive
 * sockets of the in-process bus and database clients, the watchdog's last /healthz socket, pino's
 * and the worker pools' pipes. A leak per request would exceed this after thousands of cases.
 */
export const FD_SLACK = 24;
/** Worker pools grow and shrink with load (processing's extract/embed/vision threads). */
export const THREAD_SLACK = 16;
/**
 * RSS may grow after the warm baseline by this much: V8 keeps heap it has grown into (it does not
 * return it at once), PGlite's WASM memory only grows, and the ONNX/OCR runtimes map their arenas on
 * first use of each model (the corpus's images load models the warm-up may not have). A leak of even
 * a few kilobytes per case (thousands of cases) or of any file's bytes would pass this.
 */
export const RSS_SLACK_BYTES = 384 * 1024 * 1024;

export async function measure(target: Target): Promise<Snapshot> {
  return {
    at: Date.now(),
    processes: target.processes.map((p) => probe(target, p)),
    tempFiles: tempFiles(target),
  };
}

/** Waits (up to 60 s) until no temp file remains and descriptor counts stop moving. */
export async function settle(target: Target): Promise<void> {
  const deadline = Date.now() + 60_000;
  let previous = '';
  let stableFor = 0;
  while (Date.now() < deadline) {
    const snap = await measure(target);
    const key = snap.processes.map((p) => p.fds).join(',');
    stableFor = key === previous && snap.tempFiles.length === 0 ? stableFor + 1 : 0;
    if (stableFor >= 3) return;
    previous = key;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Pools that grew under load shrink on their own once idle: LanceDB's tokio runtime keeps an idle
 * blocking thread about 10 s (a burst of concurrent searches leaves twenty of them for that long).
 * So a growth must still be there after this long to count: a leak stays, an idle pool does not.
 */
export const IDLE_POOL_MS = 30_000;

/** checkLeaks against the baseline, measured again (for up to IDLE_POOL_MS) until nothing looks grown. */
export async function checkLeaksWhenIdle(before: Snapshot, target: Target): Promise<LeakReport> {
  const deadline = Date.now() + IDLE_POOL_MS;
  for (;;) {
    const report = checkLeaks(before, await measure(target), target);
    if (report.ok || Date.now() >= deadline) return report;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

const mb = (b: number) => `${Math.round(b / 1024 / 1024)} MB`;

export function checkLeaks(before: Snapshot, after: Snapshot, target: Target): LeakReport {
  const lines: string[] = [];
  const findings: Finding[] = [];
  const leak = (route: string, detail: string) => findings.push({ kind: 'leak', route, detail });
  if (after.tempFiles.length)
    leak(
      'temp files',
      `${after.tempFiles.length} left: ${after.tempFiles
        .slice(0, 5)
        .map((f) => f.replace(target.dataDir, '<data>'))
        .join(', ')}`,
    );
  for (const a of after.processes) {
    const b = before.processes.find((p) => p.role === a.role)!;
    lines.push(
      `${a.role}: fds ${b.fds} → ${a.fds}, threads ${b.threads} → ${a.threads}, RSS ${mb(b.rssBytes)} → ${mb(a.rssBytes)}, temp handles ${a.tempHandles.length}`,
    );
    if (a.tempHandles.length)
      leak(`process ${a.role}`, `open handles on temp files: ${a.tempHandles.slice(0, 5).join(', ')}`);
    if (a.fds > b.fds + FD_SLACK)
      leak(`process ${a.role}`, `descriptors grew from ${b.fds} to ${a.fds} (slack ${FD_SLACK})`);
    if (a.threads > b.threads + THREAD_SLACK)
      leak(`process ${a.role}`, `threads grew from ${b.threads} to ${a.threads} (slack ${THREAD_SLACK})`);
    if (a.rssBytes > b.rssBytes + RSS_SLACK_BYTES)
      leak(
        `process ${a.role}`,
        `RSS grew from ${mb(b.rssBytes)} to ${mb(a.rssBytes)} (slack ${mb(RSS_SLACK_BYTES)})`,
      );
  }
  lines.push(`temp files: ${before.tempFiles.length} → ${after.tempFiles.length}`);
  return { ok: findings.length === 0, lines, findings };
}
