// The product bench's load driver, a child process of its own (so the bench's arrays and timers do
// not share its event loop): POST /api/search at a fixed offered rate as an open loop, one request
// every 1/rate s whatever the answers do, each timed from when it was due (no coordinated omission).
// Reads a DriverJob as JSON on stdin, writes a DriverResult as JSON on stdout.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

export interface DriverJob {
  url: string;
  token: string;
  searchType: string;
  queries: string[];
  /** Every request's query gets `<tag><n>` appended: no two requests ask the same thing (no cache helps). */
  uniqueTag: string;
  rate: number;
  durationS: number;
}
export interface DriverResult {
  requests: number;
  failed: number;
  /** The first failure's status or error, to say why. */
  firstFailure?: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Server-Timing `total` of the answers (ms). */
  serverP50: number;
  serverP95: number;
}

export const percentile = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

async function run(job: DriverJob): Promise<DriverResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL('/api/search', job.url);
  const latencies: number[] = [];
  const server: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  // A failed request counts at the time it took to fail (a timeout: 10 s), not as a missing sample.
  const fail = (why: string, due?: number) => {
    failed++;
    firstFailure ??= why;
    if (due !== undefined) latencies.push(performance.now() - due);
  };
  const total = Math.round(job.rate * job.durationS);
  const interval = 1000 / job.rate;
  const started = performance.now();
  await new Promise<void>((allDone) => {
    let finished = 0;
    const done = () => {
      if (++finished === total) allDone();
    };
    const fire = (n: number, due: number) => {
      const base = job.queries[n % job.queries.length]!;
      const payload = JSON.stringify({
        query: `${base} ${job.uniqueTag}${n}`,
        search_type: job.searchType,
        limit: 20,
      });
      const req = request(
        target,
        {
          method: 'POST',
          agent,
          timeout: 10_000,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            authorization: `Bearer ${job.token}`,
            'x-requested-with': 'XMLHttpRequest',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            const status = res.statusCode ?? 0;
            if (status < 200 || status > 299) fail(`HTTP ${status}`);
            const m = /total;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
            if (m) server.push(Number(m[1]));
            done();
          });
          res.on('error', (err) => {
            fail(err.message, due);
            done();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout after 10 s')));
      req.on('error', (err) => {
        fail(err.message, due);
        done();
      });
      req.end(payload);
    };
    let n = 0;
    const schedule = () => {
      // every request whose time has come goes now; then sleep until the next one is due
      const now = performance.now();
      while (n < total && started + n * interval <= now) fire(n, started + n++ * interval);
      if (n < total) setTimeout(schedule, Math.max(0, started + n * interval - performance.now()));
    };
    schedule();
  });
  agent.destroy();
  return {
    requests: total,
    failed,
    ...(firstFailure ? { firstFailure } : {}),
    rps: latencies.length / ((performance.now() - started) / 1000),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies.length ? Math.max(...latencies) : NaN,
    serverP50: percentile(server, 50),
    serverP95: percentile(server, 95),
  };
}

/** Run a job in a new driver process. */
export function drive(job: DriverJob): Promise<DriverResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.stdin.end(JSON.stringify(job));
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as DriverResult)
        : reject(new Error(`load driver exited with ${code}`)),
    );
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const result = await run(JSON.parse(input) as DriverJob);
  // Exit only once the answer is flushed to the pipe.
  process.stdout.write(JSON.stringify(result), () => process.exit(0));
}
