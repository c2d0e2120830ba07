// End-to-end throughput of the upload pipeline in one `kaboodle --target=all` process on embedded
// engines: 1,000 small text files, then 100 generated text PDFs, uploaded with bounded concurrency.
// Prints files/min and p50/p95 from upload start to searchable (the file's unique token is found by a
// keyword POST /api/search, several tokens per request, so polling does not load the embedder being
// measured; falls back to "completed" when no search service answers, and says so).
// Goal: ≥ 1,000 text files/min. BENCH_TEXT_FILES / BENCH_PDF_FILES / BENCH_CONCURRENCY override the sizes.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { makePdf } from '../../services/processing/src/extract/test-fixtures/generate-documents.ts';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import { ingestionClient } from '../support/ingestion-client.ts';
import { textFor } from './bench-texts.ts';

const TEXT_FILES = Number(process.env.BENCH_TEXT_FILES ?? 1000);
const PDF_FILES = Number(process.env.BENCH_PDF_FILES ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
/** Tokens per search request: the keyword side matches any of them, so one request checks several files. */
const TOKENS_PER_QUERY = 10;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
/** The server's CPU time so far (all threads), in ms, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
/** The same per thread name (a name's threads summed; a thread that has exited is no longer counted). */
const threadCpuMs = (pid: number) => {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the thread ended between listing and reading
    }
  }
  return byName;
};
const THREAD_NAMES: Record<string, string> = {
  WorkerThread: 'worker threads (embedding, vision)',
  MainThread: 'main thread',
  'tokio-rt-worker': 'LanceDB (tokio)',
  'lance-cpu': 'LanceDB (cpu pool)',
  V8Worker: 'V8 helpers (GC, compiler)',
  'libuv-worker': 'libuv pool',
};
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

interface Tracked {
  id: string;
  token: string;
  started: number;
  uploaded?: number;
  done?: number;
  failed?: string;
}

const data = tempDataDir('kaboodle-bench-');
const app = await startKaboodleProcess({
  target: 'all',
  env: {
    KABOODLE_DATA_DIR: data.dir,
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    S3_ENDPOINT: '',
    LOG_LEVEL: 'error',
  },
});
const pid = app.child.pid!;
const api = ingestionClient(app.url);

try {
  const token = await api.register('throughput');
  // Does a search service answer here? Otherwise measure time to `completed`.
  const probe = await api.call('POST', '/api/search', token, { query: 'probe', search_type: 'keyword' });
  const viaSearch = probe.status === 200;
  console.log(
    `server: kaboodle --target=all (PGlite, in-process bus, local blobs); uploads ${CONCURRENCY} at a time; ` +
      `machine load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores` +
      ['EMBED_THREADS', 'EMBED_RUNTIME', 'PROCESSING_CONCURRENCY']
        .filter((k) => process.env[k])
        .map((k) => `; ${k}=${process.env[k]}`)
        .join(''),
  );
  console.log(
    viaSearch
      ? 'time to searchable: from upload start until a keyword POST /api/search finds the file’s unique token'
      : `time to completed (POST /api/search answered ${probe.status}: no search service yet)`,
  );

  async function runPhase(
    label: string,
    count: number,
    make: (i: number, token: string) => Promise<{ bytes: Buffer; name: string; type: string }>,
  ) {
    const files: Tracked[] = [];
    const pending = new Set<Tracked>();
    const rssStart = rssMb(pid);
    const cpuStart = cpuMs(pid);
    const threadsStart = threadCpuMs(pid);
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 250);
    const t0 = performance.now();
    let next = 0;
    let uploadsDone = false;

    const uploader = async () => {
      while (next < count) {
        const i = next++;
        const tok = `zq${randomBytes(6).toString('hex')}`;
        const file = await make(i, tok);
        const t: Tracked = { id: '', token: tok, started: performance.now() };
        const res = await api.upload(token, file, {}, '/upload');
        if (res.status !== 202)
          throw new Error(`upload ${i} answered ${res.status}: ${JSON.stringify(res.body)}`);
        t.id = res.body.id;
        t.uploaded = performance.now();
        files.push(t);
        pending.add(t);
      }
    };

    const watcher = async () => {
      while (!uploadsDone || pending.size > 0) {
        const batch = [...pending].slice(0, viaSearch ? TOKENS_PER_QUERY : 20);
        if (batch.length === 0) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        let found = 0;
        if (viaSearch) {
          // keyword mode: the watcher must not load the embedder it is measuring
          const res = await api.call<{ results: { id: string }[] }>('POST', '/api/search', token, {
            query: batch.map((b) => b.token).join(' '),
            search_type: 'keyword',
            types: ['document'],
            limit: 100,
          });
          const ids = new Set(res.status === 200 ? res.body.results.map((r) => r.id) : []);
          const now = performance.now();
          for (const b of batch) {
            if (ids.has(b.id)) {
              b.done = now;
              pending.delete(b);
              found++;
            }
          }
        }
        // Failures never become searchable: take them out by status (checked for the oldest only).
        const oldest = [...pending][0];
        if (oldest && (!viaSearch || (found === 0 && performance.now() - oldest.uploaded! > 5_000))) {
          for (const b of viaSearch ? [oldest] : batch) {
            const s = await api.status(token, b.id);
            if (s.body.status === 'failed') {
              b.failed = s.body.error ?? 'failed';
              pending.delete(b);
            } else if (!viaSearch && s.body.status === 'completed') {
              b.done = performance.now();
              pending.delete(b);
              found++;
            }
          }
        }
        if (found === 0) await new Promise((r) => setTimeout(r, 200));
      }
    };

    const watching = watcher();
    await Promise.all(Array.from({ length: CONCURRENCY }, uploader));
    const uploadSeconds = (performance.now() - t0) / 1000;
    uploadsDone = true;
    await watching;
    const seconds = (performance.now() - t0) / 1000;
    const serverCpu = cpuMs(pid) - cpuStart;
    const threadsEnd = threadCpuMs(pid);
    clearInterval(sampler);

    const ok = files.filter((f) => f.done !== undefined);
    const failed = files.filter((f) => f.failed);
    const latencies = ok.map((f) => (f.done! - f.started) / 1000);
    console.log(
      `${label}: ${ok.length}/${count} ${viaSearch ? 'searchable' : 'completed'} in ${seconds.toFixed(1)} s ` +
        `(uploads took ${uploadSeconds.toFixed(1)} s) → ${((ok.length / seconds) * 60).toFixed(0)} files/min; ` +
        `p50 ${pct(latencies, 50).toFixed(1)} s, p95 ${pct(latencies, 95).toFixed(1)} s; ` +
        `server RSS ${rssStart.toFixed(0)} → peak ${rssPeak.toFixed(0)} MB` +
        (failed.length ? `; ${failed.length} failed (first: ${failed[0]!.failed})` : ''),
    );
    // CPU per file says what a faster machine or fewer cores would do; cores busy, how much of the
    // machine the server got (the rest: other processes, or waiting).
    console.log(
      `  server CPU ${(serverCpu / Math.max(1, count)).toFixed(0)} ms per file (all threads), ` +
        `${(serverCpu / 1000 / seconds).toFixed(2)} of ${cpus().length} cores busy; machine load now ${loadavg()[0]!.toFixed(1)}`,
    );
    // By thread (a main-thread --cpu-prof does not see the worker threads or LanceDB's native ones).
    const perThread = [...threadsEnd]
      .map(([name, ms]) => ({ name: THREAD_NAMES[name] ?? name, ms: ms - (threadsStart.get(name) ?? 0) }))
      .filter((t) => t.ms >= 0.01 * serverCpu)
      .sort((a, b) => b.ms - a.ms);
    console.log(
      `  by thread, per file: ${perThread.map((t) => `${t.name} ${(t.ms / Math.max(1, count)).toFixed(0)} ms`).join(', ')}`,
    );
    // Where the time goes: the server's own clock from record to completed (stored by the catalogue).
    const completedSec: number[] = [];
    const wanted = new Set(files.map((f) => f.id));
    for (let page = 1; ; page++) {
      const list = await api.call<{
        files: { id: string; status: string; created_at: string; updated_at: string }[];
      }>('GET', `/process/files?limit=100&page=${page}`, token);
      for (const f of list.body.files) {
        if (wanted.has(f.id) && f.status === 'completed') {
          completedSec.push((Date.parse(f.updated_at) - Date.parse(f.created_at)) / 1000);
        }
      }
      if (list.body.files.length < 100) break;
    }
    if (completedSec.length > 0) {
      console.log(
        `  of which record → completed (server clock): p50 ${pct(completedSec, 50).toFixed(1)} s, p95 ${pct(completedSec, 95).toFixed(1)} s`,
      );
    }
    return (ok.length / seconds) * 60;
  }

  const textRate = await runPhase('text files', TEXT_FILES, async (i, tok) => ({
    bytes: Buffer.from(textFor(i, tok)),
    name: `notes-${i}.txt`,
    type: 'text/plain',
  }));
  console.log(`text files goal ≥ 1,000 files/min: ${textRate >= 1000 ? 'met' : 'MISSED'}`);
  if (PDF_FILES > 0) {
    await runPhase('text PDFs', PDF_FILES, async (i, tok) => ({
      bytes: await makePdf({
        title: `Ledger ${i}`,
        pages: [0, 1].map((p) =>
          textFor(i + p, tok)
            .split('\n')
            .flatMap((l) => l.match(/.{1,90}(\s|$)/g) ?? [''])
            .map((l) => l.trim()),
        ),
      }),
      name: `ledger-${i}.pdf`,
      type: 'application/pdf',
    }));
  }
} finally {
  await app.stop();
  data.remove();
}
