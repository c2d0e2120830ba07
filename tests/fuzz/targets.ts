// The throwaway Kaboodle the campaign runs against, on its own data folder: `--target=all` on the
// embedded engines, or (with DATABASE_URL, KAFKA_BROKERS and S3_ENDPOINT set, as .ci/run does) one
// process per service on the real engines. Each process gets a TMPDIR inside the data folder, so
// any temporary file it leaves is the campaign's to find; /proc gives its descriptors, threads and RSS.
import { mkdirSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import path from 'node:path';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import type { HostPort } from './accounts.ts';

export type Mode = 'all' | 'split';

export interface TargetProcess {
  role: string;
  proc: KaboodleProcess;
  hostPort: HostPort;
  tmpDir: string;
}

export interface Target {
  mode: Mode;
  dataDir: string;
  processes: TargetProcess[];
  /** Where registration and sign-in go. */
  auth: HostPort;
  /** Access-token lifetime the processes run with (short, so expired tokens are real ones). */
  tokenTtlMs: number;
  stop(): Promise<Array<number | null>>;
}

export const TOKEN_TTL_MS = 30_000;

const hostPortOf = (url: string): HostPort => {
  const u = new URL(url);
  return { host: u.hostname === 'localhost' ? '127.0.0.1' : u.hostname, port: Number(u.port) };
};

async function startOne(
  role: string,
  dataDir: string,
  env: Record<string, string | undefined>,
): Promise<TargetProcess> {
  const tmpDir = path.join(dataDir, `tmp-${role}`);
  mkdirSync(tmpDir, { recursive: true });
  const proc = await startKaboodleProcess({
    target: role,
    env: {
      KABOODLE_DATA_DIR: dataDir,
      TMPDIR: tmpDir,
      ACCESS_TOKEN_TTL: `${TOKEN_TTL_MS / 1000}s`,
      COOKIE_SECURE: 'false',
      ...env,
    },
  });
  return { role, proc, hostPort: hostPortOf(proc.url), tmpDir };
}

export async function startTarget(mode: Mode): Promise<Target> {
  const data = tempDataDir('kaboodle-fuzz-');
  const processes: TargetProcess[] = [];
  try {
    if (mode === 'all') {
      processes.push(
        await startOne('all', data.dir, { DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' }),
      );
    } else {
      // The order of tests/topology: auth and processing first, then the services that call them.
      const auth = await startOne('auth', data.dir, {});
      const processing = await startOne('processing', data.dir, {});
      processes.push(auth, processing);
      const grpc = (p: TargetProcess) => p.proc.grpcAddress!.replace(/^0\.0\.0\.0:/, '127.0.0.1:');
      const peers = { AUTH_URL: auth.proc.url, PROCESSING_GRPC_ADDRESS: grpc(processing) };
      const catalogue = await startOne('catalogue', data.dir, peers);
      processes.push(catalogue);
      for (const role of ['ingestion', 'search', 'web'])
        processes.push(await startOne(role, data.dir, { ...peers, CATALOGUE_GRPC_ADDRESS: grpc(catalogue) }));
    }
  } catch (err) {
    await Promise.all(processes.map((p) => p.proc.stop()));
    data.remove();
    throw err;
  }
  return {
    mode,
    dataDir: data.dir,
    processes,
    auth: processes.find((p) => p.role === 'all' || p.role === 'auth')!.hostPort,
    tokenTtlMs: TOKEN_TTL_MS,
    async stop() {
      const codes = await Promise.all(processes.map((p) => p.proc.stop()));
      data.remove();
      return codes;
    },
  };
}

export interface ProcessProbe {
  role: string;
  alive: boolean;
  fds: number;
  /** Descriptors on files in the data folder's temp places (blob tmp, TMPDIR). */
  tempHandles: string[];
  threads: number;
  rssBytes: number;
}

/** Files under a folder, recursively (missing folder: none). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const full = path.join(dir, name);
    try {
      if (statSync(full).isDirectory()) out.push(...filesUnder(full));
      else out.push(full);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Temp files of the target: blob-store partial writes and anything in each process's TMPDIR. */
export function tempFiles(target: Target): string[] {
  const blobTmp = (() => {
    try {
      return readdirSync(path.join(target.dataDir, 'blobs')).map((b) =>
        path.join(target.dataDir, 'blobs', b, 'tmp'),
      );
    } catch {
      return [];
    }
  })();
  return [...blobTmp, ...target.processes.map((p) => p.tmpDir)]
    .flatMap(filesUnder)
    .filter((f) => !RESIDENT_TEMP_FILES.test(path.basename(f)));
}

/** Under a blob store's tmp folder (<data>/blobs/<bucket>/tmp/) or a process's TMPDIR. */
const isTempPath = (target: Target, file: string) =>
  /^blobs\/[^/]+\/tmp\//.test(path.relative(target.dataDir, file)) ||
  target.processes.some((p) => file.startsWith(`${p.tmpDir}${path.sep}`));

/**
 * Files the OCR engine (tesseract.js's WASM core) writes once per process into TMPDIR and keeps: a
 * session id and an empty debug log. One per process, never one per file: not a leak.
 */
export const RESIDENT_TEMP_FILES = /^(\.ses|mat-debug-\d+\.log)$/;

export function probe(target: Target, p: TargetProcess): ProcessProbe {
  const pid = p.proc.child.pid!;
  const alive = p.proc.child.exitCode === null && p.proc.child.signalCode === null;
  if (!alive) return { role: p.role, alive, fds: 0, tempHandles: [], threads: 0, rssBytes: 0 };
  const fdDir = `/proc/${pid}/fd`;
  const tempHandles: string[] = [];
  let fds = 0;
  try {
    for (const fd of readdirSync(fdDir)) {
      fds++;
      try {
        const link = readlinkSync(path.join(fdDir, fd));
        if (
          link.startsWith(target.dataDir) &&
          isTempPath(target, link) &&
          !RESIDENT_TEMP_FILES.test(path.basename(link))
        )
          tempHandles.push(link);
      } catch {
        // closed between the listing and the read
      }
    }
  } catch {
    // the process is gone
  }
  const status = (() => {
    try {
      return readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      return '';
    }
  })();
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const threads = Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { role: p.role, alive, fds, tempHandles, threads, rssBytes: rssKb * 1024 };
}
