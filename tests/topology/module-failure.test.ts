// A module whose consumer dies for good after start is not left unnoticed: when the Kafka broker
// refuses the consumers' fetches with an error kafkajs does not retry (TOPIC_AUTHORIZATION_FAILED,
// as after an ACL change), kafkajs gives up on them (`crash` with `restart: false`); the owning
// module's background() rejects, /readyz answers 503 naming it, and the process stops gracefully
// and exits 1 for its supervisor to restart it. (A broker that only goes away is retried and never
// fails a module: readiness.test.ts.) Uses a private librdkafka mock broker with fault injection.
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
    '[module-failure] skipped: deploy/engines/kafka-mock/kafka-mock is not built (make engines-up builds it)',
  );
}

// Kafka protocol: API key 1 is Fetch; error 29 is TOPIC_AUTHORIZATION_FAILED (not retriable).
const FETCH = 1;
const TOPIC_AUTHORIZATION_FAILED = 29;

describe.skipIf(!haveMock)('a consumer that dies for good after start', () => {
  const data = tempDataDir();
  let broker: ChildProcess;
  let app: KaboodleProcess;

  beforeAll(async () => {
    broker = spawn(mockBinary, ['--brokers', '1'], { stdio: ['pipe', 'pipe', 'ignore'] });
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
    await app?.stop();
    broker?.kill('SIGTERM');
    data.remove();
  });

  it('reports the module that failed after start, stops gracefully and exits 1', async () => {
    await expect
      .poll(async () => (await fetch(new URL('/readyz', app.url))).status, { timeout: 30_000 })
      .toBe(200);
    const exited = new Promise<number | null>((resolve) => app.child.once('exit', (code) => resolve(code)));

    broker.stdin!.write(`error ${FETCH} ${TOPIC_AUTHORIZATION_FAILED} 200\n`);

    // /readyz turns 503 at the failure (module-failures.test.ts); the stop that follows at once
    // closes the listener, so here the process's own account and its exit code are what is checked.
    expect(await exited).toBe(1);
    const out = app.output();
    expect(out).toMatch(/module failed after start; stopping the process/);
    expect(out).toMatch(
      /kaboodle: module [a-z-]+ failed after start: kafka consumer of group .* crashed: .*; stopping/,
    );
  }, 40_000);
});
