// Engines a chaos test may break on purpose: its own librdkafka mock broker (paused with SIGSTOP) and
// its own s3rver (killed and restarted on the same port and folder), so no engine another suite
// shares is ever touched. Each helper says why it cannot run, so the test can skip with the reason.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const kafkaMockBinary = path.join(root, 'deploy/engines/kafka-mock/kafka-mock');
const s3rverBin = path.join(root, 'node_modules/s3rver/bin/s3rver.js');

/** The app's topics (and dead-letter topics): the mock cannot create topics on request. */
const TOPICS = [
  'kaboodle.file.uploaded.v1',
  'kaboodle.file.status.v1',
  'kaboodle.file.processed.v1',
  'kaboodle.file.deleted.v1',
  'kaboodle.catalogue.changed.v1',
  'kaboodle.user.changed.v1',
  'kaboodle.session.revoked.v1',
];

export const kafkaMockMissing = (): string | undefined =>
  existsSync(kafkaMockBinary)
    ? undefined
    : 'deploy/engines/kafka-mock/kafka-mock is not built (make engines-up builds it; CI has it)';

export const s3rverMissing = (): string | undefined =>
  existsSync(s3rverBin) ? undefined : 'node_modules/s3rver is not installed (make install)';

export interface PrivateBroker {
  brokers: string;
  pause(): void;
  resume(): void;
  stop(): void;
}

export async function startKafkaMock(): Promise<PrivateBroker> {
  const args = ['--brokers', '1'];
  for (const t of TOPICS) args.push('--topic', `${t}:3`, '--topic', `${t}.dlq:3`);
  const child = spawn(kafkaMockBinary, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const brokers = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (c: Buffer) => resolve(c.toString().trim().split('\n')[0]!));
    child.once('exit', (code) => reject(new Error(`kafka-mock exited with ${code}`)));
  });
  return {
    brokers,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    stop() {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface PrivateS3 {
  env: Record<string, string>;
  /** Kill it (connections are refused from now on). */
  kill(): Promise<void>;
  /** Start it again on the same port and folder (the bucket and its objects survive). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3rver(dataDir: string): Promise<PrivateS3> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn(
      process.execPath,
      [s3rverBin, '-d', dataDir, '-a', '127.0.0.1', '-p', String(port), '--silent', '--no-vhost-buckets'],
      { stdio: 'ignore' },
    );
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      const up = await fetch(`http://127.0.0.1:${port}/`).then(
        () => true,
        () => false,
      );
      if (up) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`s3rver did not listen on ${port}`);
  };
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'kaboodle-chaos',
    },
    kill,
    restart: launch,
    stop: kill,
  };
}
