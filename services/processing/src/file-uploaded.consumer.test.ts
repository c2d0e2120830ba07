// The file.uploaded consumer with the real engine (in-thread extractor, offline enricher and USE-lite
// embedder) over the in-process bus and a local blob store: what ingestion will see on file.status.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@kaboodle/platform';
import type { BlobStore, EventBus, Subscription } from '@kaboodle/platform';
import { createLocalBlobStore } from '@kaboodle/platform';
import { createMemoryEventBus } from '@kaboodle/platform';
import {
  createEvent,
  decodeEvent,
  Destination,
  encodeEvent,
  eventKey,
  FileState,
  ProcessingStage,
  Topics,
} from '@kaboodle/proto';
import type { EventOf } from '@kaboodle/proto';
import { createUseLiteEmbedder } from './embed/index.ts';
import { createOfflineEnricher } from './enrich/index.ts';
import { createLocalExtractor } from './extract/local-extractor.ts';
import { createBarcodeLookup, createOfflineVision, createPooledImageMeasurer } from './vision/index.ts';
import { createAnalyzer } from './analyze/index.ts';
import { EVENT_TEXT_MAX_CHARS, subscribeFileUploaded } from './file-uploaded.consumer.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const NOTE = `Field Notes on Indigo Dyeing
by Tomas Reyes

Indigo dyeing in the highlands depends on fermentation vats kept warm for weeks. This note records
the recipes of three cooperatives and argues that the vat, not the plant, is the craft's real archive.`;

let dir: string;
let blobs: BlobStore;
let bus: EventBus;
let sub: Subscription;
const statuses: EventOf<typeof Topics.fileStatus>[] = [];
/** What the consumer logged (messages with their file ids), to see which way a cancel went. */
const logged: { msg: string; fileId?: string }[] = [];
const processed: EventOf<typeof Topics.fileProcessed>[] = [];
const extractor = createLocalExtractor();
const measurer = createPooledImageMeasurer({ timeoutMs: 90_000 });
const embedder = createUseLiteEmbedder();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kaboodle-consumer-'));
  blobs = createLocalBlobStore({ root: dir });
  bus = createMemoryEventBus();
  const analyzer = createAnalyzer({
    extractor,
    blobs,
    embedder,
    enricher: createOfflineEnricher(),
    vision: createOfflineVision({ measurer, barcodeLookup: createBarcodeLookup() }),
  });
  sub = await subscribeFileUploaded({
    bus,
    analyzer,
    logger: createLogger({
      level: 'info',
      component: 'test',
      destination: {
        write(line: string) {
          logged.push(JSON.parse(line) as { msg: string; fileId?: string });
        },
      },
    }),
  });
  await bus.subscribe({
    group: 'test-observer',
    topics: [Topics.fileStatus, Topics.fileProcessed],
    async handler(e) {
      if (e.topic === Topics.fileStatus) statuses.push(decodeEvent(Topics.fileStatus, e.value));
      else processed.push(decodeEvent(Topics.fileProcessed, e.value));
      return 'done';
    },
  });
});
afterAll(async () => {
  await sub?.close();
  await bus.close();
  await Promise.all([extractor.close(), measurer.close(), embedder.close?.()]);
  await rm(dir, { recursive: true, force: true });
});

async function cancel(fileId: string, attempt = 1) {
  const event = createEvent(Topics.fileStatus, {
    ownerId: 'owner-1',
    fileId,
    status: FileState.CANCELLED,
    stage: ProcessingStage.DONE,
    progress: 10,
    attempt,
  });
  await bus.publish([
    {
      topic: Topics.fileStatus,
      key: eventKey(Topics.fileStatus, event),
      value: encodeEvent(Topics.fileStatus, event),
    },
  ]);
}

async function upload(
  fileId: string,
  fileName: string,
  contentType: string,
  bytes?: Buffer,
  destination = Destination.AUTO,
) {
  const blobKey = `owner-1/${fileId}`;
  if (bytes) await blobs.put(blobKey, Readable.from([bytes]), { contentType, size: bytes.length });
  const event = createEvent(Topics.fileUploaded, {
    ownerId: 'owner-1',
    file: {
      ownerId: 'owner-1',
      fileId,
      blobKey,
      contentType,
      fileName,
      sizeBytes: BigInt(bytes?.length ?? 0),
    },
    destination,
    attempt: 1,
  });
  await bus.publish([
    {
      topic: Topics.fileUploaded,
      key: eventKey(Topics.fileUploaded, event),
      value: encodeEvent(Topics.fileUploaded, event),
    },
  ]);
}

const final = (fileId: string) =>
  statuses.find(
    (s) => s.fileId === fileId && (s.status === FileState.COMPLETED || s.status === FileState.FAILED),
  );

describe('file.uploaded consumer', () => {
  it('processes a text file into a document, reporting progress up to storing (the catalogue completes it)', async () => {
    await upload('f-text', 'indigo.txt', 'text/plain', Buffer.from(NOTE));
    await expect
      .poll(() => processed.some((p) => p.file?.fileId === 'f-text'), { timeout: 60_000 })
      .toBe(true);
    const mine = statuses.filter((s) => s.fileId === 'f-text');
    expect(mine[0]!.status).toBe(FileState.PROCESSING);
    expect(mine.at(-1)).toMatchObject({
      status: FileState.PROCESSING,
      stage: ProcessingStage.STORING,
      progress: 90,
    });
    expect(mine.some((s) => s.status === FileState.COMPLETED)).toBe(false);
    expect(mine.map((s) => s.progress)).toEqual([...mine.map((s) => s.progress)].sort((a, b) => a - b));
    const result = processed.find((p) => p.file?.fileId === 'f-text')!;
    expect(result.result.case).toBe('document');
    const doc = result.result.value as Extract<typeof result.result, { case: 'document' }>['value'];
    expect(doc.title).toBe('Field Notes on Indigo Dyeing');
    expect(doc.author).toBe('Tomas Reyes');
    expect(doc.embedding?.dimensions).toBe(512);
    expect(doc.embedding?.values).toHaveLength(512);
  });

  it('cuts a very long text in the event to EVENT_TEXT_MAX_CHARS and marks it truncated', async () => {
    const long = `${NOTE}\n\n${'Indigo vats and bead ledgers fill the archive. '.repeat(25_000)}`;
    expect(long.length).toBeGreaterThan(EVENT_TEXT_MAX_CHARS);
    await upload('f-long', 'ledger.txt', 'text/plain', Buffer.from(long));
    await expect
      .poll(() => processed.some((p) => p.file?.fileId === 'f-long'), { timeout: 120_000 })
      .toBe(true);
    const result = processed.find((p) => p.file?.fileId === 'f-long')!;
    const doc = result.result.value as Extract<typeof result.result, { case: 'document' }>['value'];
    expect(doc.text?.text).toHaveLength(EVENT_TEXT_MAX_CHARS);
    expect(doc.text?.truncated).toBe(true);
    expect(doc.title).toBe('Field Notes on Indigo Dyeing');
  });

  it('fails a PNG named .pdf with a reason a person can act on, without retrying', async () => {
    await upload('f-mismatch', 'report.pdf', 'application/pdf', PNG);
    await expect.poll(() => final('f-mismatch')?.status, { timeout: 60_000 }).toBe(FileState.FAILED);
    expect(final('f-mismatch')!.error).toMatch(/PNG.*\.pdf/);
    expect(processed.some((p) => p.file?.fileId === 'f-mismatch')).toBe(false);
  });

  it('fails a textless photo sent as a document once, saying it may belong in the inventory', async () => {
    await upload('f-photo-doc', 'pixel.png', 'image/png', PNG, Destination.DOCUMENT);
    await expect.poll(() => final('f-photo-doc')?.status, { timeout: 60_000 }).toBe(FileState.FAILED);
    expect(final('f-photo-doc')!.error).toMatch(/^No text was found in this photo.*Inventory item/);
    // one attempt: no "will retry" and no second PROCESSING report
    expect(logged.filter((l) => l.fileId === 'f-photo-doc' && /will retry/.test(l.msg))).toEqual([]);
    expect(
      statuses.filter((s) => s.fileId === 'f-photo-doc' && s.status === FileState.PROCESSING),
    ).toHaveLength(1);
  });

  it('fails a file whose bytes are gone with a clear reason', async () => {
    await upload('f-gone', 'lost.txt', 'text/plain');
    await expect.poll(() => final('f-gone')?.status, { timeout: 60_000 }).toBe(FileState.FAILED);
    expect(final('f-gone')!.error).toBe('The uploaded file is no longer stored. Please upload it again.');
  });

  it('stops an analysis the person cancels: no result, no failure, nothing retried', async () => {
    // ~25 s of embedding on this machine: long enough to be cancelled half way
    const long = `${NOTE}\n\n${'Indigo vats ferment for weeks in the highland cooperatives. '.repeat(6_000)}`;
    await upload('f-cancel', 'vats.txt', 'text/plain', Buffer.from(long));
    await expect
      .poll(() => statuses.some((s) => s.fileId === 'f-cancel' && s.status === FileState.PROCESSING), {
        timeout: 30_000,
      })
      .toBe(true);
    await cancel('f-cancel');
    await expect
      .poll(() => logged.some((l) => l.fileId === 'f-cancel' && /cancelled while processing/.test(l.msg)), {
        timeout: 30_000,
      })
      .toBe(true);
    expect(processed.some((p) => p.file?.fileId === 'f-cancel')).toBe(false);
    expect(final('f-cancel')).toBeUndefined();
    // another attempt of another file is untouched
    await upload('f-after', 'after.txt', 'text/plain', Buffer.from(NOTE));
    await expect
      .poll(() => processed.some((p) => p.file?.fileId === 'f-after'), { timeout: 60_000 })
      .toBe(true);
  });

  it('skips a file cancelled while it was still queued', async () => {
    await cancel('f-queued');
    await upload('f-queued', 'queued.txt', 'text/plain', Buffer.from(NOTE));
    await expect
      .poll(
        () => logged.some((l) => l.fileId === 'f-queued' && /cancelled before processing began/.test(l.msg)),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    expect(statuses.some((s) => s.fileId === 'f-queued' && s.status === FileState.PROCESSING)).toBe(false);
    expect(processed.some((p) => p.file?.fileId === 'f-queued')).toBe(false);
  });
});
