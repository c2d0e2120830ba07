// Readiness follows the engines while running: a Kafka broker that stops answering turns /readyz 503
// (naming the failing check) and a broker that comes back turns it 200 again, with no restart. Uses a
// private librdkafka mock broker (paused with SIGSTOP), so no shared engine of other suites is touched.
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

describe.skipIf(!haveMock)('readiness follows a Kafka broker that goes away and returns', () => {
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

  it('reports 503 naming event-bus.kafka while the broker is paused, and 200 once it answers again', async () => {
    await expect.poll(async () => (await readyz(app.url)).code, { timeout: 30_000 }).toBe(200);

    broker.kill('SIGSTOP');
    await expect.poll(async () => (await readyz(app.url)).code, { timeout: 30_000, interval: 500 }).toBe(503);
    const down = (await readyz(app.url)).body;
    expect(down.checks.find((c) => c.name === 'event-bus.kafka')?.status).not.toBe('ok');
    expect(down.checks.filter((c) => c.status !== 'ok').map((c) => c.name)).toEqual(['event-bus.kafka']);
    // The process itself stays healthy: liveness must not restart it for an engine's outage.
    expect((await fetch(new URL('/healthz', app.url))).status).toBe(200);

    broker.kill('SIGCONT');
    await expect.poll(async () => (await readyz(app.url)).code, { timeout: 30_000, interval: 500 }).toBe(200);
  });
});
