// The product process the product bench measures: `kaboodle --target=all` of a checkout (this one or
// a baseline worktree) on embedded engines, with its own data folder and port, the bench's runtime
// diagnostics preloaded (product-diagnostics.ts), RSS sampled from /proc, and the bench user it signs
// up, verifies and signs in through the real auth API.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyAddress } from '../../support/mail-links.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const THIS_CHECKOUT = path.resolve(here, '../../..');
const DIAGNOSTICS = path.join(here, 'product-diagnostics.ts');

export interface Checkout {
  label: string;
  root: string;
  commit: string;
}

/** A checkout to run: its own node_modules must resolve its own packages (a hard-linked copy, not a symlink). */
export function checkoutAt(label: string, root: string): Checkout {
  const abs = path.resolve(root);
  const main = path.join(abs, 'services/server/src/main.ts');
  if (!existsSync(main)) throw new Error(`${abs}: no services/server/src/main.ts (not a Kaboodle checkout)`);
  const pkg = path.join(abs, 'node_modules/@kaboodle/search');
  if (!existsSync(pkg))
    throw new Error(`${abs}: node_modules missing (cp -al <checkout>/node_modules ${abs}/)`);
  const real = realpathSync(pkg);
  if (!real.startsWith(abs + path.sep))
    throw new Error(
      `${abs}: @kaboodle/search resolves to ${real}, another checkout's code (node_modules must be copied, e.g. cp -al, not symlinked)`,
    );
  let commit = '?';
  try {
    // git itself: worktrees, packed refs and detached heads all resolve
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: abs, encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout (a copied tree): the commit is only printed
  }
  return { label, root: abs, commit: commit.slice(0, 9) };
}

export interface ProductServer {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** performance.now() when the process was spawned. */
  readonly spawnedAt: number;
  /** ms from spawn to the "running at" line. */
  readonly listeningMs: number;
  output(): string;
  /** Resolves with the ms from spawn when a line matching `re` is printed (at once if it was). */
  waitForLine(re: RegExp, timeoutMs: number): Promise<number | undefined>;
  /** What the diagnostics preload saw since the previous call (event loop, GC). */
  diagnostics(): Promise<Diagnostics>;
  stop(): Promise<void>;
}

export interface Diagnostics {
  eventLoop: { resolutionMs: number; samples: number; p50: number; p99: number; max: number };
  gc: {
    count: number;
    totalMs: number;
    maxMs: number;
    byKind: Record<string, { count: number; totalMs: number }>;
  };
  heapUsedMb: number;
  /** Where the RSS is, MB (product-diagnostics.ts memoryBreakdown; absent from an older checkout's file). */
  memory?: MemoryBreakdown;
}

export interface MemoryBreakdown {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  arrayBuffers: number;
  external: number;
  anonymous: number;
  fileBacked: number;
}

export interface StartOptions {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
  timeoutMs?: number;
  /**
   * The server is killed when its RSS passes this (MB): an overloaded server can queue requests
   * until it takes the shared machine's memory (18 GB seen at 20k items under a saturated hybrid run).
   */
  maxRssMb?: number;
}

export function startProduct(checkout: Checkout, opts: StartOptions): Promise<ProductServer> {
  const diagFile = path.join(opts.dataDir, `bench-diagnostics-${randomUUID()}.json`);
  const spawnedAt = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', DIAGNOSTICS, path.join(checkout.root, 'services/server/src/main.ts'), '--target=all'],
    {
      cwd: checkout.root,
      env: {
        ...process.env,
        PORT: String(opts.port),
        GRPC_PORT: '0',
        KABOODLE_DATA_DIR: opts.dataDir,
        // embedded engines whatever the caller's shell exported
        DATABASE_URL: '',
        KAFKA_BROKERS: '',
        S3_ENDPOINT: '',
        ELASTICSEARCH_URL: '',
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
        ACCESS_TOKEN_TTL: '1h',
        // The corpus is written straight into the index, not through the catalogue: a rebuild at
        // start (it runs while the photo index is empty) would prune every item as an orphan.
        SEARCH_REBUILD_ON_START: 'false',
        KABOODLE_BENCH_DIAGNOSTICS: diagFile,
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // Only the last 64 kB of output is kept (an info-level server logs every request).
  let out = '';
  const waiters: { re: RegExp; resolve: (ms: number | undefined) => void }[] = [];
  const seen: { re: RegExp; ms: number }[] = [];
  // Lines a caller may wait for later are remembered from the start (the in-memory index can be
  // built before anyone asks).
  const watched: RegExp[] = [MEMORY_INDEX_BUILT, SNAPSHOT_SAVED, LOADED_UNCHANGED];
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    const now = performance.now() - spawnedAt;
    out = (out + text).slice(-65_536);
    for (const w of [...waiters]) {
      if (w.re.test(text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(now);
      }
    }
    for (const s of watched) if (!seen.some((x) => x.re === s) && s.test(text)) seen.push({ re: s, ms: now });
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const maxRss = opts.maxRssMb ?? 8_192;
  const watchdog = setInterval(() => {
    const rss = rssMb(child.pid!);
    if (rss > maxRss) {
      clearInterval(watchdog);
      out += `\n[bench] killed: RSS ${rss.toFixed(0)} MB over --max-rss ${maxRss} MB\n`;
      console.error(`${checkout.label}: server RSS ${rss.toFixed(0)} MB is over ${maxRss} MB: killed`);
      child.kill('SIGKILL');
    }
  }, 250);
  watchdog.unref();
  child.once('exit', () => clearInterval(watchdog));

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${checkout.label}: kaboodle did not start in time:\n${out}`));
    }, opts.timeoutMs ?? 180_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${checkout.label}: kaboodle exited with ${code} before it was ready:\n${out}`));
    };
    child.once('exit', onExit);
    const ready = (text: string) => {
      const m = /Kaboodle is running at (\S+)/.exec(text);
      if (!m) return;
      child.stdout!.off('data', onReady);
      clearTimeout(timer);
      child.off('exit', onExit);
      const listeningMs = performance.now() - spawnedAt;
      resolve({
        url: m[1]!,
        pid: child.pid!,
        child,
        spawnedAt,
        listeningMs,
        output: () => out,
        waitForLine(re, timeoutMs) {
          const hit = seen.find((s) => s.re === re);
          if (hit) return Promise.resolve(hit.ms);
          return new Promise((done) => {
            const w = { re, resolve: done };
            waiters.push(w);
            setTimeout(() => {
              const i = waiters.indexOf(w);
              if (i >= 0) waiters.splice(i, 1);
              done(undefined);
            }, timeoutMs).unref();
          });
        },
        async diagnostics() {
          if (child.exitCode !== null || child.signalCode !== null)
            throw new Error(
              `${checkout.label}: the server exited (${child.exitCode ?? child.signalCode}):\n${out.slice(-2_000)}`,
            );
          rmSync(diagFile, { force: true });
          child.kill('SIGUSR2');
          for (let i = 0; i < 100 && !existsSync(diagFile); i++) await new Promise((r) => setTimeout(r, 20));
          return JSON.parse(await readFile(diagFile, 'utf8')) as Diagnostics;
        },
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
          await exited;
          clearTimeout(killer);
          rmSync(diagFile, { force: true });
        },
      });
    };
    let head = '';
    const onReady = (chunk: Buffer) => {
      head += chunk.toString();
      ready(head);
    };
    child.stdout!.on('data', onReady);
  });
}

/** The big owner's in-memory index is ready: built from the table, or loaded from its snapshot. */
export const MEMORY_INDEX_BUILT = /(built|loaded) an owner.s in-memory index/;
/** An owner's in-memory index snapshot is saved: after a build, or a load whose reconcile changed it. */
export const SNAPSHOT_SAVED = /saved an owner.s in-memory index snapshot/;
/** A load from a snapshot whose reconcile changed nothing: no save follows. */
export const LOADED_UNCHANGED =
  /"applied":0,"removed":0,.*loaded an owner.s in-memory index from its snapshot/;

/** The server's resident set (MB), from /proc. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples a process's RSS every `everyMs` until stopped: the peak and the last reading. */
/** USER_HZ: the unit of /proc's CPU times (100 on every Linux this runs on). */
const CLOCK_TICKS_PER_S = 100;

/** The fields of a /proc stat file after "(comm) ", from field 3 (state) on; none once the process is gone. */
function statFields(file: string): string[] {
  try {
    const stat = readFileSync(file, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
}

/**
 * CPU time (ms) the process has used so far, all its threads and its main thread alone (where
 * requests, the in-memory index and the event loop run): utime + stime of /proc/<pid>/stat and of
 * /proc/<pid>/task/<pid>/stat. NaN once the process is gone.
 */
export function cpuMs(pid: number): { all: number; main: number } {
  // utime and stime are fields 14 and 15
  const ticks = (file: string): number => {
    const fields = statFields(file);
    return Number(fields[11] ?? NaN) + Number(fields[12] ?? NaN);
  };
  const ms = (t: number) => (t * 1000) / CLOCK_TICKS_PER_S;
  return { all: ms(ticks(`/proc/${pid}/stat`)), main: ms(ticks(`/proc/${pid}/task/${pid}/stat`)) };
}

/**
 * Minor page faults of the process so far (field 10 of /proc/<pid>/stat): memory it gave back to the
 * kernel comes back as faults. NaN once the process is gone.
 */
export function minorFaults(pid: number): number {
  return Number(statFields(`/proc/${pid}/stat`)[7] ?? NaN);
}

export function rssSampler(pid: number, everyMs = 200): { stop(): { maxMb: number; endMb: number } } {
  let max = rssMb(pid);
  const timer = setInterval(() => (max = Math.max(max, rssMb(pid) || 0)), everyMs);
  return {
    stop() {
      clearInterval(timer);
      const end = rssMb(pid);
      return { maxMb: Math.max(max, end || 0), endMb: end };
    },
  };
}

// ---- the bench user ---------------------------------------------------------------------------
export interface BenchUser {
  email: string;
  password: string;
  id: string;
}

const USER_FILE = 'bench-user.json';
const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

const subjectOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;

/** Sign up and verify the bench user on a running server with an empty data folder; saved beside the data. */
export async function signUp(server: ProductServer, dataDir: string): Promise<BenchUser> {
  const email = `bench-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'a long enough bench passphrase';
  const res = await fetch(new URL('/api/auth/register', server.url), {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password, name: 'Bench Owner' }),
  });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  await verifyAddress(server.url, dataDir, email);
  const user = { email, password, id: subjectOf(token) };
  await writeFile(path.join(dataDir, USER_FILE), JSON.stringify(user));
  return user;
}

export async function savedUser(dataDir: string): Promise<BenchUser | undefined> {
  const file = path.join(dataDir, USER_FILE);
  return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as BenchUser) : undefined;
}

/** A fresh access token for the bench user. */
export async function signIn(url: string, user: BenchUser): Promise<string> {
  const res = await fetch(new URL('/api/auth/login', url), {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** One search as the web app sends it: the status, and the ids of the results in order. */
export async function search(
  server: ProductServer,
  token: string,
  query: string,
  searchType: string,
  limit = 20,
) {
  const res = await fetch(new URL('/api/search', server.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-requested-with': 'XMLHttpRequest',
    },
    body: JSON.stringify({ query, search_type: searchType, limit }),
  });
  const body = (await res.json().catch(() => ({}))) as { results?: { id: string }[] };
  return { status: res.status, ids: (body.results ?? []).map((r) => r.id) };
}
