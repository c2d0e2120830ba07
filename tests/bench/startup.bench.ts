// How long `kaboodle --target=all` takes from spawn to "running at" on embedded engines, and the CPU
// it spent by then: cold (new data folder: PGlite initdb, migrations, first signing key), cold with
// the PGlite template (PGLITE_TEMPLATE_DIR: the empty cluster is copied instead of made by initdb,
// as every product a test starts does), the same with Node's compile cache (NODE_COMPILE_CACHE, as
// the Makefile sets: modules' bytecode is read, not compiled), and warm (same folder again, neither);
// plus idle RSS. Then the same
// two ways side by side for an in-process `memory://` database, what a unit test makes.
// The cold starts of a run rotate their order; each figure is the median of BENCH_RUNS (3).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import { createPgliteDatabase } from '@kaboodle/platform';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};
/** User + system CPU seconds of a process, every thread (fields 14 and 15 of /proc/<pid>/stat). */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

type Kind = 'cold' | 'template' | 'cached' | 'warm';
const runs = Number(process.env.BENCH_RUNS ?? 3);
const wall: Record<Kind, number[]> = { cold: [], template: [], cached: [], warm: [] };
const cpu: Record<Kind, number[]> = { cold: [], template: [], cached: [], warm: [] };
const rss: number[] = [];
const templates = mkdtempSync(path.join(tmpdir(), 'kaboodle-bench-template-'));
const compileCache = mkdtempSync(path.join(tmpdir(), 'kaboodle-bench-compile-'));
delete process.env.PGLITE_TEMPLATE_DIR;
delete process.env.NODE_COMPILE_CACHE;

async function start(kind: Kind, dataDir: string): Promise<void> {
  const env = {
    KABOODLE_DATA_DIR: dataDir,
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    S3_ENDPOINT: '',
    PGLITE_TEMPLATE_DIR: kind === 'template' || kind === 'cached' ? templates : undefined,
    NODE_COMPILE_CACHE: kind === 'cached' ? compileCache : undefined,
  };
  const t0 = performance.now();
  const app = await startKaboodleProcess({ target: 'all', env });
  wall[kind].push(performance.now() - t0);
  cpu[kind].push(cpuSeconds(app.child.pid!));
  const ready = await fetch(new URL('/readyz', app.url));
  if (!ready.ok) throw new Error(`/readyz answered ${ready.status}`);
  await new Promise((r) => setTimeout(r, 1000));
  if (kind === 'warm') rss.push(rssMb(app.child.pid!));
  await app.stop();
}

// the first product with a template directory keeps the template, the first with a compile cache
// fills it; neither is one of the figures
{
  const seed = tempDataDir('kaboodle-bench-');
  await start('cached', seed.dir);
  wall.cached.length = 0;
  cpu.cached.length = 0;
  seed.remove();
}
for (let i = 0; i < runs; i++) {
  const a = tempDataDir('kaboodle-bench-');
  const b = tempDataDir('kaboodle-bench-');
  const c = tempDataDir('kaboodle-bench-');
  const cold: [Kind, string][] = [
    ['cold', a.dir],
    ['template', b.dir],
    ['cached', c.dir],
  ];
  // the cold kinds rotate their order run by run; warm reopens the first folder
  const order = [...cold.slice(i % 3), ...cold.slice(0, i % 3), ['warm', a.dir] as [Kind, string]];
  for (const [kind, dir] of order) await start(kind, dir);
  a.remove();
  b.remove();
  c.remove();
}

// an in-process database, as a unit test makes one: initdb against the template
const memory: Record<'initdb' | 'template', number[]> = { initdb: [], template: [] };
async function openMemory(kind: 'initdb' | 'template', i: number): Promise<void> {
  if (kind === 'template') process.env.PGLITE_TEMPLATE_DIR = templates;
  else delete process.env.PGLITE_TEMPLATE_DIR;
  const before = process.cpuUsage();
  const db = createPgliteDatabase({ dataDir: `memory://bench-${kind}-${i}`, schema: 'bench' });
  await db.ping();
  const used = process.cpuUsage(before);
  memory[kind].push((used.user + used.system) / 1e6);
  await db.close();
}
await openMemory('initdb', -1); // compiles PGlite's WASM once, as a test file's first database does
memory.initdb.length = 0;
for (let i = 0; i < runs; i++) {
  for (const kind of i % 2 === 0 ? (['initdb', 'template'] as const) : (['template', 'initdb'] as const))
    await openMemory(kind, i);
}
rmSync(templates, { recursive: true, force: true });
rmSync(compileCache, { recursive: true, force: true });

const seconds = (xs: number[]) =>
  `median ${median(xs).toFixed(2)} s  [${xs.map((x) => x.toFixed(2)).join(', ')}]`;
console.log(`runs: ${runs}`);
const label: Record<Kind, string> = {
  cold: 'cold start (new data dir, initdb)          ',
  template: 'cold start (new data dir, PGlite template)',
  cached: 'cold start (template + Node compile cache)',
  warm: 'warm start (existing data)                ',
};
for (const kind of ['cold', 'template', 'cached', 'warm'] as const) {
  console.log(`${label[kind]} to URL: ${seconds(wall[kind].map((ms) => ms / 1000))}`);
  console.log(`${label[kind]} CPU:    ${seconds(cpu[kind])}`);
}
console.log(`idle RSS after start: median ${median(rss).toFixed(0)} MB`);
console.log(`new memory:// database, CPU: initdb ${seconds(memory.initdb)}`);
console.log(`new memory:// database, CPU: template ${seconds(memory.template)}`);
