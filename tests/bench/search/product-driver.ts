// The search benches' load driver, a child process of its own (so the bench's arrays and timers do
// not share its event loop): POST /api/search at a fixed offered rate as an open loop, one request
// every 1/rate s whatever the answers do, each timed from when it was due (no coordinated omission),
// or at saturation (rate 0: autocannon over a fixed number of connections).
// Reads a DriverJob as JSON on stdin, writes a DriverResult as JSON on stdout.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export interface DriverJob {
  url: string;
  token: string;
  searchType: string;
  queries: string[];
  /** Set: every request's query gets `<tag><n>` appended, so no two ask the same thing (no cache helps). */
  uniqueTag?: string;
  /** Offered req/s; 0 = as fast as `connections` go (saturation). */
  rate: number;
  /** Connections at saturation (default 16); a fixed rate opens as many as it needs. */
  connections?: number;
  durationS: number;
}
type ServerPart = 'embed' | 'index' | 'total';
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
  /** Server-Timing of the answers per part (ms). */
  server: Record<ServerPart, { p50: number; p95: number }>;
}

export const percentile = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

/** The Server-Timing parts of every answer, and the request bodies, shared by both loops. */
function timings(job: DriverJob) {
  const parts: Record<ServerPart, number[]> = { embed: [], index: [], total: [] };
  let next = 0;
  return {
    body(): string {
      const n = next++;
      const base = job.queries[n % job.queries.length]!;
      const query = job.uniqueTag ? `${base} ${job.uniqueTag}${n}` : base;
      return JSON.stringify({ query, search_type: job.searchType, limit: 20 });
    },
    record(header: string): void {
      for (const m of header.matchAll(/(\w+);dur=([\d.]+)/g)) parts[m[1] as ServerPart]?.push(Number(m[2]));
    },
    summary(): Pick<DriverResult, 'serverP50' | 'serverP95' | 'server'> {
      const of = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95) });
      const server = { embed: of(parts.embed), index: of(parts.index), total: of(parts.total) };
      return { serverP50: server.total.p50, serverP95: server.total.p95, server };
    },
  };
}

async function fixedRate(job: DriverJob): Promise<DriverResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL('/api/search', job.url);
  const latencies: number[] = [];
  const timing = timings(job);
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
    const fire = (due: number) => {
      const payload = timing.body();
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
            timing.record(String(res.headers['server-timing'] ?? ''));
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
      while (n < total && started + n * interval <= now) fire(started + n++ * interval);
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
    ...timing.summary(),
  };
}

/**
 * Saturation: autocannon keeps `connections` requests in flight. Its own `overallRate` is not used
 * for the fixed rate: each connection sends its per-second quota back to back at the top of every
 * second, so "100 req/s" arrives as bursts and the latencies measured are the bursts'.
 */
async function saturate(job: DriverJob): Promise<DriverResult> {
  const timing = timings(job);
  const result = await autocannon({
    url: job.url,
    connections: job.connections ?? 16,
    duration: job.durationS,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: '/api/search',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${job.token}`,
          'x-requested-with': 'XMLHttpRequest',
        },
        setupRequest: (req) => ({ ...req, body: timing.body() }),
        onResponse: (_status, _body, _context, headers) => {
          // header names arrive as the server spelt them (Server-Timing)
          const name = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === 'server-timing');
          timing.record(name ? String(headers![name]) : '');
        },
      },
    ],
  });
  const lat = result.latency;
  const failed = result.non2xx + result.errors + result.timeouts;
  return {
    requests: result.requests.total,
    failed,
    ...(failed > 0
      ? { firstFailure: `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts` }
      : {}),
    rps: result.requests.total / result.duration,
    p50: lat.p50,
    // autocannon reports p97.5 and p99, not p95: interpolate between p90 and p97.5
    p95: lat.p90 + ((lat.p97_5 - lat.p90) * (95 - 90)) / (97.5 - 90),
    p99: lat.p99,
    max: lat.max,
    ...timing.summary(),
  };
}

const run = (job: DriverJob) => (job.rate > 0 ? fixedRate(job) : saturate(job));

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
