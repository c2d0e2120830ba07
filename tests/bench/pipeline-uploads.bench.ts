// Ten parallel 20 MB uploads against one server process (`kaboodle --target=auth,ingestion` with a
// private mock broker and embedded engines, so the figure is the upload path's own: streaming into
// the blob store, hashing, recording):
// server RSS growth over its warm baseline (goal ≤ 50 MB: uploads are never buffered whole) and MB/s.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import { ingestionClient } from '../support/ingestion-client.ts';
import { kafkaMockMissing, startKafkaMock } from '../chaos/support/private-engines.ts';

const PARALLEL = 10;
const SIZE = 20 * 1024 * 1024 - 4096; // just under the limit
const ROUNDS = Number(process.env.BENCH_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

const data = tempDataDir('kaboodle-bench-');
// Split targets need a broker; a private mock one takes the events (nobody processes the files).
const noMock = kafkaMockMissing();
const broker = noMock ? undefined : await startKafkaMock();
const target = broker ? 'auth,ingestion' : 'all';
if (noMock) console.log(`(${noMock}: measuring --target=all, so processing's work is in the figure too)`);
const app = await startKaboodleProcess({
  target,
  env: {
    KABOODLE_DATA_DIR: data.dir,
    DATABASE_URL: '',
    KAFKA_BROKERS: broker?.brokers ?? '',
    S3_ENDPOINT: '',
  },
});
const pid = app.child.pid!;
try {
  const api = ingestionClient(app.url);
  const token = await api.register('bencher');
  // Text bodies (processing is not in this process, so nothing reads them back): distinct per upload.
  const line = Buffer.from(
    'The cooperative ledger lists glass beads, stools and woven fans by weight and price.\n',
  );
  const base = Buffer.alloc(SIZE);
  for (let o = 0; o < SIZE; o += line.length) line.copy(base, o);
  const bodyFor = () => {
    const b = Buffer.from(base);
    b.write(randomBytes(16).toString('hex'), 0, 'latin1');
    return new Blob([b], { type: 'text/plain' });
  };

  // Warm-up: one upload so the baseline includes the code paths' steady state.
  await api.upload(token, { bytes: Buffer.from('warm up'), name: 'warm.txt', type: 'text/plain' });
  await new Promise((r) => setTimeout(r, 1_000));

  const growth: number[] = [];
  const rates: number[] = [];
  const baselines: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const bodies = Array.from({ length: PARALLEL }, bodyFor);
    const baseline = rssMb(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25);
    const t0 = performance.now();
    const answers = await Promise.all(
      bodies.map(async (blob, i) => {
        const form = new FormData();
        form.append('file', blob, `big-${round}-${i}.txt`);
        const res = await fetch(new URL('/upload', app.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
          body: form,
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    if (answers.some((s) => s !== 202)) throw new Error(`uploads answered ${answers.join(', ')}`);
    baselines.push(baseline);
    growth.push(peak - baseline);
    rates.push((PARALLEL * SIZE) / (1024 * 1024) / seconds);
    console.log(
      `round ${round + 1}: ${PARALLEL} × ${(SIZE / 1024 / 1024).toFixed(1)} MB in ${seconds.toFixed(2)} s; RSS ${baseline.toFixed(0)} → peak ${peak.toFixed(0)} MB`,
    );
    await new Promise((r) => setTimeout(r, 1_000));
  }
  const g = median(growth);
  console.log(
    `server: kaboodle --target=${target}, PGlite + local blob folder; ${ROUNDS} rounds; machine load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
  );
  console.log(`server RSS baseline (warm): median ${median(baselines).toFixed(0)} MB`);
  console.log(
    `server RSS growth during ${PARALLEL} parallel 20 MB uploads: median ${g.toFixed(1)} MB  [${growth.map((x) => x.toFixed(1)).join(', ')}]  (goal ≤ 50 MB: ${g <= 50 ? 'met' : 'MISSED'})`,
  );
  console.log(
    `upload throughput: median ${median(rates).toFixed(0)} MB/s  [${rates.map((x) => x.toFixed(0)).join(', ')}]`,
  );

  // The ingestion side alone for small files (what the throughput bench feeds the pipeline with):
  // accepted uploads per minute, 8 at a time, so its share of the end-to-end figure is visible.
  const SMALL = Number(process.env.BENCH_SMALL_FILES ?? 500);
  let nextSmall = 0;
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (nextSmall < SMALL) {
        const i = nextSmall++;
        const s0 = performance.now();
        const up = await api.upload(
          token,
          {
            bytes: Buffer.from(
              `Small note ${i} ${randomBytes(8).toString('hex')}\n${line.toString().repeat(12)}`,
            ),
            name: `n-${i}.txt`,
            type: 'text/plain',
          },
          {},
          '/upload',
        );
        if (up.status !== 202) throw new Error(`small upload answered ${up.status}`);
        latencies.push(performance.now() - s0);
      }
    }),
  );
  const perMin = (SMALL / ((performance.now() - t0) / 1000)) * 60;
  console.log(
    `small uploads accepted (1 KB, 8 at a time): ${perMin.toFixed(0)} files/min; latency p50 ${median(latencies).toFixed(0)} ms`,
  );
} finally {
  await app.stop();
  broker?.stop();
  data.remove();
}
