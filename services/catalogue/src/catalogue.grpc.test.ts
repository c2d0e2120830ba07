import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrpcClient,
  createGrpcServer,
  createLogger,
  NotFoundError,
  InputError,
} from '@kaboodle/platform';
import type { GrpcServer } from '@kaboodle/platform';
import { CatalogueService, EntityType } from '@kaboodle/proto';
import { createCatalogueGrpcService } from './catalogue.grpc.ts';
import { createFileEventsHandler } from './file-events.consumer.ts';
import { createHarness, documentAnalysis, fileRef, inventoryAnalysis, processed } from './test-fixtures.ts';
import type { Harness } from './test-fixtures.ts';

const logger = createLogger({ level: 'silent', component: 'test' });

describe('CatalogueService over gRPC', { timeout: 60_000 }, () => {
  let h: Harness;
  let server: GrpcServer;
  let client: ReturnType<typeof createGrpcClient<typeof CatalogueService>>;
  const alice = `alice-${randomUUID()}`;
  const bob = `bob-${randomUUID()}`;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await createHarness();
    const handle = createFileEventsHandler({ service: h.service, logger });
    for (const [name, owner, kind] of [
      ['a1', alice, 'document'],
      ['b1', bob, 'document'],
      ['a2', alice, 'inventoryItem'],
      ['a3', alice, 'document'],
    ] as const) {
      const file = kind === 'document' ? fileRef(owner) : fileRef(owner, undefined, 'bowl.jpg', 'image/jpeg');
      ids[name] = file.fileId;
      await handle(
        processed(
          owner,
          file,
          1,
          kind === 'document'
            ? { case: 'document', value: documentAnalysis({ title: name }) }
            : { case: 'inventoryItem', value: inventoryAnalysis(name) },
        ),
      );
    }
    await h.service.updateDocument(alice, ids.a1!, { title: 'a1 edited' }); // a1 now newest
    server = createGrpcServer({ logger, port: 0, host: '127.0.0.1' });
    server.addModule({ name: 'catalogue', grpc: [createCatalogueGrpcService(h.reader)] });
    await server.start();
    client = createGrpcClient(CatalogueService, server.address, { logger });
  }, 60_000);
  afterAll(async () => {
    client?.close();
    await server?.stop();
    await h?.close();
  }, 60_000);

  it('ListForIndex streams every entity oldest change first, with corrections and vectors, and resumes after a version', async () => {
    const all = [];
    for await (const m of client.listForIndex({ allOwners: true })) all.push(m);
    const order = all.map((m) => (m.entity.case === 'document' ? m.entity.value.id : m.entity.value?.id));
    expect(order).toEqual([ids.b1, ids.a2, ids.a3, ids.a1]);
    const versions = all.map((m) => m.entity.value!.version);
    expect([...versions].sort((a, b) => (a < b ? -1 : 1))).toEqual(versions);
    const a1 = all.at(-1)!.entity;
    expect(a1.case).toBe('document');
    if (a1.case === 'document') {
      expect(a1.value.analysis?.title).toBe('a1 edited');
      expect(a1.value.analysis?.embedding?.values).toHaveLength(3);
      expect(a1.value.correctedFields).toEqual(['title']);
    }
    const after = [];
    for await (const m of client.listForIndex({ allOwners: true, afterVersion: versions[1] }))
      after.push(m.entity.value!.id);
    expect(after).toEqual([ids.a3, ids.a1]);
  });

  it('ListForIndex refuses an empty owner unless all_owners says so: no tenant leaks by omission', async () => {
    const drain = async (req: Parameters<typeof client.listForIndex>[0]) => {
      for await (const _ of client.listForIndex(req)) void _;
    };
    await expect(drain({})).rejects.toThrow(/owner_id is required/);
    await expect(drain({ ownerId: alice, allOwners: true })).rejects.toThrow(/exclude each other/);
  });

  it('ListForIndex filters by owner and entity type', async () => {
    const mine = [];
    for await (const m of client.listForIndex({ ownerId: alice, entityTypes: [EntityType.DOCUMENT] })) {
      mine.push(m.entity.value!.id);
    }
    expect(mine).toEqual([ids.a3, ids.a1]);
    const bobs = [];
    for await (const m of client.listForIndex({ ownerId: bob })) bobs.push(m.entity.value!.id);
    expect(bobs).toEqual([ids.b1]);
  });

  it('GetDocument and GetInventoryItem answer the owner only; anyone else gets NOT_FOUND', async () => {
    const doc = await client.getDocument({ ownerId: alice, id: ids.a3! });
    expect(doc.document?.analysis?.title).toBe('a3');
    const item = await client.getInventoryItem({ ownerId: alice, id: ids.a2! });
    // the gallery-size picture, versioned by the photo's hash (search results show it)
    expect(item.inventoryItem?.imageUrl).toBe(`/api/inventory/${ids.a2}/image?w=320&v=${'ab'.repeat(8)}`);
    await expect(client.getDocument({ ownerId: bob, id: ids.a3! })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getInventoryItem({ ownerId: alice, id: ids.a3! })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(client.getDocument({ ownerId: alice, id: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getDocument({ ownerId: '', id: ids.a3! })).rejects.toBeInstanceOf(InputError);
  });

  it('ListForIndex streams kaboodles with their members in order when asked for them, in the same version order', async () => {
    const fair = await h.kaboodles.create(alice, {
      name: 'Fair',
      description: '',
      smart: null,
      members: [
        { type: 'inventory_item', id: ids.a2! },
        { type: 'document', id: ids.a1! },
      ],
    });
    const gone = await h.kaboodles.create(alice, { name: 'Gone', description: '', smart: null, members: [] });
    await h.kaboodles.delete(alice, gone);
    await h.kaboodles.create(bob, { name: 'Bob’s', description: '', smart: null, members: [] });

    const types = [EntityType.DOCUMENT, EntityType.INVENTORY_ITEM, EntityType.KABOODLE];
    const all = [];
    for await (const m of client.listForIndex({ ownerId: alice, entityTypes: types })) all.push(m);
    expect(all.map((m) => m.entity.case)).toEqual(['inventoryItem', 'document', 'document', 'kaboodle']);
    const k = all.at(-1)!.entity;
    if (k.case !== 'kaboodle') throw new Error('expected a kaboodle last');
    expect(k.value).toMatchObject({ id: fair, ownerId: alice, name: 'Fair' });
    expect(k.value.members.map((m) => [m.entityType, m.entityId])).toEqual([
      [EntityType.INVENTORY_ITEM, ids.a2],
      [EntityType.DOCUMENT, ids.a1],
    ]);
    const versions = all.map((m) => m.entity.value!.version);
    expect([...versions].sort((a, b) => (a < b ? -1 : 1))).toEqual(versions);

    // only kaboodles; without KABOODLE in the types, none (older callers see what they always saw)
    const only = [];
    for await (const m of client.listForIndex({ allOwners: true, entityTypes: [EntityType.KABOODLE] }))
      only.push(m);
    expect(only.map((m) => (m.entity.case === 'kaboodle' ? m.entity.value.name : '')).sort()).toEqual([
      'Bob’s',
      'Fair',
    ]);
    const plain = [];
    for await (const m of client.listForIndex({ ownerId: alice })) plain.push(m.entity.case);
    expect(plain).not.toContain('kaboodle');
  });
});
