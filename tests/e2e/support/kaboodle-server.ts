// Starts the real product (`node services/server/src/main.ts --target=all`) for the browser tests:
// any free port, a throwaway data folder, and the URL parsed from its "running at" line.
// It builds nothing: `make test` builds the frontends first.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAIN = path.join(REPO_ROOT, 'services/server/src/main.ts');
const READY = /Kaboodle is running at (https?:\/\/[^\s)]+)/;

export interface KaboodleServer {
  url: string;
  /** The server's data folder (its mail/ holds the messages the local mail adapter wrote); unset for KABOODLE_E2E_URL. */
  dataDir: string | undefined;
  output(): string;
  stop(): Promise<void>;
}

/** Set to run the suite against an already running Kaboodle (e.g. a staging deployment) instead. */
const EXTERNAL_URL = process.env.KABOODLE_E2E_URL;

/** Why the e2e suite cannot run here, or null when it can. */
export function missingPrerequisite(): string | null {
  if (EXTERNAL_URL) return existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed`;
  if (!existsSync(MAIN)) return `${path.relative(REPO_ROOT, MAIN)} does not exist yet`;
  for (const app of ['shell', 'dashboard', 'vault', 'inventory', 'observatory']) {
    if (
      !existsSync(
        path.join(REPO_ROOT, 'frontends', app, 'dist', app === 'shell' ? 'index.html' : 'mf-manifest.json'),
      )
    ) {
      return `frontends/${app} is not built (run make build)`;
    }
  }
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is not installed`;
  return null;
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function startKaboodle(
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<KaboodleServer> {
  if (EXTERNAL_URL)
    return {
      url: EXTERNAL_URL.replace(/\/$/, ''),
      dataDir: undefined,
      output: () => '',
      stop: async () => undefined,
    };
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kaboodle-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [MAIN, '--target=all'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      GRPC_PORT: '0',
      LOG_LEVEL: 'warn',
      KABOODLE_DATA_DIR: dataDir,
      // The product as `make up` runs it: embedded engines, private to this server. CI exports the
      // shared engines' URLs for the contract suites; inherited here, the e2e files' servers (run
      // at the same time) joined the same Kafka consumer groups and took each other's events.
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
      S3_ENDPOINT: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanup = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`kaboodle did not start within ${timeoutMs} ms:\n${out}`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const m = READY.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!.replace(/\/$/, ''));
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`kaboodle exited (${code}) before it was ready:\n${out}`));
      });
    });
    return { url, dataDir, output: () => out, stop: cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
