// Runtime diagnostics the product bench loads into the server it measures (`node --import` this
// file; never loaded otherwise): event-loop delay (perf_hooks.monitorEventLoopDelay, sampled every
// 1 ms) and GC pauses (a PerformanceObserver on 'gc' entries). On SIGUSR2 the process writes what it
// saw since the previous signal to KABOODLE_BENCH_DIAGNOSTICS (a JSON file) and starts afresh, so
// the bench brackets each run with two signals. Why not the product's /metrics: its event-loop
// gauges sample every 10 ms and include that interval (an idle loop reads p99 ≈ 12 ms), reset on
// every scrape, and its GC histogram has no maximum; and an injected file measures today's code
// (the baseline checkout) exactly as it measures the new.
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const target = process.env.KABOODLE_BENCH_DIAGNOSTICS;
if (target) {
  const RESOLUTION_MS = 1;
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  const KINDS: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  let gc = {
    count: 0,
    totalMs: 0,
    maxMs: 0,
    byKind: {} as Record<string, { count: number; totalMs: number }>,
  };
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const detail = (e as PerformanceEntry & { detail?: { kind?: number } }).detail;
      const kind = KINDS[detail?.kind ?? -1] ?? 'other';
      gc.count++;
      gc.totalMs += e.duration;
      gc.maxMs = Math.max(gc.maxMs, e.duration);
      const k = (gc.byKind[kind] ??= { count: 0, totalMs: 0 });
      k.count++;
      k.totalMs += e.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  let since = Date.now();
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => (Number.isFinite(ns) ? ns / 1e6 : 0);
    const report = {
      pid: process.pid,
      from: since,
      to: Date.now(),
      eventLoop: {
        resolutionMs: RESOLUTION_MS,
        samples: delay.count,
        // each sample is the time between two 1 ms timer ticks, so an idle loop reads ~1 ms
        p50: ms(delay.percentile(50)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
      },
      gc,
      heapUsedMb: process.memoryUsage().heapUsed / 1048576,
      memory: memoryBreakdown(),
    };
    delay.reset();
    gc = { count: 0, totalMs: 0, maxMs: 0, byKind: {} };
    since = report.to;
    // Written whole, then renamed: the bench never reads half a report.
    writeFileSync(`${target}.tmp`, JSON.stringify(report));
    renameSync(`${target}.tmp`, target);
  });
}

/**
 * Where the process's RSS is (MB): the main isolate's V8 heap, the array buffers it holds (typed
 * arrays: the keyword index, vectors read into JS), and from /proc/self/smaps_rollup the anonymous
 * pages (heaps of every isolate, native allocations: usearch, LanceDB, onnxruntime) apart from the
 * file-backed ones (mapped files: libraries, models, index files the kernel may drop).
 */
function memoryBreakdown() {
  const mb = (bytes: number) => Math.round(bytes / 1048576);
  const m = process.memoryUsage();
  const kb: Record<string, number> = {};
  try {
    for (const line of readFileSync('/proc/self/smaps_rollup', 'utf8').split('\n')) {
      const hit = /^(\w+):\s+(\d+) kB/.exec(line);
      if (hit) kb[hit[1]!] = Number(hit[2]);
    }
  } catch {
    // not Linux: the smaps figures stay NaN
  }
  const anon = (kb.Anonymous ?? NaN) * 1024;
  return {
    rss: mb(m.rss),
    heapTotal: mb(m.heapTotal),
    heapUsed: mb(m.heapUsed),
    arrayBuffers: mb(m.arrayBuffers),
    external: mb(m.external),
    anonymous: mb(anon),
    fileBacked: mb((kb.Rss ?? NaN) * 1024 - anon),
  };
}
