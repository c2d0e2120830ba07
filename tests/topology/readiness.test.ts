// Readiness checks only what a pod needs to answer its own requests: a Kafka broker that stops answering
// shows as `degraded` on /readyz (the outbox keeps events meanwhile) but leaves the pod ready, so a
// broker outage never takes sign-in out of service; the check turns ok again when the broker returns.
// Uses a private librdkafka mock broker (paused with SIGSTOP), so no shared engine of other suites is touched.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const mockBinary = path.join(root, 'deploy/engines/kafka-mock/kafka-mock');
const haveMock = existsSync(mockBinary);
if (!haveMock) {
  console.log(
    '[readiness] skipped: deploy/engines/kafka-mock/kafka-mock is not built (make engines-up builds it)',
  );
}

interface Readiness {
  status: string;
  checks: { name: string; status: string; error?: string }[];
}
const readyz = async (url: string) => {
  const res = await fetch(new URL('/readyz', url));
  return { code: res.status, body: (await res.json()) as Readiness };
};

describe.skipIf(!haveMock)('readiness through a Kafka broker that goes away and returns', () => {
  const data = tempDataDir();
  let broker: ChildProcess;
  let app: KaboodleProcess;

  beforeAll(async () => {
    broker = spawn(mockBinary, ['--brokers', '1'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const brokers = await new Promise<string>((resolve, reject) => {
      broker.stdout!.once('data', (c: Buffer) => resolve(c.toString().trim()));
      broker.once('exit', (code) => reject(new Error(`kafka-mock exited with ${code}`)));
    });
    app = await startKaboodleProcess({
      target: 'all',
      env: { KABOODLE_DATA_DIR: data.dir, KAFKA_BROKERS: brokers },
    });
  });
  afterAll(async () => {
    broker?.kill('SIGCONT');
    await app?.stop();
    broker?.kill('SIGTERM');
    data.remove();
  });

  it('stays 200 with event-bus.kafka degraded while the broker is paused, and ok once it answers again', async () => {
    await expect.poll(async () => (await readyz(app.url)).code, { timeout: 30_000 }).toBe(200);
    const kafkaCheck = async () =>
      (await readyz(app.url)).body.checks.find((c) => c.name === 'event-bus.kafka');
    await expect.poll(async () => (await kafkaCheck())?.status, { timeout: 30_000 }).toBe('ok');

    broker.kill('SIGSTOP');
    await expect
      .poll(async () => (await kafkaCheck())?.status, { timeout: 30_000, interval: 500 })
      .toBe('degraded');
    const down = await readyz(app.url);
    expect(down.code).toBe(200);
    expect(down.body.status).toBe('ready');
    expect(down.body.checks.filter((c) => c.status === 'fail')).toEqual([]);
    // Sign-in still works: auth answers from its own database, the broker is not on its path.
    const signIn = await fetch(new URL('/api/auth/login', app.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password at all' }),
    });
    expect(signIn.status).toBe(401);
    // Liveness never asks another service.
    expect((await fetch(new URL('/healthz', app.url))).status).toBe(200);

    broker.kill('SIGCONT');
    await expect
      .poll(async () => (await kafkaCheck())?.status, { timeout: 30_000, interval: 500 })
      .toBe('ok');
  });
});
