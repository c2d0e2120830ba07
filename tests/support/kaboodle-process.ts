// Starts the real `kaboodle` entrypoint as a child process (what `make up` and a Kubernetes pod run),
// waits for its "running at" line, and stops it with SIGTERM. Shared by topology, api and e2e suites.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MAIN = path.join(repoRoot, 'services/server/src/main.ts');

export interface KaboodleProcess {
  readonly url: string;
  readonly grpcAddress: string | undefined;
  readonly child: ChildProcess;
  /** Everything the process printed (stdout and stderr), for failure messages. */
  output(): string;
  stop(): Promise<number | null>;
}

export interface StartOptions {
  target: string;
  env?: Record<string, string | undefined>;
  /** How long to wait for the "running at" line (default 120 s: a cold PGlite start on a busy CI machine). */
  timeoutMs?: number;
}

/** A fresh data folder removed after the suite (call the returned function in afterAll). */
export function tempDataDir(prefix = 'kaboodle-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function startKaboodleProcess(options: StartOptions): Promise<KaboodleProcess> {
  const child = spawn(process.execPath, [MAIN, `--target=${options.target}`], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      GRPC_PORT: '0',
      LOG_LEVEL: 'warn',
      // every JSON answer is checked against its declared schema: drift fails the test that saw it
      API_RESPONSE_CHECK: 'strict',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kaboodle --target=${options.target} did not start in time:\n${out}`));
    }, options.timeoutMs ?? 120_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Kaboodle is running at (\S+) \(targets: [^;)]*(?:; gRPC on ([^)]+))?\)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1]!,
        grpcAddress: m[2],
        child,
        output: () => out,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(`kaboodle --target=${options.target} exited with ${code} before it was ready:\n${out}`),
      );
    });
  });
}

/** Run `kaboodle` to completion (for bad-config cases): exit code and output. */
export function runKaboodle(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
