// The search module end to end in one process (testing/search-module-harness.ts): the catalogue.changed
// consumer feeding the index, and rebuilds from the catalogue. Routes and isolation have their own files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadLetterTopic } from '@kaboodle/platform';
import { Topics } from '@kaboodle/proto';
import { catalogueChanged, makeDocument, makeInventoryItem, userDeleted } from './testing/fixtures.ts';
import { ADMIN, ALICE, startSearchHarness, user } from './testing/search-module-harness.ts';
import type { SearchHarness, Hit } from './testing/search-module-harness.ts';

let h: SearchHarness;
beforeAll(async () => {
  h = await startSearchHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('catalogue.changed consumer', () => {
  it('indexes an upserted document and finds it by keyword and by meaning', async () => {
    const doc = makeDocument({
      ownerId: 'alice',
      title: 'Cover crops and soil carbon',
      summary: 'Legume cover crops store carbon in smallholder maize plots.',
    });
    await h.publish({ op: 'upsert', entity: doc });
    await expect
      .poll(async () => (await h.find(ALICE, 'maize')).body.results.map((h) => h.id))
      .toEqual([doc.id]);
    const semantic = await h.call<{ results: Hit[] }>('POST', '/api/search', ALICE, {
      query: 'soil carbon',
      search_type: 'vector',
    });
    expect(semantic.body.results[0]).toMatchObject({
      type: 'document',
      id: doc.id,
      title: 'Cover crops and soil carbon',
      name: '',
      url: `/api/documents/${doc.id}/file`,
      image_url: '',
    });
    expect(semantic.body.results[0]!.score).toBeGreaterThan(0);
    expect(semantic.body.results[0]!.score).toBeLessThanOrEqual(1);
  });

  it('re-indexes an edit (higher version) and ignores a late older version', async () => {
    const v1 = makeDocument({ ownerId: 'alice', version: 1, title: 'Draft memo about leases' });
    await h.publish({ op: 'upsert', entity: v1 });
    await expect.poll(async () => (await h.find(ALICE, 'draft')).body.results.length).toBe(1);
    const v2 = makeDocument({ id: v1.id, ownerId: 'alice', version: 2, title: 'Tenant repairs memorandum' });
    await h.publish({ op: 'upsert', entity: v2 }, { op: 'upsert', entity: v1 });
    await expect
      .poll(async () => (await h.find(ALICE, 'memorandum')).body.results.map((h) => h.id))
      .toEqual([v1.id]);
    await h.bus.publish([catalogueChanged({ op: 'upsert', entity: v1 })]);
    await new Promise((r) => setTimeout(r, 100));
    expect((await h.find(ALICE, 'draft')).body.results).toEqual([]);
  });

  it('removes a deleted entity, and a redelivered older upsert does not bring it back', async () => {
    const doc = makeDocument({ ownerId: 'alice', version: 3, title: 'Quarterly tote bag report' });
    await h.publish({ op: 'upsert', entity: doc });
    await expect.poll(async () => (await h.find(ALICE, 'tote')).body.results.length).toBe(1);
    await h.publish({ op: 'delete', entityType: 'document', id: doc.id, ownerId: 'alice', version: 4 });
    await expect.poll(async () => (await h.find(ALICE, 'tote')).body.results.length).toBe(0);
    await h.publish({ op: 'upsert', entity: doc });
    await new Promise((r) => setTimeout(r, 100));
    expect((await h.find(ALICE, 'tote')).body.results.length).toBe(0);
  });

  it('coalesces a burst of events into few index writes', async () => {
    const before = h.index.writes.length;
    const docs = Array.from({ length: 40 }, (_, i) =>
      makeDocument({ ownerId: 'carol', title: `Burst document number ${i} about baskets` }),
    );
    await h.publish(...docs.map((entity) => ({ op: 'upsert' as const, entity })));
    await expect.poll(async () => (await h.index.stats('carol')).entities).toBe(40);
    const writes = h.index.writes.slice(before).filter((w) => w.op === 'upsert');
    expect(writes.length).toBeLessThan(40);
    expect(writes.reduce((n, w) => n + w.size, 0)).toBe(40);
  });

  it('dead-letters an event it can never index (embedding from another model)', async () => {
    const dead: string[] = [];
    const sub = await h.bus.subscribe({
      group: 'test-dlq',
      topics: [deadLetterTopic(Topics.catalogueChanged)],
      handler: async (e) => {
        dead.push(e.key);
        return 'done';
      },
    });
    const doc = makeDocument({ ownerId: 'alice', title: 'odd vector', embedding: [0.1, 0.2, 0.3] });
    await h.publish({ op: 'upsert', entity: doc });
    await expect.poll(() => dead).toContain(doc.id);
    await sub.close();
  });

  it('removes everything of a deleted user (user.changed DELETE)', async () => {
    const doc = makeDocument({ ownerId: 'dave', title: 'Dave keeps raffia fans' });
    await h.publish({ op: 'upsert', entity: doc });
    await expect.poll(async () => (await h.index.stats('dave')).entities).toBe(1);
    await h.bus.publish([userDeleted('dave')]);
    await expect.poll(async () => (await h.index.stats('dave')).entities).toBe(0);
  });
});

describe('rebuild', () => {
  it('is for admins only', async () => {
    const res = await h.call('POST', '/api/search/admin/rebuild', ALICE);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Access denied. You may not have permission for this action.');
    expect((await h.call('GET', '/api/search/admin/rebuild', ALICE)).status).toBe(403);
  });

  it('streams every catalogue entity into the index; newer indexed versions stay', async () => {
    const fresh = makeDocument({ ownerId: 'frank', title: 'Only known to the catalogue' });
    const item = makeInventoryItem({ ownerId: 'frank', name: 'Catalogue-only stool' });
    h.catalogueEntities.push(fresh, item);
    const started = await h.call<{ running: boolean }>('POST', '/api/search/admin/rebuild', ADMIN);
    expect(started.status).toBe(202);
    await expect
      .poll(
        async () =>
          (await h.call<{ running: boolean; read: number }>('GET', '/api/search/admin/rebuild', ADMIN)).body,
      )
      .toMatchObject({ running: false, read: 2, applied: 2, error: null });
    expect((await h.find(user('frank'), 'catalogue')).body.results).toHaveLength(2);
    // Rebuilding again finds both already at that version.
    await h.search.rebuild();
    expect((await h.call('GET', '/api/search/admin/rebuild', ADMIN)).body).toMatchObject({
      read: 2,
      stale: 2,
      applied: 0,
    });
  });

  it('reports the index in /readyz', async () => {
    const res = await h.call<{ checks: Record<string, unknown> | Array<{ name: string }> }>(
      'GET',
      '/readyz',
      undefined,
    );
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('search.index');
  });
});
