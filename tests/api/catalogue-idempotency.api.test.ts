// At-least-once delivery, black box: `kaboodle --target=all` on a private Kafka (librdkafka's mock
// cluster, started here so no other suite's consumers share its groups), one file stored through the
// real pipeline, then file.processed events produced straight to Kafka: the same attempt again, a newer
// attempt, the newer one redelivered byte for byte, and an older attempt arriving late. Over HTTP the
// catalogue must show one document, changed exactly once, at the newer attempt's version.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, encodeEvent, Topics } from '@kaboodle/proto';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import { createCatalogueClient } from './support/catalogue-client.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MOCK = path.join(root, 'deploy/engines/kafka-mock/kafka-mock');
const TOPICS = [
  Topics.fileUploaded,
  Topics.fileStatus,
  Topics.fileProcessed,
  Topics.fileDeleted,
  Topics.catalogueChanged,
  Topics.userChanged,
  Topics.sessionRevoked,
];

function startMockKafka(): Promise<{ brokers: string; child: ChildProcess }> {
  const args = ['--brokers', '1'];
  for (const t of TOPICS) args.push('--topic', `${t}:3`, '--topic', `${t}.dlq:3`);
  const child = spawn(MOCK, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ brokers: line.trim(), child });
    });
    child.once('exit', (code) => reject(new Error(`kafka-mock exited with ${code}`)));
  });
}

const available = existsSync(MOCK);
if (!available) {
  console.log(
    `catalogue-idempotency.api.test.ts: skipped, ${MOCK} is not built (deploy/engines/kafka-mock/build.sh)`,
  );
}

describe.skipIf(!available)(
  'catalogue: redelivered and out-of-order file.processed over Kafka (black box)',
  () => {
    const data = tempDataDir('kaboodle-catalogue-kafka-');
    let kafka: { brokers: string; child: ChildProcess };
    let app: KaboodleProcess;
    const api = createCatalogueClient(() => app.url);

    beforeAll(async () => {
      kafka = await startMockKafka();
      app = await startKaboodleProcess({
        target: 'all',
        env: { KABOODLE_DATA_DIR: data.dir, DATABASE_URL: '', S3_ENDPOINT: '', KAFKA_BROKERS: kafka.brokers },
      });
    }, 180_000);
    afterAll(async () => {
      await app?.stop();
      kafka?.child.kill('SIGTERM');
      data.remove();
    });

    it('keeps one document, changed once, at the newer attempt', async () => {
      const reg = await api.request<{ token: string; user: { id: string } }>(
        'POST',
        '/api/auth/register',
        undefined,
        {
          email: `kafka-${Date.now()}@example.com`,
          password: 'a long enough passphrase',
          name: 'Kafka',
        },
      );
      const token = reg.body.token;
      const ownerId = reg.body.user.id;
      const text =
        'Tide Tables of the Northern Harbour\nby Lena Holm\n\nHigh and low water for every day of 2025.';
      const fileId = await api.upload(
        token,
        { bytes: Buffer.from(text), name: 'tides.txt', type: 'text/plain' },
        'document',
      );
      expect((await api.settled(token, fileId)).status).toBe('completed');
      type Doc = { title: string; version: number };
      const stored = (await api.request<Doc>('GET', `/api/documents/${fileId}`, token)).body;

      const producer = new Kafka({
        clientId: 'catalogue-idempotency-test',
        brokers: kafka.brokers.split(','),
        logLevel: logLevel.NOTHING,
      }).producer();
      await producer.connect();
      const file = {
        ownerId,
        fileId,
        blobKey: `files/${ownerId}/${fileId}`,
        contentType: 'text/plain',
        fileName: 'tides.txt',
        sizeBytes: BigInt(Buffer.byteLength(text)),
        sha256: '',
      };
      const event = (attempt: number, title: string) =>
        encodeEvent(
          Topics.fileProcessed,
          createEvent(Topics.fileProcessed, {
            ownerId,
            file,
            attempt,
            result: {
              case: 'document',
              value: { title, summary: `${title} summary`, hashtags: [{ tag: 'tides', relevancy: 0.9 }] },
            },
          }),
        );
      const send = (value: Uint8Array) =>
        producer.send({
          topic: Topics.fileProcessed,
          acks: -1,
          messages: [{ key: fileId, value: Buffer.from(value) }],
        });
      const second = event(2, 'Second');
      try {
        await send(event(1, 'Same attempt again')); // processing redelivered attempt 1 with a new event id
        await send(second);
        await send(second); // the same bytes twice (at-least-once)
        await send(event(1, 'Late')); // an older attempt after a newer one
        await send(event(3, 'Sentinel')); // same key, so everything above has been handled once this shows
      } finally {
        await producer.disconnect();
      }
      await expect
        .poll(async () => (await api.request<Doc>('GET', `/api/documents/${fileId}`, token)).body.title, {
          timeout: 60_000,
          interval: 250,
        })
        .toBe('Sentinel');

      const activity = (
        await api.request<{ activity: { type: string; message: string }[] }>(
          'GET',
          '/api/activity?limit=50',
          token,
        )
      ).body.activity;
      expect(activity.filter((a) => a.type === 'processed').map((a) => a.message)).toEqual([
        'Processed "tides.txt" as a document: "Sentinel"',
        'Processed "tides.txt" as a document: "Second"',
        `Processed "tides.txt" as a document: "${stored.title}"`,
      ]);
      const list = await api.request<Doc[]>('GET', '/api/documents', token);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect(list.body[0]!.version).toBeGreaterThan(stored.version);
      const status = await api.request<{ status: string; result: { id: string } | null }>(
        'GET',
        `/process/status/${fileId}`,
        token,
      );
      expect(status.body).toMatchObject({ status: 'completed', result: { id: fileId } });
    });
  },
);
