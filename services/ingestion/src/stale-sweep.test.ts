// The stale-claim sweep and the file.status consumer against real embedded engines (PGlite, the
// in-process bus, a local blob folder): re-dispatch as a new attempt, give up after the last dispatch,
// ignore statuses of older attempts, keep what the file became, retry failed blob deletes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBlobStore, createLogger, createPgliteDatabase } from '@kaboodle/platform';
import { createMemoryEventBus } from '@kaboodle/platform';
import type { BlobStore, Database, EventBus, Subscription } from '@kaboodle/platform';
import { createOutbox } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import {
  createEvent,
  decodeEvent,
  EntityType,
  encodeEvent,
  FileState,
  ProcessingStage,
  Topics,
} from '@kaboodle/proto';
import type { EventInit } from '@kaboodle/proto';
import { createFileRepository, MAX_DISPATCHES, STALE_REASON } from './file.repository.ts';
import type { FileRepository } from './file.repository.ts';
import { fileUploadedEvent } from './file-events.ts';
import { subscribeFileStatus } from './file-status.consumer.ts';
import { migrations } from './migrations.ts';
import { createStaleSweep } from './stale-sweep.ts';

const STALE_MS = 150;
const logger = createLogger({ component: 'ingestion.test', level: 'silent' });
const dir = mkdtempSync(path.join(tmpdir(), 'ingestion-sweep-'));
let db: Database;
let bus: EventBus;
let blobs: BlobStore;
let outbox: Outbox;
let files: FileRepository;
let statusSub: Subscription;
let uploadedSub: Subscription;
const uploaded: Array<{ fileId: string; attempt: number }> = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newFile(owner = 'owner-a') {
  const id = randomUUID();
  const blobKey = `files/${owner}/${id}`;
  await blobs.put(blobKey, Readable.from([Buffer.from(`text ${id}`)]), { contentType: 'text/plain' });
  return db.transaction(async (tx) => {
    const f = await files.insert(tx, {
      id,
      ownerId: owner,
      name: 'a.txt',
      size: 10,
      contentType: 'text/plain',
      sha256: id,
      blobKey,
      destination: 'auto',
      instructions: '',
    });
    await outbox.enqueue(tx, [fileUploadedEvent(f)]);
    return f;
  });
}

async function sendStatus(init: EventInit<typeof Topics.fileStatus>) {
  const event = createEvent(Topics.fileStatus, { ownerId: 'owner-a', ...init });
  await bus.publish([
    { topic: Topics.fileStatus, key: event.fileId, value: encodeEvent(Topics.fileStatus, event) },
  ]);
}

beforeAll(async () => {
  db = createPgliteDatabase({ dataDir: 'memory://', schema: 'ingestion' });
  bus = createMemoryEventBus({ logger });
  blobs = createLocalBlobStore({ root: dir });
  outbox = createOutbox({ db, bus, logger, pollIntervalMs: 50 });
  files = createFileRepository(db);
  await db.migrate([...migrations, ...outbox.migrations]);
  await outbox.start();
  statusSub = await subscribeFileStatus({ bus, files, logger });
  uploadedSub = await bus.subscribe({
    group: 'test.uploaded',
    topics: [Topics.fileUploaded],
    async handler(e) {
      const ev = decodeEvent(Topics.fileUploaded, e.value);
      uploaded.push({ fileId: ev.file!.fileId, attempt: ev.attempt });
      return 'done';
    },
  });
}, 60_000);

afterAll(async () => {
  await uploadedSub?.close();
  await statusSub?.close();
  await outbox?.stop();
  await bus?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('stale-claim sweep', () => {
  it('hands a silent file to processing again as a new attempt, then fails it after the last dispatch', async () => {
    const sweep = createStaleSweep({ db, files, blobs, outbox, logger, staleAfterMs: STALE_MS });
    const file = await newFile();
    const fresh = await newFile();
    await sleep(STALE_MS + 50);
    // a file that just reported progress is not stale
    await sendStatus({
      fileId: fresh.id,
      status: FileState.PROCESSING,
      stage: ProcessingStage.ANALYZING,
      progress: 40,
      attempt: 1,
    });
    await expect.poll(async () => (await files.findForOwner('owner-a', fresh.id))?.progress).toBe(40);

    for (let dispatch = 2; dispatch <= MAX_DISPATCHES; dispatch++) {
      const r = await sweep.sweep();
      expect(r.redispatched).toBe(1);
      const now = (await files.findForOwner('owner-a', file.id))!;
      expect(now).toMatchObject({ status: 'queued', attempt: dispatch, dispatches: dispatch, progress: 0 });
      await expect
        .poll(() => uploaded.filter((u) => u.fileId === file.id).map((u) => u.attempt))
        .toContain(dispatch);
      if (dispatch === 2) {
        // the file that reported progress was left alone; end it so it does not go stale below
        expect((await files.findForOwner('owner-a', fresh.id))!.attempt).toBe(1);
        await sendStatus({
          fileId: fresh.id,
          status: FileState.FAILED,
          stage: ProcessingStage.DONE,
          progress: 100,
          error: 'x',
          attempt: 0,
        });
        await expect.poll(async () => (await files.findForOwner('owner-a', fresh.id))?.status).toBe('failed');
      }
      await sleep(STALE_MS + 50);
    }
    const last = await sweep.sweep();
    expect(last.failed).toBe(1);
    expect(await files.findForOwner('owner-a', file.id)).toMatchObject({
      status: 'failed',
      error: STALE_REASON,
      progress: 100,
    });
    expect(uploaded.filter((u) => u.fileId === file.id)).toHaveLength(MAX_DISPATCHES);
  });

  it('lets exactly one of several concurrent sweeps (replicas) take a stale file', async () => {
    const a = createStaleSweep({ db, files, blobs, outbox, logger, staleAfterMs: STALE_MS });
    const b = createStaleSweep({ db, files, blobs, outbox, logger, staleAfterMs: STALE_MS });
    const file = await newFile();
    await sleep(STALE_MS + 50);
    const [ra, rb] = await Promise.all([a.sweep(), b.sweep()]);
    expect(ra.redispatched + rb.redispatched).toBe(1);
    expect((await files.findForOwner('owner-a', file.id))!.attempt).toBe(2);
  });

  it('runs on its own timer and stops cleanly', async () => {
    const sweep = createStaleSweep({
      db,
      files,
      blobs,
      outbox,
      logger,
      staleAfterMs: STALE_MS,
      intervalMs: 50,
    });
    const file = await newFile();
    sweep.start();
    await expect
      .poll(async () => (await files.findForOwner('owner-a', file.id))!.attempt, { timeout: 5_000 })
      .toBeGreaterThan(1);
    await sweep.stop();
  });

  it('retries a blob delete that failed after its record was removed', async () => {
    let failures = 1;
    const flaky: BlobStore = {
      ...blobs,
      async delete(key) {
        if (failures-- > 0) throw new Error('store unavailable');
        return blobs.delete(key);
      },
    };
    const file = await newFile();
    await db.transaction((tx) => files.deleteForOwner(tx, 'owner-a', file.id));
    await flaky.delete(file.blobKey).catch((err: Error) => files.blobDeleteFailed(file.blobKey, err.message));
    expect(await blobs.stat(file.blobKey)).not.toBeNull();
    const sweep = createStaleSweep({ db, files, blobs: flaky, outbox, logger, staleAfterMs: 10 });
    await sleep(30);
    expect((await sweep.sweep()).blobsDeleted).toBeGreaterThanOrEqual(1);
    expect(await blobs.stat(file.blobKey)).toBeNull();
    expect(await files.pendingBlobDeletions(0)).not.toContain(file.blobKey);
  });
});

describe('file.status consumer', () => {
  it('ignores statuses of an older attempt and records what a completed file became', async () => {
    const file = await newFile();
    const requeued = await db.transaction(async (tx) => {
      await tx.query(`UPDATE files SET status = 'failed' WHERE id = $1`, [file.id]);
      return files.requeue(tx, 'owner-a', file.id, {});
    });
    expect(requeued).toMatchObject({ attempt: 2, status: 'queued' });
    // a late FAILED of attempt 1 changes nothing
    await sendStatus({
      fileId: file.id,
      status: FileState.FAILED,
      stage: ProcessingStage.DONE,
      progress: 100,
      error: 'old',
      attempt: 1,
    });
    await sendStatus({
      fileId: file.id,
      status: FileState.PROCESSING,
      stage: ProcessingStage.STORING,
      progress: 90,
      attempt: 2,
    });
    await expect.poll(async () => (await files.findForOwner('owner-a', file.id))!.progress).toBe(90);
    expect((await files.findForOwner('owner-a', file.id))!.status).toBe('processing');
    await sendStatus({
      fileId: file.id,
      status: FileState.COMPLETED,
      stage: ProcessingStage.DONE,
      progress: 100,
      attempt: 2,
      resultType: EntityType.DOCUMENT,
      resultId: file.id,
    });
    await expect.poll(async () => (await files.findForOwner('owner-a', file.id))!.status).toBe('completed');
    expect(await files.findForOwner('owner-a', file.id)).toMatchObject({
      progress: 100,
      error: null,
      resultType: 'document',
      resultId: file.id,
    });
  });
});
