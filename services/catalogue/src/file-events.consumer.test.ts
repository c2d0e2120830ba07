import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@kaboodle/platform';
import { ChangeOp, decodeEvent, EntityType, FileState, ProcessingStage, Topics } from '@kaboodle/proto';
import { createFileEventsHandler, subscribeFileEvents } from './file-events.consumer.ts';
import {
  cancelled,
  createHarness,
  deleted,
  documentAnalysis,
  failed,
  fileRef,
  inventoryAnalysis,
  pendingEvents,
  processed,
  uploaded,
} from './test-fixtures.ts';
import type { Harness } from './test-fixtures.ts';

const logger = createLogger({ level: 'silent', component: 'test' });

async function changes(h: Harness) {
  return (await pendingEvents(h.db))
    .filter((e) => e.topic === Topics.catalogueChanged)
    .map((e) => decodeEvent(Topics.catalogueChanged, e.value));
}
async function statuses(h: Harness) {
  return (await pendingEvents(h.db))
    .filter((e) => e.topic === Topics.fileStatus)
    .map((e) => decodeEvent(Topics.fileStatus, e.value));
}

describe('the catalogue file-events consumer', { timeout: 60_000 }, () => {
  let h: Harness;
  let handle: ReturnType<typeof createFileEventsHandler>;
  const alice = `alice-${randomUUID()}`;
  const bob = `bob-${randomUUID()}`;

  beforeEach(async () => {
    h = await createHarness();
    handle = createFileEventsHandler({ service: h.service, logger });
  }, 60_000);
  afterEach(async () => h.close(), 60_000);

  it('stores file.processed as a document whose id is the file id, and reports COMPLETED with an UPSERT', async () => {
    const file = fileRef(alice);
    expect(await handle(uploaded(alice, file))).toBe('done');
    expect(await handle(processed(alice, file, 1, { case: 'document', value: documentAnalysis() }))).toBe(
      'done',
    );

    const doc = await h.documents.findForOwner(alice, file.fileId);
    expect(doc).toMatchObject({
      id: file.fileId,
      title: 'On Glass Beads',
      publication_year: 2024,
      file_name: 'paper.pdf',
    });
    expect(doc!.hashtags).toEqual([
      { tag: 'beads', relevancy: 0.9 },
      { tag: 'trade', relevancy: 0.5 },
    ]);
    const [change] = await changes(h);
    expect(change).toMatchObject({
      op: ChangeOp.UPSERT,
      entityId: file.fileId,
      ownerId: alice,
      entityType: EntityType.DOCUMENT,
    });
    expect(change!.version).toBe(BigInt(doc!.version));
    expect(change!.payload.case).toBe('document');
    const payload = change!.payload.value as {
      analysis?: { embedding?: { values: number[] }; passages: unknown[]; text?: { text: string } };
    };
    expect(payload.analysis?.embedding?.values.length).toBe(3);
    expect(payload.analysis?.passages).toHaveLength(1);
    expect(payload.analysis?.text?.text).toBe('Full text of the ledger.');
    const [status] = await statuses(h);
    expect(status).toMatchObject({
      fileId: file.fileId,
      status: FileState.COMPLETED,
      stage: ProcessingStage.DONE,
      progress: 100,
      attempt: 1,
      resultType: EntityType.DOCUMENT,
      resultId: file.fileId,
    });
    const activity = await h.activity.recent(alice, 10);
    expect(activity.map((a) => a.type)).toEqual(['processed', 'uploaded']);
    expect(activity[0]!.message).toBe('Processed "paper.pdf" as a document: "On Glass Beads"');
    // the full list pages through them (GET /api/activity?page=)
    expect((await h.activity.recent(alice, 1, 1)).map((a) => a.type)).toEqual(['uploaded']);
    expect(await h.activity.recent(alice, 1, 2)).toEqual([]);
  });

  it('is idempotent: the same event twice and an older attempt after a newer one leave one entity at the right version', async () => {
    const file = fileRef(alice);
    const first = processed(alice, file, 1, {
      case: 'document',
      value: documentAnalysis({ title: 'First' }),
    });
    expect(await handle(first)).toBe('done');
    expect(await handle(first)).toBe('skipped');
    const v1 = (await h.documents.findForOwner(alice, file.fileId))!.version;

    expect(
      await handle(
        processed(alice, file, 2, { case: 'document', value: documentAnalysis({ title: 'Second' }) }),
      ),
    ).toBe('done');
    const v2 = (await h.documents.findForOwner(alice, file.fileId))!.version;
    expect(v2).toBeGreaterThan(v1);
    // attempt 1 redelivered late (a new event id, as after a processing restart): changes nothing
    expect(
      await handle(
        processed(alice, file, 1, { case: 'document', value: documentAnalysis({ title: 'Late' }) }),
      ),
    ).toBe('skipped');
    const doc = await h.documents.findForOwner(alice, file.fileId);
    expect(doc).toMatchObject({ title: 'Second', version: v2 });
    expect(
      (await h.documents.list(alice, { sort: 'created_at', order: 'desc' }, { page: 1, limit: 20 })).total,
    ).toBe(1);
    expect((await changes(h)).length).toBe(2);
    expect((await statuses(h)).map((s) => s.attempt)).toEqual([1, 2]);
  });

  it('keeps the user corrections when the file is processed again', async () => {
    const file = fileRef(alice);
    await handle(processed(alice, file, 1, { case: 'document', value: documentAnalysis() }));
    const edited = await h.service.updateDocument(alice, file.fileId, {
      title: 'My title',
      publication_year: null,
    });
    expect(edited).toMatchObject({
      title: 'My title',
      publication_year: null,
      corrected_fields: ['title', 'publication_year'],
    });
    await handle(
      processed(alice, file, 2, {
        case: 'document',
        value: documentAnalysis({ title: 'AI title', category: 'Economics' }),
      }),
    );
    const doc = await h.documents.findForOwner(alice, file.fileId);
    expect(doc).toMatchObject({ title: 'My title', publication_year: null, category: 'Economics' });
    expect(doc!.provenance.title!.source).toBe('user');
    const last = (await changes(h)).at(-1)!;
    const analysis = (last.payload.value as { analysis: { title: string; publicationYear?: number } })
      .analysis;
    expect(analysis.title).toBe('My title');
    expect(analysis.publicationYear).toBeUndefined();
  });

  it('replaces the document with an inventory item when a reprocess changes the kind, and says so with a DELETE', async () => {
    const file = fileRef(alice, randomUUID(), 'bowl.png', 'image/png');
    await handle(processed(alice, file, 1, { case: 'document', value: documentAnalysis() }));
    await handle(processed(alice, file, 2, { case: 'inventoryItem', value: inventoryAnalysis() }));
    expect(await h.documents.findForOwner(alice, file.fileId)).toBeNull();
    expect(await h.inventory.findForOwner(alice, file.fileId)).toMatchObject({
      name: 'Blue bowl',
      color: 'blue',
      dimensions: '20 x 8 cm',
      category: 'Bowls',
    });
    const ops = (await changes(h)).map((c) => [c.op, c.entityType]);
    expect(ops).toEqual([
      [ChangeOp.UPSERT, EntityType.DOCUMENT],
      [ChangeOp.DELETE, EntityType.DOCUMENT],
      [ChangeOp.UPSERT, EntityType.INVENTORY_ITEM],
    ]);
    const versions = (await changes(h)).map((c) => c.version);
    expect([...versions].sort((a, b) => (a < b ? -1 : 1))).toEqual(versions);
  });

  it('deletes what a deleted file produced, once, and ignores a late file.processed for it', async () => {
    const file = fileRef(alice);
    await handle(uploaded(alice, file));
    await handle(processed(alice, file, 1, { case: 'document', value: documentAnalysis() }));
    const del = deleted(alice, file.fileId);
    expect(await handle(del)).toBe('done');
    expect(await handle(del)).toBe('skipped');
    expect(await h.documents.findForOwner(alice, file.fileId)).toBeNull();
    expect((await changes(h)).map((c) => c.op)).toEqual([ChangeOp.UPSERT, ChangeOp.DELETE]);
    expect(await handle(processed(alice, file, 2, { case: 'document', value: documentAnalysis() }))).toBe(
      'skipped',
    );
    expect(await h.documents.findForOwner(alice, file.fileId)).toBeNull();
    const stats = await h.activity.stats(alice);
    expect(stats).toMatchObject({ documents_processed: 0, files_total: 0, storage_bytes: 0 });
    expect((await h.activity.recent(alice, 1))[0]).toMatchObject({
      type: 'deleted',
      message: 'Deleted "paper.pdf" and the document made from it',
    });
  });

  it('drops a cancelled attempt: its late result is never stored, and one stored a moment before the cancel is deleted', async () => {
    // Cancel first, result later (processing was not told in time).
    const late = fileRef(alice);
    await handle(uploaded(alice, late));
    expect(await handle(cancelled(alice, late.fileId))).toBe('done');
    expect(await handle(processed(alice, late, 1, { case: 'document', value: documentAnalysis() }))).toBe(
      'skipped',
    );
    expect(await h.documents.findForOwner(alice, late.fileId)).toBeNull();
    expect((await statuses(h)).filter((s) => s.fileId === late.fileId)).toEqual([]);

    // Result stored first, then the cancel that ingestion accepted while the file was still running.
    const raced = fileRef(alice);
    await handle(uploaded(alice, raced));
    await handle(processed(alice, raced, 1, { case: 'document', value: documentAnalysis() }));
    expect(await handle(cancelled(alice, raced.fileId))).toBe('done');
    expect(await h.documents.findForOwner(alice, raced.fileId)).toBeNull();
    const ops = (await changes(h)).filter((c) => c.entityId === raced.fileId).map((c) => c.op);
    expect(ops).toEqual([ChangeOp.UPSERT, ChangeOp.DELETE]);

    // A cancelled reprocess leaves the document of the earlier attempt alone; a new attempt is stored.
    const kept = fileRef(alice);
    await handle(uploaded(alice, kept));
    await handle(processed(alice, kept, 1, { case: 'document', value: documentAnalysis() }));
    expect(await handle(cancelled(alice, kept.fileId, 2))).toBe('done');
    expect(await handle(processed(alice, kept, 2, { case: 'document', value: documentAnalysis() }))).toBe(
      'skipped',
    );
    expect(await h.documents.findForOwner(alice, kept.fileId)).toMatchObject({ id: kept.fileId });
    expect(await handle(processed(alice, kept, 3, { case: 'document', value: documentAnalysis() }))).toBe(
      'done',
    );

    // Bob cannot cancel Alice's file.
    const mine = fileRef(alice);
    await handle(uploaded(alice, mine));
    await handle(processed(alice, mine, 1, { case: 'document', value: documentAnalysis() }));
    await handle(cancelled(bob, mine.fileId));
    expect(await h.documents.findForOwner(alice, mine.fileId)).not.toBeNull();
  });

  it('counts uploads, completions and failures per user for the stats', async () => {
    const a = fileRef(alice);
    const b = fileRef(alice, randomUUID(), 'bad.pdf');
    await handle(uploaded(alice, a));
    await handle(uploaded(alice, b));
    await handle(processed(alice, a, 1, { case: 'document', value: documentAnalysis() }));
    const fail = failed(alice, b.fileId, 1, 'This PDF is password-protected');
    expect(await handle(fail)).toBe('done');
    expect(await handle(fail)).toBe('skipped');
    expect(await h.activity.stats(alice)).toEqual({
      documents_processed: 1,
      inventory_items: 0,
      files_completed: 1,
      files_failed: 1,
      files_total: 2,
      processing_efficiency: 0.5,
      storage_bytes: 2468,
    });
    expect(await h.activity.stats(bob)).toEqual({
      documents_processed: 0,
      inventory_items: 0,
      files_completed: 0,
      files_failed: 0,
      files_total: 0,
      processing_efficiency: null,
      storage_bytes: 0,
    });
    expect((await h.activity.recent(alice, 1))[0]!.message).toBe(
      'Processing "bad.pdf" failed: This PDF is password-protected',
    );
    expect(await h.activity.recent(bob, 10)).toEqual([]);
  });

  it('refuses an event whose owner does not own the file', async () => {
    const file = fileRef(alice);
    await handle(processed(alice, file, 1, { case: 'document', value: documentAnalysis() }));
    // bob claims alice's file id: nothing of alice's changes, bob gets nothing
    expect(
      await handle(
        processed(bob, { ...file, ownerId: bob }, 2, {
          case: 'document',
          value: documentAnalysis({ title: 'x' }),
        }),
      ),
    ).toBe('skipped');
    expect(await handle(deleted(bob, file.fileId))).toBe('skipped');
    expect((await h.documents.findForOwner(alice, file.fileId))!.title).toBe('On Glass Beads');
    expect(await h.documents.findForOwner(bob, file.fileId)).toBeNull();
  });

  it('reports the file FAILED when storing fails on the last attempt, and dead-letters bytes it cannot read', async () => {
    const file = fileRef(alice);
    const broken = createFileEventsHandler({
      service: { ...h.service, applyProcessed: () => Promise.reject(new Error('disk full')) },
      logger,
      maxAttempts: 3,
    });
    const event = processed(alice, file, 1, { case: 'document', value: documentAnalysis() });
    await expect(broken({ ...event, attempt: 1 })).rejects.toThrow('disk full');
    expect(await broken({ ...event, attempt: 3 })).toBe('failed');
    const [status] = await statuses(h);
    expect(status).toMatchObject({
      status: FileState.FAILED,
      error: 'The result could not be saved. Please try processing the file again.',
    });
    expect(await handle({ ...event, value: new Uint8Array([0xff, 0xff, 0xff]) })).toBe('failed');
  });

  it('runs on the bus: a redelivered event and an older attempt arriving late leave one entity at the right version', async () => {
    const file = fileRef(alice);
    const seen: string[] = [];
    const watch = await h.bus.subscribe({
      group: 'test-watch',
      topics: [Topics.catalogueChanged, Topics.fileStatus],
      handler: async (e) => {
        seen.push(e.topic);
        return 'done';
      },
    });
    const sub = await subscribeFileEvents({ bus: h.bus, service: h.service, logger });
    await h.outbox.start();
    const send = (e: ReturnType<typeof processed>) =>
      h.bus.publish([{ topic: e.topic, key: file.fileId, value: e.value, headers: { 'event-id': e.id } }]);
    const first = processed(alice, file, 1, { case: 'document', value: documentAnalysis({ title: 'One' }) });
    await send(first);
    await send(first); // at-least-once: the same event again
    await send(processed(alice, file, 2, { case: 'document', value: documentAnalysis({ title: 'Two' }) }));
    await send(processed(alice, file, 1, { case: 'document', value: documentAnalysis({ title: 'Late' }) }));
    // a sentinel with the same key: once it is stored, everything before it has been handled (per-key order)
    await send(processed(alice, file, 3, { case: 'document', value: documentAnalysis({ title: 'Three' }) }));
    await expect
      .poll(async () => (await h.documents.findForOwner(alice, file.fileId))?.title, { timeout: 10_000 })
      .toBe('Three');
    const messages = (await h.activity.recent(alice, 10))
      .filter((a) => a.type === 'processed')
      .map((a) => a.message);
    expect(messages).toEqual([
      'Processed "paper.pdf" as a document: "Three"',
      'Processed "paper.pdf" as a document: "Two"',
      'Processed "paper.pdf" as a document: "One"',
    ]);
    const changed = await h.db.query<{ n: unknown }>(`SELECT count(*) AS n FROM outbox WHERE topic = $1`, [
      Topics.catalogueChanged,
    ]);
    expect(Number(changed.rows[0]!.n)).toBe(3);
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(6);
    expect(
      (await h.documents.list(alice, { sort: 'title', order: 'asc' }, { page: 1, limit: 10 })).total,
    ).toBe(1);
    await sub.close();
    await watch.close();
  });
});
