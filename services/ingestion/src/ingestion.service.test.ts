// The ingestion service against real embedded engines (PGlite, the in-process bus, a local blob
// folder): each change commits with its event (outbox), another owner's file is NotFoundError like a
// missing one, duplicates and refused records release their blobs, and reprocess refuses running work.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  createLocalBlobStore,
  createLogger,
  createMemoryEventBus,
  createOutbox,
  createPgliteDatabase,
  NotFoundError,
} from '@kaboodle/platform';
import type { BlobStore, Database, EventBus, Outbox, Subscription } from '@kaboodle/platform';
import { decodeEvent, FileState, Topics } from '@kaboodle/proto';
import { createFileRepository } from './file.repository.ts';
import { createIngestionService, FILE_NOT_FOUND } from './ingestion.service.ts';
import type { IngestionService, StoredFile } from './ingestion.service.ts';
import { migrations } from './migrations.ts';
import { createAddressPolicy } from './url-guard.ts';

const logger = createLogger({ component: 'ingestion.service.test', level: 'silent' });
const dir = mkdtempSync(path.join(tmpdir(), 'ingestion-service-'));
let db: Database;
let bus: EventBus;
let blobs: BlobStore;
let outbox: Outbox;
let service: IngestionService;
let sub: Subscription;
/** Published events as `topic fileId [attempt|status]`. */
const events: string[] = [];

/** Bytes stored under a new blob key of the owner's, as an upload leaves them. */
async function stored(owner: string, text: string): Promise<StoredFile> {
  const { fileId, blobKey } = service.newFile(owner);
  const bytes = Buffer.from(text);
  await blobs.put(blobKey, Readable.from([bytes]), { size: bytes.length, contentType: 'text/plain' });
  return {
    fileId,
    blobKey,
    name: `${text}.txt`,
    size: bytes.length,
    contentType: 'text/plain',
    sniffedType: 'text/plain',
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}
const opts = { instructions: '', destination: 'auto' as const, force: false };
const blobExists = (key: string) =>
  blobs.get(key).then(
    ({ body }) => (body.destroy(), true),
    (err: unknown) => (err instanceof NotFoundError ? false : Promise.reject(err)),
  );

beforeAll(async () => {
  db = createPgliteDatabase({ dataDir: 'memory://', schema: 'ingestion' });
  bus = createMemoryEventBus({ logger });
  blobs = createLocalBlobStore({ root: dir });
  outbox = createOutbox({ db, bus, logger, pollIntervalMs: 50 });
  await db.migrate([...migrations, ...outbox.migrations]);
  await outbox.start();
  service = createIngestionService({
    db,
    files: createFileRepository(db),
    blobs,
    outbox,
    logger,
    fetchOptions: { policy: createAddressPolicy([]), timeoutMs: 1000, maxRedirects: 0 },
  });
  sub = await bus.subscribe({
    group: 'test.ingestion-service',
    topics: [Topics.fileUploaded, Topics.fileDeleted, Topics.fileStatus],
    async handler(e) {
      if (e.topic === Topics.fileUploaded) {
        const ev = decodeEvent(Topics.fileUploaded, e.value);
        events.push(`uploaded ${ev.file!.fileId} ${ev.attempt}`);
      } else if (e.topic === Topics.fileDeleted) {
        events.push(`deleted ${decodeEvent(Topics.fileDeleted, e.value).fileId}`);
      } else {
        const ev = decodeEvent(Topics.fileStatus, e.value);
        events.push(`status ${ev.fileId} ${FileState[ev.status]}`);
      }
      return 'done';
    },
  });
}, 60_000);

afterAll(async () => {
  await sub?.close();
  await outbox?.stop();
  await bus?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ingestion service', () => {
  it('records a stored file as queued and announces it with file.uploaded', async () => {
    const got = await stored('owner-a', 'first');
    const outcome = await service.record('owner-a', got, opts);
    expect(outcome).toMatchObject({
      duplicate: false,
      file: { id: got.fileId, status: 'queued', attempt: 1 },
    });
    await expect.poll(() => events).toContain(`uploaded ${got.fileId} 1`);
    expect(await service.get('owner-a', got.fileId)).toMatchObject({ name: 'first.txt' });
  });

  it('answers a duplicate with the earlier copy and releases the new blob; force records it again', async () => {
    const first = await stored('owner-a', 'twice');
    await service.record('owner-a', first, opts);
    const again = await stored('owner-a', 'twice');
    const outcome = await service.record('owner-a', again, opts);
    expect(outcome).toMatchObject({ duplicate: true, file: { id: first.fileId }, name: 'twice.txt' });
    expect(await blobExists(again.blobKey)).toBe(false);
    expect(await blobExists(first.blobKey)).toBe(true);

    const forced = await stored('owner-a', 'twice');
    expect(await service.record('owner-a', forced, { ...opts, force: true })).toMatchObject({
      duplicate: false,
      file: { id: forced.fileId },
    });
  });

  it('releases the blob when the record cannot be written, and announces nothing', async () => {
    const got = await stored('owner-a', 'clash');
    await service.record('owner-a', got, opts);
    const clash = { ...(await stored('owner-a', 'clash-2')), fileId: got.fileId }; // same id: refused
    await expect(service.record('owner-a', clash, { ...opts, force: true })).rejects.toThrow();
    expect(await blobExists(clash.blobKey)).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(events.filter((e) => e.startsWith(`uploaded ${got.fileId}`))).toEqual([
      `uploaded ${got.fileId} 1`,
    ]);
  });

  it("answers another owner's file exactly like a missing one, on every call", async () => {
    const got = await stored('owner-a', 'private');
    await service.record('owner-a', got, opts);
    const calls = [
      () => service.get('owner-b', got.fileId),
      () => service.content('owner-b', got.fileId),
      () => service.cancel('owner-b', got.fileId),
      () => service.reprocess('owner-b', got.fileId, {}),
      () => service.delete('owner-b', got.fileId),
      () => service.get('owner-a', '00000000-0000-4000-8000-000000000000'),
    ];
    for (const call of calls) await expect(call()).rejects.toThrow(new NotFoundError(FILE_NOT_FOUND));
    expect((await service.get('owner-a', got.fileId)).status).toBe('queued');
  });

  it('refuses to reprocess running work; cancel announces it, then reprocess queues a new attempt', async () => {
    const got = await stored('owner-a', 'again');
    await service.record('owner-a', got, opts);
    await expect(service.reprocess('owner-a', got.fileId, {})).rejects.toThrow(ConflictError);

    const cancelled = await service.cancel('owner-a', got.fileId);
    expect(cancelled).toMatchObject({ cancelled: true, file: { status: 'cancelled' } });
    await expect.poll(() => events).toContain(`status ${got.fileId} CANCELLED`);
    expect(await service.cancel('owner-a', got.fileId)).toMatchObject({ cancelled: false });

    const requeued = await service.reprocess('owner-a', got.fileId, { destination: 'document' });
    expect(requeued).toMatchObject({ status: 'queued', attempt: 2, destination: 'document' });
    await expect.poll(() => events).toContain(`uploaded ${got.fileId} 2`);
  });

  it('deletes the record with file.deleted, then its blob', async () => {
    const got = await stored('owner-a', 'gone');
    await service.record('owner-a', got, opts);
    const { body } = await service.content('owner-a', got.fileId);
    body.destroy();
    expect(await service.delete('owner-a', got.fileId)).toMatchObject({ id: got.fileId });
    await expect.poll(() => events).toContain(`deleted ${got.fileId}`);
    expect(await blobExists(got.blobKey)).toBe(false);
    await expect(service.get('owner-a', got.fileId)).rejects.toThrow(NotFoundError);
  });

  it('loads the sample library once per owner and removes it again', async () => {
    const first = await service.loadSamples('owner-s');
    expect(first.queued.length).toBeGreaterThan(0);
    expect(first.loaded).toBe(first.queued.length);
    expect(first.queued.every((f) => f.sample)).toBe(true);
    const second = await service.loadSamples('owner-s');
    expect(second).toEqual({ loaded: first.loaded, queued: [] });
    expect(await service.samplesLoaded('owner-s')).toBe(first.loaded);

    expect(await service.removeSamples('owner-s')).toBe(first.loaded);
    expect(await service.samplesLoaded('owner-s')).toBe(0);
    for (const f of first.queued) expect(await blobExists(f.blobKey)).toBe(false);
  }, 60_000);
});
