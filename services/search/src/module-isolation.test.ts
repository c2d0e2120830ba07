// The search module keeps owners apart (testing/search-module-harness.ts): identical content of two
// users never crosses, in any search mode, in related and duplicates, or through a kaboodle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kaboodleChanged, makeDocument, makeInventoryItem, makeKaboodle } from './testing/fixtures.ts';
import { ALICE, BOB, startSearchHarness, waitFor, user } from './testing/search-module-harness.ts';
import type { SearchHarness, Hit } from './testing/search-module-harness.ts';

let h: SearchHarness;
beforeAll(async () => {
  h = await startSearchHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('isolation: two users with identical content', () => {
  const a1 = makeDocument({
    ownerId: 'alice',
    title: 'Glass bead trade in West Africa',
    summary: 'beads trade history',
  });
  const a2 = makeDocument({
    ownerId: 'alice',
    title: 'Glass bead trade in West Africa',
    summary: 'beads trade history',
  });
  const b1 = makeDocument({
    ownerId: 'bob',
    title: 'Glass bead trade in West Africa',
    summary: 'beads trade history',
  });
  const b2 = makeDocument({
    ownerId: 'bob',
    title: 'Glass bead trade in West Africa',
    summary: 'beads trade history',
  });
  const bItem = makeInventoryItem({
    ownerId: 'bob',
    name: 'Glass bead necklace',
    description: 'beads trade',
  });

  const bobIds = [b1.id, b2.id, bItem.id];

  beforeAll(async () => {
    await h.publish(...[a1, a2, b1, b2, bItem].map((entity) => ({ op: 'upsert' as const, entity })));
    await waitFor(async () => (await h.index.stats('bob')).entities === 3);
    await waitFor(async () => (await h.find(ALICE, 'bead')).body.results.length === 2);
  });

  it('never returns the other user’s entities in any search mode', async () => {
    for (const search_type of ['keyword', 'semantic', 'hybrid', 'vector']) {
      const alice = await h.call<{ results: Hit[] }>('POST', '/api/search', ALICE, {
        query: 'glass bead trade',
        search_type,
      });
      const aliceIds = alice.body.results.map((h) => h.id);
      expect(aliceIds).toEqual(expect.arrayContaining([a1.id, a2.id]));
      expect(aliceIds.filter((id) => bobIds.includes(id))).toEqual([]);
      const bob = await h.call<{ results: Hit[] }>('POST', '/api/search', BOB, {
        query: 'glass bead trade',
        search_type,
      });
      expect(bob.body.results.map((h) => h.id).sort()).toEqual([b1.id, b2.id, bItem.id].sort());
    }
    const docs = await h.call<{ results: Array<{ id: string }> }>('POST', '/api/documents/search', ALICE, {
      query: 'beads',
    });
    expect(docs.body.results.map((r) => r.id)).toEqual(expect.arrayContaining([a1.id, a2.id]));
    expect(docs.body.results.filter((r) => bobIds.includes(r.id))).toEqual([]);
    const bobDocs = await h.call<{ results: Array<{ id: string }> }>('POST', '/api/documents/search', BOB, {
      query: 'beads',
    });
    expect(bobDocs.body.results.map((r) => r.id).sort()).toEqual([b1.id, b2.id].sort());
  });

  it('answers 404 for related and duplicates of the other user’s entity, as for a missing one', async () => {
    for (const path of ['/api/search/related', '/api/search/duplicates']) {
      const theirs = await h.call('GET', `${path}?type=document&id=${b1.id}`, ALICE);
      const missing = await h.call('GET', `${path}?type=document&id=no-such-id`, ALICE);
      expect(theirs.status).toBe(404);
      expect(theirs.body.message).toBe('Document not found');
      expect(missing.body.message).toBe(theirs.body.message);
    }
  });

  it('related, duplicates and neighbours stay within the caller’s own entities', async () => {
    const related = await h.call<{ results: Hit[] }>(
      'GET',
      `/api/search/related?type=document&id=${a1.id}&limit=50`,
      ALICE,
    );
    expect(related.body.results[0]!.id).toBe(a2.id);
    const relatedIds = related.body.results.map((h) => h.id);
    expect(relatedIds.filter((id) => bobIds.includes(id) || id === a1.id)).toEqual([]);
    const dups = await h.call<{ results: Hit[] }>(
      'GET',
      `/api/search/duplicates?type=document&id=${a1.id}`,
      ALICE,
    );
    expect(dups.body.results.map((h) => h.id)).toEqual([a2.id]);
    expect(dups.body.results[0]!.score).toBeGreaterThanOrEqual(0.95);
    const edges = await h.call<{ edges: Array<{ source: string; target: string; similarity: number }> }>(
      'POST',
      '/api/search/neighbours',
      ALICE,
      { ids: [a1.id, a2.id, b1.id, b2.id], min_similarity: 0 },
    );
    expect(edges.status).toBe(200);
    expect(edges.body.edges).toHaveLength(1);
    expect([edges.body.edges[0]!.source, edges.body.edges[0]!.target].sort()).toEqual([a1.id, a2.id].sort());
    // Bob's own graph links only Bob's documents.
    const bobEdges = await h.call<{ edges: Array<{ source: string; target: string }> }>(
      'POST',
      '/api/search/neighbours',
      BOB,
      { ids: [a1.id, a2.id, b1.id, b2.id] },
    );
    expect(bobEdges.body.edges.flatMap((e) => [e.source, e.target]).sort()).toEqual([b1.id, b2.id].sort());
  });

  it('a user with nothing indexed gets nothing', async () => {
    const empty = user('erin');
    for (const search_type of ['keyword', 'semantic']) {
      const r = await h.call<{ results: Hit[] }>('POST', '/api/search', empty, {
        query: 'glass bead trade',
        search_type,
      });
      expect(r.body.results).toEqual([]);
    }
  });
});

describe('search within a kaboodle', () => {
  const DAVE = user('dave');
  const ERIN = user('erin');
  const docs = {
    lamp: makeDocument({ ownerId: 'dave', title: 'Brass lamp restoration' }),
    vase: makeDocument({ ownerId: 'dave', title: 'Brass vase polishing' }),
    bell: makeInventoryItem({ ownerId: 'dave', name: 'Brass bell' }),
  };
  const fair = makeKaboodle({
    ownerId: 'dave',
    version: 10,
    members: [
      { type: 'inventory_item', id: docs.bell.id },
      { type: 'document', id: docs.lamp.id },
    ],
  });
  const ids = (r: { body: { results: Hit[] } }) => r.body.results.map((h) => h.id).sort();
  const message = (r: { body: unknown }) => (r.body as { message?: string }).message;

  beforeAll(async () => {
    await h.publish(...Object.values(docs).map((entity) => ({ op: 'upsert' as const, entity })));
    await h.bus.publish([kaboodleChanged({ op: 'upsert', kaboodle: fair })]);
    await waitFor(async () => (await h.find(DAVE, 'brass')).body.results.length === 3);
    await waitFor(async () => (await h.find(DAVE, 'brass', { kaboodle: fair.id })).status === 200);
  });

  it('finds only the kaboodle’s members, in every search type, with the other filters too', async () => {
    for (const search_type of ['keyword', 'semantic', 'hybrid', 'vector']) {
      const res = await h.find(DAVE, 'brass', { kaboodle: fair.id, search_type });
      expect(res.status, search_type).toBe(200);
      expect(ids(res), search_type).toEqual([docs.bell.id, docs.lamp.id].sort());
    }
    expect(ids(await h.find(DAVE, 'brass'))).toHaveLength(3);
    expect(ids(await h.find(DAVE, 'brass', { kaboodle: fair.id, types: 'document' }))).toEqual([
      docs.lamp.id,
    ]);
  });

  it('follows membership changes at once (the cached answer is dropped), and a deleted kaboodle is 404', async () => {
    expect(ids(await h.find(DAVE, 'brass', { kaboodle: fair.id }))).toHaveLength(2);
    const changed = makeKaboodle({
      id: fair.id,
      ownerId: 'dave',
      version: 11,
      members: [{ type: 'document', id: docs.vase.id }],
    });
    await h.bus.publish([kaboodleChanged({ op: 'upsert', kaboodle: changed })]);
    await waitFor(
      async () => ids(await h.find(DAVE, 'brass', { kaboodle: fair.id })).join() === docs.vase.id,
    );
    // a redelivered older version changes nothing
    await h.bus.publish([kaboodleChanged({ op: 'upsert', kaboodle: fair })]);
    await new Promise((r) => setTimeout(r, 100));
    expect(ids(await h.find(DAVE, 'brass', { kaboodle: fair.id }))).toEqual([docs.vase.id]);

    const empty = makeKaboodle({ ownerId: 'dave', version: 12 });
    await h.bus.publish([kaboodleChanged({ op: 'upsert', kaboodle: empty })]);
    await waitFor(async () => (await h.find(DAVE, 'brass', { kaboodle: empty.id })).status === 200);
    expect((await h.find(DAVE, 'brass', { kaboodle: empty.id })).body.results).toEqual([]);
    await h.bus.publish([kaboodleChanged({ op: 'delete', id: empty.id, ownerId: 'dave', version: 13 })]);
    await waitFor(async () => (await h.find(DAVE, 'brass', { kaboodle: empty.id })).status === 404);
    expect(message(await h.find(DAVE, 'brass', { kaboodle: empty.id }))).toBe('Kaboodle not found');
  });

  it('answers another user’s kaboodle id like a missing one, and never reaches their members', async () => {
    await h.publish({ op: 'upsert', entity: makeDocument({ ownerId: 'erin', title: 'Brass plate' }) });
    await waitFor(async () => (await h.find(ERIN, 'brass')).body.results.length === 1);
    const theirs = await h.find(ERIN, 'brass', { kaboodle: fair.id });
    expect(theirs.status).toBe(404);
    expect(message(theirs)).toBe('Kaboodle not found');
    expect((await h.find(ERIN, 'brass', { kaboodle: 'no-such-kaboodle' })).status).toBe(404);
  });

  it('a smart kaboodle stands for what its saved search finds now, within its own kaboodle when it has one', async () => {
    const lamps = makeKaboodle({ ownerId: 'dave', version: 20, smart: { query: 'lamp' } });
    const inFair = makeKaboodle({
      ownerId: 'dave',
      version: 21,
      smart: { query: 'polishing restoration', kaboodleId: fair.id },
    });
    await h.bus.publish([
      kaboodleChanged({ op: 'upsert', kaboodle: lamps }),
      kaboodleChanged({ op: 'upsert', kaboodle: inFair }),
    ]);
    await waitFor(async () => (await h.find(DAVE, 'brass', { kaboodle: inFair.id })).status === 200);
    expect(ids(await h.find(DAVE, 'brass', { kaboodle: lamps.id }))).toEqual([docs.lamp.id]);
    // fair now holds only the vase: of "polishing restoration", only the vase is in it
    expect(ids(await h.find(DAVE, 'brass', { kaboodle: inFair.id }))).toEqual([docs.vase.id]);
  });

  it('checks the kaboodle field: text of at most 200 characters; blank means no kaboodle', async () => {
    const long = await h.find(DAVE, 'brass', { kaboodle: 'k'.repeat(201) });
    expect(long.status).toBe(400);
    expect(message(long)).toBe('kaboodle is too long (max 200 characters)');
    const wrong = await h.find(DAVE, 'brass', { kaboodle: 42 });
    expect(wrong.status).toBe(400);
    expect(message(wrong)).toBe('kaboodle must be a kaboodle id');
    expect(ids(await h.find(DAVE, 'brass', { kaboodle: '  ' }))).toHaveLength(3);
  });
});
