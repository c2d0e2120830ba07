// Reliability of the upload pipeline with real processes and engines that fail on purpose:
//  (a) kill -9 of the processing process mid-file (split mode over Kafka): after a restart the file
//      completes and exactly one document exists;
//  (b) the broker stops answering: uploads still answer (the outbox keeps the event) and complete
//      once it returns, nothing half-recorded;
//  (c) the blob store goes away: uploads fail with a clear 503, no record is left; they work again after.
// Isolation between users on every route is in tests/api/ingestion-media-hub.api.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../services/processing/src/extract/test-fixtures/generate-documents.ts';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import { ingestionClient } from '../support/ingestion-client.ts';
import type { FileBody } from '../support/ingestion-client.ts';
import { kafkaMockMissing, s3rverMissing, startKafkaMock, startS3rver } from './support/private-engines.ts';
import type { PrivateBroker, PrivateS3 } from './support/private-engines.ts';

const noKafka = kafkaMockMissing();
if (noKafka) console.log(`[chaos] broker cases skipped: ${noKafka}`);
const noS3 = s3rverMissing();
if (noS3) console.log(`[chaos] blob-store case skipped: ${noS3}`);

type ListBody = { files: FileBody[]; total: number };

async function documentCount(url: string, token: string): Promise<number> {
  const res = await fetch(new URL('/api/documents?limit=100', url), {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return Number(res.headers.get('x-total-count'));
}

const note = (label: string) => ({
  bytes: Buffer.from(
    `${label}\nby Chaos Monkey\n\nA ledger of ${randomUUID()} glass beads traded at the market.`,
  ),
  name: `${label}.txt`,
  type: 'text/plain',
});

describe.skipIf(!!noKafka)('(a) kill -9 of the processing process mid-file', () => {
  // created in beforeAll: a suite skipped by a filter must not leave a folder behind
  let data: ReturnType<typeof tempDataDir>;
  let broker: PrivateBroker;
  let core: KaboodleProcess;
  let processing: KaboodleProcess | undefined;
  // Processing alone (no database of its own) shares the blob folder with the core process.
  const startProcessing = () =>
    startKaboodleProcess({
      target: 'processing',
      env: { KABOODLE_DATA_DIR: data.dir, KAFKA_BROKERS: broker.brokers, DATABASE_URL: '', S3_ENDPOINT: '' },
    });

  beforeAll(async () => {
    data = tempDataDir('kaboodle-chaos-');
    broker = await startKafkaMock();
    processing = await startProcessing();
    core = await startKaboodleProcess({
      target: 'auth,ingestion,catalogue',
      env: {
        KABOODLE_DATA_DIR: data.dir,
        KAFKA_BROKERS: broker.brokers,
        DATABASE_URL: '',
        S3_ENDPOINT: '',
        PROCESSING_GRPC_ADDRESS: processing.grpcAddress ?? '',
      },
    });
    console.log(
      `[chaos] split mode on a private kafka-mock (${broker.brokers}); processing pid ${processing.child.pid}`,
    );
  });
  afterAll(async () => {
    await processing?.stop();
    await core?.stop();
    broker?.stop();
    data?.remove();
  });

  it('completes the file after the worker restarts, with exactly one document', async () => {
    const api = ingestionClient(core.url);
    const token = await api.register('survivor');
    // Scanned pages: OCR keeps the worker busy long enough to be killed in the middle of it.
    const pdf = await makePdf({
      scannedPages: Array.from({ length: 8 }, (_, p) => [
        `Chapter ${p + 1}: the bead trade`,
        `Caravans carried glass beads across the desert, page ${p + 1}.`,
        'Each exchange was written down with weights and prices.',
      ]),
    });
    const up = await api.upload(token, { bytes: pdf, name: 'scanned-ledger.pdf', type: 'application/pdf' });
    expect(up.status).toBe(202);

    const busy = await api.waitFor(
      token,
      up.body.id,
      (f) => f.status === 'processing' || f.status === 'completed',
      120_000,
    );
    expect(busy.status, 'the file must still be in the worker when it is killed').toBe('processing');
    const killed = processing!.child;
    const exited = new Promise((r) => killed.once('exit', r));
    killed.kill('SIGKILL');
    await exited;
    processing = await startProcessing();

    const done = await api.waitFor(
      token,
      up.body.id,
      (f) => f.status === 'completed' || f.status === 'failed',
      240_000,
    );
    expect(done, JSON.stringify(done)).toMatchObject({
      status: 'completed',
      progress: 100,
      result: { type: 'document', id: up.body.id },
    });
    expect(await documentCount(core.url, token)).toBe(1);
    const doc = await fetch(new URL(`/api/documents/${up.body.id}`, core.url), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { text: string }).text).toMatch(/glass beads/i);
  });
});

describe.skipIf(!!noKafka)('(b) the broker stops answering', () => {
  // created in beforeAll: a suite skipped by a filter must not leave a folder behind
  let data: ReturnType<typeof tempDataDir>;
  let broker: PrivateBroker;
  let app: KaboodleProcess;

  beforeAll(async () => {
    data = tempDataDir('kaboodle-chaos-');
    broker = await startKafkaMock();
    app = await startKaboodleProcess({
      target: 'all',
      env: { KABOODLE_DATA_DIR: data.dir, KAFKA_BROKERS: broker.brokers, DATABASE_URL: '', S3_ENDPOINT: '' },
    });
  });
  afterAll(async () => {
    broker?.resume();
    await app?.stop();
    broker?.stop();
    data?.remove();
  });

  it('still accepts uploads (the outbox keeps the event) and completes them once the broker returns', async () => {
    const api = ingestionClient(app.url);
    const token = await api.register('patient');
    // warm: the pipeline works before the outage
    const before = await api.upload(token, note('before the outage'));
    expect((await api.waitFor(token, before.body.id, undefined, 120_000)).status).toBe('completed');

    broker.pause();
    const during = await Promise.all([1, 2, 3].map((i) => api.upload(token, note(`during the outage ${i}`))));
    for (const up of during) {
      expect(up.status).toBe(202);
      expect(up.body.status).toBe('queued');
    }
    await new Promise((r) => setTimeout(r, 3_000));
    for (const up of during) expect((await api.status(token, up.body.id)).body.status).toBe('queued');

    broker.resume();
    for (const up of during) {
      const done = await api.waitFor(token, up.body.id, undefined, 180_000);
      expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', attempt: 1 });
    }
    // nothing half-recorded: exactly the four files, each once, each with its document
    const list = await api.call<ListBody>('GET', '/process/files?limit=100', token);
    expect(list.body.total).toBe(4);
    expect(list.body.files.every((f) => f.status === 'completed')).toBe(true);
    expect(await documentCount(app.url, token)).toBe(4);
  });
});

describe.skipIf(!!noS3)('(c) the blob store goes away', () => {
  // created in beforeAll: a suite skipped by a filter must not leave a folder behind
  let data: ReturnType<typeof tempDataDir>;
  let s3: PrivateS3;
  let app: KaboodleProcess;

  beforeAll(async () => {
    data = tempDataDir('kaboodle-chaos-');
    s3 = await startS3rver(`${data.dir}/s3rver`);
    app = await startKaboodleProcess({
      target: 'all',
      env: { KABOODLE_DATA_DIR: data.dir, KAFKA_BROKERS: '', DATABASE_URL: '', ...s3.env },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await s3?.stop();
    data?.remove();
  });

  it('answers 503 and records nothing while it is down, and works again once it is back', async () => {
    const api = ingestionClient(app.url);
    const token = await api.register('stranded');
    await s3.kill();
    const started = Date.now();
    const refused = await api.upload(token, note('while the store is down'));
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe('Service temporarily unavailable');
    expect(Date.now() - started).toBeLessThan(30_000);
    const empty = await api.call<ListBody>('GET', '/process/files', token);
    expect(empty.body).toEqual({ files: [], total: 0 });

    await s3.restart();
    const up = await api.upload(token, note('after the store is back'));
    expect(up.status).toBe(202);
    expect((await api.waitFor(token, up.body.id, undefined, 120_000)).status).toBe('completed');
    const content = await api.call('GET', `/process/files/${up.body.id}/content`, token);
    expect(content.status).toBe(200);
    expect(String(content.body)).toContain('after the store is back');
  });
});

describe('(d) one process with the in-process bus is killed mid-file', () => {
  // created in beforeAll: a suite skipped by a filter must not leave a folder behind
  let data: ReturnType<typeof tempDataDir>;
  let app: KaboodleProcess | undefined;
  // The in-process bus loses what it held; the stale-claim sweep must notice and hand the file over again.
  const start = () =>
    startKaboodleProcess({
      target: 'all',
      env: {
        KABOODLE_DATA_DIR: data.dir,
        KAFKA_BROKERS: '',
        DATABASE_URL: '',
        S3_ENDPOINT: '',
        STALE_FILE_AFTER: '15s',
      },
    });
  beforeAll(() => {
    data = tempDataDir('kaboodle-chaos-');
  });
  afterAll(async () => {
    await app?.stop();
    data?.remove();
  });

  it('re-dispatches the file as a new attempt after STALE_FILE_AFTER and completes it', async () => {
    app = await start();
    let api = ingestionClient(app.url);
    const token = await api.register('restarted');
    const pdf = await makePdf({
      scannedPages: Array.from({ length: 3 }, (_, p) => [
        `Inventory ledger, page ${p + 1}`,
        'Glass beads and stools.',
      ]),
    });
    const up = await api.upload(token, { bytes: pdf, name: 'ledger-scan.pdf', type: 'application/pdf' });
    expect(up.status).toBe(202);
    const busy = await api.waitFor(token, up.body.id, (f) => f.status !== 'queued', 120_000);
    expect(busy.status).toBe('processing');
    const exited = new Promise((r) => app!.child.once('exit', r));
    app.child.kill('SIGKILL');
    await exited;

    app = await start();
    api = ingestionClient(app.url);
    const done = await api.waitFor(
      token,
      up.body.id,
      (f) => f.status === 'completed' || f.status === 'failed',
      120_000,
    );
    expect(done.status, `${JSON.stringify(done)}\n${app.output().slice(-6000)}`).toBe('completed');
    // a new attempt (or two, when a busy machine takes longer than the short STALE_FILE_AFTER here)
    expect(done.attempt).toBeGreaterThanOrEqual(2);
    expect(await documentCount(app.url, token)).toBe(1);
  });
});
