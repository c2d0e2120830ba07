import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@kaboodle/platform';
import { ChangeOp, decodeEvent, EntityType, Topics } from '@kaboodle/proto';
import { createFileEventsHandler } from './file-events.consumer.ts';
import type { MemberRef } from './kaboodle.repository.ts';
import {
  createHarness,
  deleted,
  documentAnalysis,
  fileRef,
  inventoryAnalysis,
  pendingEvents,
  processed,
  uploaded,
} from './test-fixtures.ts';
import type { Harness } from './test-fixtures.ts';

const logger = createLogger({ level: 'silent', component: 'test' });

async function kaboodleChanges(h: Harness) {
  return (await pendingEvents(h.db))
    .filter((e) => e.topic === Topics.catalogueChanged)
    .map((e) => decodeEvent(Topics.catalogueChanged, e.value))
    .filter((e) => e.entityType === EntityType.KABOODLE);
}

const membersOf = (e: Awaited<ReturnType<typeof kaboodleChanges>>[number]) =>
  e.payload.case === 'kaboodle' ? e.payload.value.members.map((m) => m.entityId) : null;

describe('kaboodles in the catalogue', { timeout: 60_000 }, () => {
  let h: Harness;
  const alice = `alice-${randomUUID()}`;
  const bob = `bob-${randomUUID()}`;
  let docs: string[];
  let item: string;
  let bobDoc: string;

  async function store(owner: string, kind: 'document' | 'inventory_item', title: string): Promise<string> {
    const handle = createFileEventsHandler({ service: h.service, logger });
    const file = fileRef(
      owner,
      randomUUID(),
      `${title}.txt`,
      kind === 'document' ? 'text/plain' : 'image/png',
    );
    await handle(uploaded(owner, file));
    await handle(
      processed(
        owner,
        file,
        1,
        kind === 'document'
          ? { case: 'document', value: documentAnalysis({ title }) }
          : { case: 'inventoryItem', value: inventoryAnalysis(title) },
      ),
    );
    return file.fileId;
  }

  beforeEach(async () => {
    h = await createHarness();
    docs = [await store(alice, 'document', 'First'), await store(alice, 'document', 'Second')];
    item = await store(alice, 'inventory_item', 'Blue bowl');
    bobDoc = await store(bob, 'document', 'Bob’s');
  }, 60_000);
  afterEach(async () => h.close(), 60_000);

  const refs = (): MemberRef[] => [
    { type: 'document', id: docs[0]! },
    { type: 'inventory_item', id: item },
    { type: 'document', id: docs[1]! },
  ];

  it('announces every change as catalogue.changed carrying the members in order', async () => {
    const id = await h.kaboodles.create(alice, {
      name: 'Fair',
      description: '',
      smart: null,
      members: refs(),
    });
    let events = await kaboodleChanges(h);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ ownerId: alice, entityId: id, op: ChangeOp.UPSERT });
    expect(membersOf(events[0]!)).toEqual([docs[0], item, docs[1]]);

    await h.kaboodles.reorder(alice, id, [...refs()].reverse());
    await h.kaboodles.removeMembers(alice, id, [{ type: 'inventory_item', id: item }]);
    await h.kaboodles.update(alice, id, { name: 'Summer fair' });
    events = await kaboodleChanges(h);
    expect(events.map(membersOf)).toEqual([
      [docs[0], item, docs[1]],
      [docs[1], item, docs[0]],
      [docs[1], docs[0]],
      [docs[1], docs[0]],
    ]);
    const versions = events.map((e) => e.version);
    expect([...versions].sort((a, b) => (a < b ? -1 : 1))).toEqual(versions); // each change a newer version
    expect(events.at(-1)!.payload.value).toMatchObject({ name: 'Summer fair' });

    await h.kaboodles.delete(alice, id);
    events = await kaboodleChanges(h);
    expect(events.at(-1)).toMatchObject({ entityId: id, op: ChangeOp.DELETE });
    expect(events.at(-1)!.version > versions.at(-1)!).toBe(true);
  });

  it('never takes another user’s document, and adds nothing of a batch that holds one', async () => {
    const id = await h.kaboodles.create(alice, { name: 'Mine', description: '', smart: null, members: [] });
    await expect(
      h.kaboodles.addMembers(alice, id, [
        { type: 'document', id: docs[0]! },
        { type: 'document', id: bobDoc },
      ]),
    ).rejects.toMatchObject({ status: 404, message: `Document not found: ${bobDoc}` });
    expect((await h.kaboodles.get(alice, id)).members).toEqual([]);
    // and bob cannot reach alice's kaboodle at all
    await expect(h.kaboodles.get(bob, id)).rejects.toMatchObject({
      status: 404,
      message: 'Kaboodle not found',
    });
    await expect(h.kaboodles.addMembers(bob, id, [{ type: 'document', id: bobDoc }])).rejects.toMatchObject({
      status: 404,
    });
  });

  it('records "added to a kaboodle" in the activity', async () => {
    const id = await h.kaboodles.create(alice, { name: 'Fair', description: '', smart: null, members: [] });
    const r = await h.kaboodles.addMembers(alice, id, [...refs(), { type: 'document', id: docs[0]! }]);
    expect(r).toEqual({ added: 3, already: 0 });
    const again = await h.kaboodles.addMembers(alice, id, [{ type: 'document', id: docs[0]! }]);
    expect(again).toEqual({ added: 0, already: 1 });
    const recent = await h.activity.recent(alice, 5);
    expect(recent[0]).toMatchObject({
      type: 'added',
      message: 'Added 2 documents and 1 inventory item to the kaboodle "Fair"',
    });
  });

  it('a deleted document or a deleted file leaves every kaboodle, and the kaboodles are announced', async () => {
    const a = await h.kaboodles.create(alice, { name: 'A', description: '', smart: null, members: refs() });
    const b = await h.kaboodles.create(alice, {
      name: 'B',
      description: '',
      smart: null,
      members: [{ type: 'document', id: docs[0]! }],
    });
    await h.kaboodles.update(alice, a, { cover: { type: 'document', id: docs[0]! } });
    expect(await h.service.deleteDocument(alice, docs[0]!)).toBe(true);
    expect((await h.kaboodles.get(alice, a)).members.map((m) => m.id)).toEqual([item, docs[1]]);
    expect((await h.kaboodles.get(alice, a)).cover).toBeNull();
    expect((await h.kaboodles.get(alice, b)).members).toEqual([]);
    const events = await kaboodleChanges(h);
    expect(
      events
        .slice(-2)
        .map((e) => e.entityId)
        .sort(),
    ).toEqual([a, b].sort());

    const handle = createFileEventsHandler({ service: h.service, logger });
    expect(await handle(deleted(alice, item))).toBe('done');
    expect((await h.kaboodles.get(alice, a)).members.map((m) => m.id)).toEqual([docs[1]]);
  });

  it('reorder must name every member exactly once', async () => {
    const id = await h.kaboodles.create(alice, {
      name: 'Fair',
      description: '',
      smart: null,
      members: refs(),
    });
    await expect(h.kaboodles.reorder(alice, id, refs().slice(1))).rejects.toMatchObject({ status: 409 });
    await expect(h.kaboodles.reorder(alice, id, [...refs().slice(1), refs()[1]!])).rejects.toMatchObject({
      status: 409,
    });
  });

  it('names are unique per owner whatever their case; another owner may reuse one', async () => {
    await h.kaboodles.create(alice, { name: 'Fair', description: '', smart: null, members: [] });
    await expect(
      h.kaboodles.create(alice, { name: 'FAIR', description: '', smart: null, members: [] }),
    ).rejects.toMatchObject({ status: 409, message: 'You already have a kaboodle named "FAIR"' });
    await expect(
      h.kaboodles.create(bob, { name: 'Fair', description: '', smart: null, members: [] }),
    ).resolves.toBeTypeOf('string');
  });

  it('a smart kaboodle without the search service is refused as unavailable', async () => {
    await expect(
      h.kaboodles.create(alice, {
        name: 'Smart',
        description: '',
        smart: { query: 'beads', search_type: 'keyword', types: [], category: null },
        members: [],
      }),
    ).rejects.toMatchObject({ status: 503 });
  });
});
