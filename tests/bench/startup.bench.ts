// How long `kaboodle --target=all` takes from spawn to "running at" on embedded engines: cold (new data
// folder: PGlite initdb, migrations, first signing key) and warm (same folder again), plus idle RSS.
import { readFileSync } from 'node:fs';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

const runs = Number(process.env.BENCH_RUNS ?? 3);
const cold: number[] = [];
const warm: number[] = [];
const rss: number[] = [];
for (let i = 0; i < runs; i++) {
  const data = tempDataDir('kaboodle-bench-');
  const env = { KABOODLE_DATA_DIR: data.dir, DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' };
  for (const bucket of [cold, warm]) {
    const t0 = performance.now();
    const app = await startKaboodleProcess({ target: 'all', env });
    bucket.push(performance.now() - t0);
    const ready = await fetch(new URL('/readyz', app.url));
    if (!ready.ok) throw new Error(`/readyz answered ${ready.status}`);
    await new Promise((r) => setTimeout(r, 1000));
    if (bucket === warm) rss.push(rssMb(app.child.pid!));
    await app.stop();
  }
  data.remove();
}
console.log(`runs: ${runs}`);
console.log(
  `cold start to URL (new data dir): median ${(median(cold) / 1000).toFixed(2)} s  [${cold.map((x) => (x / 1000).toFixed(2)).join(', ')}]`,
);
console.log(
  `warm start to URL (existing data): median ${(median(warm) / 1000).toFixed(2)} s  [${warm.map((x) => (x / 1000).toFixed(2)).join(', ')}]`,
);
console.log(`idle RSS after start: median ${median(rss).toFixed(0)} MB`);
