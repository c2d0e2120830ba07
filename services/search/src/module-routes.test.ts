// The search module's routes over real HTTP (testing/search-module-harness.ts): sign-in, filters,
// timing, fallbacks when the query cannot be embedded, caches, and input checks that never answer 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUERY_TOO_LONG } from './search-request.ts';
import { makeDocument, makeInventoryItem } from './testing/fixtures.ts';
import { ALICE, BOB, CAROL, startSearchHarness, waitFor } from './testing/search-module-harness.ts';
import type { SearchHarness, Hit } from './testing/search-module-harness.ts';

let h: SearchHarness;
beforeAll(async () => {
  h = await startSearchHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('routes', () => {
  it('needs a signed-in user', async () => {
    expect((await h.call('POST', '/api/search', undefined, { query: 'x' })).status).toBe(401);
    expect((await h.call('POST', '/api/search', 'forged', { query: 'x' })).status).toBe(401);
  });

  it('filters by type and category, and says where the time went', async () => {
    const item = makeInventoryItem({
      ownerId: 'alice',
      name: 'Woven raffia fan',
      category: 'Fans',
      material: 'raffia',
    });
    const doc = makeDocument({ ownerId: 'alice', title: 'Raffia fan supplier letter', category: 'Letter' });
    await h.publish({ op: 'upsert', entity: item }, { op: 'upsert', entity: doc });
    await expect.poll(async () => (await h.find(ALICE, 'raffia')).body.results.length).toBe(2);
    const items = await h.find(ALICE, 'raffia', { types: ['inventory_item'] });
    expect(items.body.results.map((h) => [h.type, h.name, h.title, h.url, h.image_url])).toEqual([
      ['inventory_item', 'Woven raffia fan', '', '', `/api/inventory/${item.id}/image`],
    ]);
    expect((await h.find(ALICE, 'raffia', { category: 'Letter' })).body.results.map((h) => h.id)).toEqual([
      doc.id,
    ]);
    const semantic = await h.call('POST', '/api/search', ALICE, { query: 'raffia', search_type: 'semantic' });
    expect(semantic.headers.get('server-timing')).toMatch(
      /embed;dur=[\d.]+, index;dur=[\d.]+, total;dur=[\d.]+/,
    );
  });

  it('POST /api/documents/search answers documents only, with the best passage as excerpt', async () => {
    const doc = makeDocument({
      ownerId: 'alice',
      title: 'Sleep and medical errors',
      text: 'Residents worked long shifts. Tired doctors made more prescribing mistakes at night. The study ran in 2019.',
      passages: [
        'Residents worked long shifts.',
        'Tired doctors made more prescribing mistakes at night.',
        'The study ran in 2019.',
      ],
    });
    await h.publish({ op: 'upsert', entity: doc });
    await expect.poll(async () => (await h.find(ALICE, 'prescribing')).body.results.length).toBe(1);
    const res = await h.call<{ results: Array<Record<string, unknown>> }>(
      'POST',
      '/api/documents/search',
      ALICE,
      {
        query: 'tired doctors mistakes',
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toEqual({
      id: doc.id,
      title: 'Sleep and medical errors',
      summary: '',
      excerpt: 'Tired doctors made more prescribing mistakes at night.',
      score: expect.any(Number),
      match: expect.stringMatching(/^(?:good|weak)$/),
      url: `/api/documents/${doc.id}/file`,
    });
    expect(res.body.results.every((r) => typeof r.id === 'string')).toBe(true);
  });

  it('answers hybrid by keyword when the query cannot be embedded, and vector with 503', async () => {
    h.embedFails = true;
    try {
      const hybrid = await h.call<{ results: Hit[] }>('POST', '/api/search', ALICE, {
        query: 'raffia while processing is down',
        search_type: 'semantic',
      });
      expect(hybrid.status).toBe(200);
      expect(hybrid.headers.get('x-search-degraded')).toBe('keyword');
      expect(hybrid.body.results.map((h) => h.name || h.title)).toContain('Woven raffia fan');
      const vector = await h.call('POST', '/api/search', ALICE, {
        query: 'raffia down again',
        search_type: 'vector',
      });
      expect(vector.status).toBe(503);
      expect(vector.body.message).toBe('Service temporarily unavailable');
    } finally {
      h.embedFails = false;
    }
  });

  it('answers a repeated search from the result cache until that owner’s index changes', async () => {
    const q = { query: 'kiln glaze notebook', search_type: 'semantic' };
    const first = await h.call<{ results: Hit[] }>('POST', '/api/search', ALICE, q);
    expect(first.headers.get('x-search-cache')).toBeNull();
    const again = await h.call<{ results: Hit[] }>('POST', '/api/search', ALICE, q);
    expect(again.headers.get('x-search-cache')).toBe('hit');
    expect(again.body).toEqual(first.body);
    // Bob's write leaves Alice's answer cached; hers makes the next search run again and see it.
    await h.publish({ op: 'upsert', entity: makeDocument({ ownerId: 'bob', title: 'Kiln glaze notebook' }) });
    await waitFor(async () => (await h.find(BOB, 'kiln')).body.results.length === 1);
    expect((await h.call('POST', '/api/search', ALICE, q)).headers.get('x-search-cache')).toBe('hit');
    const mine = makeDocument({ ownerId: 'alice', title: 'Kiln glaze notebook' });
    await h.publish({ op: 'upsert', entity: mine });
    await waitFor(
      async () =>
        (await h.index.stats('alice')).entities > 0 &&
        (await h.find(ALICE, 'kiln')).body.results.length === 1,
    );
    const fresh = await h.call<{ results: Hit[] }>('POST', '/api/search', ALICE, q);
    expect(fresh.headers.get('x-search-cache')).toBeNull();
    expect(fresh.body.results[0]!.id).toBe(mine.id);
  });

  it('embeds a repeated query once (query-embedding cache, across search types)', async () => {
    await h.call('POST', '/api/search', ALICE, { query: 'A query asked twice', search_type: 'semantic' });
    const before = h.embedCalls;
    const again = await h.call('POST', '/api/search', ALICE, {
      query: '  a QUERY asked twice ',
      search_type: 'vector',
    });
    expect(again.headers.get('x-search-cache')).toBeNull(); // another answer, the same query vector
    expect(h.embedCalls).toBe(before);
  });

  const badInputs: Array<[string, string, string, unknown, number, string | RegExp]> = [
    ['an empty query', 'POST', '/api/search', { query: '' }, 400, 'Search query is required'],
    ['a whitespace query', 'POST', '/api/search', { query: ' \t ' }, 400, 'Search query is required'],
    ['no query', 'POST', '/api/search', {}, 400, 'Search query is required'],
    ['a 10 kB query', 'POST', '/api/search', { query: 'x'.repeat(10_240) }, 400, QUERY_TOO_LONG],
    ['a list as query', 'POST', '/api/search', { query: ['a', 'b'] }, 400, 'Search query must be text'],
    [
      'an unknown search_type',
      'POST',
      '/api/search',
      { query: 'x', search_type: 'fuzzy' },
      400,
      /use semantic, keyword, hybrid or vector/,
    ],
    ['a word as limit', 'POST', '/api/search', { query: 'x', limit: 'lots' }, 400, 'limit must be a number'],
    [
      'an unknown type',
      'POST',
      '/api/search',
      { query: 'x', types: ['kaboodle'] },
      400,
      /Unknown type "kaboodle"/,
    ],
    [
      'an object as category',
      'POST',
      '/api/search',
      { query: 'x', category: { $gt: '' } },
      400,
      'category must be text',
    ],
    ['a list as body', 'POST', '/api/search', [1, 2], 400, 'The request body must be a JSON object'],
    [
      'an empty document query',
      'POST',
      '/api/documents/search',
      { query: '' },
      400,
      'Search query is required',
    ],
    ['related without id', 'GET', '/api/search/related?type=document', undefined, 400, 'id is required'],
    [
      'related of an unknown type',
      'GET',
      '/api/search/related?type=thing&id=x',
      undefined,
      400,
      /Unknown type "thing"/,
    ],
    [
      'related with two ids',
      'GET',
      '/api/search/related?type=document&id=a&id=b',
      undefined,
      400,
      'id must be text',
    ],
    ['duplicates without type', 'GET', '/api/search/duplicates?id=x', undefined, 400, /type is required/],
    [
      'neighbours with ids as text',
      'POST',
      '/api/search/neighbours',
      { ids: 'x' },
      400,
      'ids must be a list of document ids',
    ],
  ];
  it.each(badInputs)('%s → %i with a clear message', async (_label, method, path, body, status, message) => {
    const res = await h.call(method, path, ALICE, body);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });

  it('never answers 500: metacharacters, unicode, emoji, huge and negative limits, broken JSON', async () => {
    const queries = [
      'title:"x" AND (a OR b)~2^3 \\ / * ? { } [ ]',
      '\'; DROP TABLE entities; -- " OR 1=1',
      '.*[a-z]+$(?!x)|\\d{3,}',
      'naïve café 東京 Ελληνικά العربية',
      '🔥🧺💡',
      '\u0000\u0007 control',
      '%00 %s %n {{7*7}} ${x}',
    ];
    for (const query of queries) {
      for (const search_type of ['keyword', 'semantic', 'vector']) {
        for (const limit of [-1, 0, 1e9, 3.7]) {
          const res = await h.call('POST', '/api/search', ALICE, { query, search_type, limit });
          expect(res.status, `${search_type} ${JSON.stringify(query)} limit ${limit}`).toBe(200);
        }
      }
    }
    const broken = await h.call('POST', '/api/search', ALICE, undefined, '{"query": ');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe('Invalid JSON in request body');
  });

  it('clamps the limit to 100', async () => {
    const before = (await h.index.stats('carol')).entities;
    const docs = Array.from({ length: 105 }, (_, i) =>
      makeDocument({ ownerId: 'carol', title: `Pottery plan ${i}` }),
    );
    await h.publish(...docs.map((entity) => ({ op: 'upsert' as const, entity })));
    await expect
      .poll(async () => (await h.index.stats('carol')).entities)
      .toBeGreaterThanOrEqual(before + 105);
    expect((await h.find(CAROL, 'pottery', { limit: 1000 })).body.results).toHaveLength(100);
    expect((await h.find(CAROL, 'pottery', { limit: -3 })).body.results).toHaveLength(1);
  });
});
