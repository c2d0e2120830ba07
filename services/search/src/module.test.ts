// The search module end to end in one process: catalogue.changed events on the in-process bus feed the
// index (an exact in-memory one), and the routes answer over real HTTP. The embedder is a word-hashing
// stand-in for the processing service's model; the catalogue a stand-in that streams entities.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { AuthenticationError, createHttpServer } from '@kaboodle/platform';
import type { AuthenticatedUser, EventBus } from '@kaboodle/platform';
import { createMemoryEventBus } from '@kaboodle/platform';
import { deadLetterTopic } from '@kaboodle/platform';
import { ListForIndexResponseSchema, create, Topics } from '@kaboodle/proto';
import type { Document, InventoryItem, ListForIndexResponse } from '@kaboodle/proto';
import { createSearchModule } from './module.ts';
import type { SearchModule } from './module.ts';
import { searchConfig } from './search-config.ts';
import { QUERY_TOO_LONG } from './search-request.ts';
import {
  catalogueChanged,
  hashEmbed,
  kaboodleChanged,
  makeDocument,
  makeInventoryItem,
  makeKaboodle,
  TEST_DIMENSIONS,
  userDeleted,
} from './testing/fixtures.ts';
import { createMemorySearchIndex } from './testing/memory-search-index.ts';
import type { MemorySearchIndex } from './testing/memory-search-index.ts';

const logger = pino({ level: 'silent' });
const users: Record<string, AuthenticatedUser> = {};
const user = (id: string, role: 'user' | 'admin' = 'user') => {
  users[`token-${id}`] = {
    id,
    email: `${id}@example.com`,
    role,
    sessionId: 's',
    expiresAt: new Date(Date.now() + 3_600_000),
  };
  return `token-${id}`;
};
const ALICE = user('alice');
const BOB = user('bob');
const CAROL = user('carol');
const ADMIN = user('root', 'admin');

let bus: EventBus;
let index: MemorySearchIndex;
let search: SearchModule;
let server: Server;
let base: string;
let embedCalls = 0;
let embedFails = false;
/** What the stand-in catalogue streams on a rebuild. */
const catalogueEntities: Array<Document | InventoryItem> = [];

async function* listForIndex(): AsyncIterable<ListForIndexResponse> {
  for (const e of catalogueEntities) {
    yield create(ListForIndexResponseSchema, {
      entity:
        e.$typeName === 'kaboodle.catalogue.v1.Document'
          ? { case: 'document', value: e as Document }
          : { case: 'inventoryItem', value: e as InventoryItem },
    });
  }
}

async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  raw?: string,
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(base + path, {
    method,
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

interface Hit {
  type: string;
  id: string;
  title: string;
  name: string;
  score: number;
  url: string;
  image_url: string;
  excerpt?: string;
}
const find = (token: string, query: string, extra: Record<string, unknown> = {}) =>
  call<{ results: Hit[] }>('POST', '/api/search', token, { query, search_type: 'keyword', ...extra });

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function publish(...events: Parameters<typeof catalogueChanged>[0][]): Promise<void> {
  await bus.publish(events.map((e) => catalogueChanged(e)));
}

beforeAll(async () => {
  bus = createMemoryEventBus({ logger });
  index = createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
  search = createSearchModule({
    bus,
    logger,
    verifier: {
      verify: async (token) => {
        const u = users[token];
        if (!u) throw new AuthenticationError('Session expired');
        return u;
      },
    },
    config: { ...searchConfig.parse({}), KABOODLE_DATA_DIR: '/nonexistent' },
    processing: {
      kind: 'in-process',
      module: () => ({
        name: 'processing',
        embedder: {
          dimensions: TEST_DIMENSIONS,
          model: 'hash',
          embed: async (texts: string[]) => {
            embedCalls++;
            if (embedFails) throw new Error('the processing service is down');
            return texts.map((t) => hashEmbed(t));
          },
        },
      }),
    },
    catalogue: { kind: 'in-process', module: () => ({ name: 'catalogue', listForIndex }) },
    openIndex: () => index,
  });
  const http = createHttpServer({ logger, checks: search.checks ?? [], responseCheck: 'strict' });
  http.mount(search.router!);
  await search.start!();
  server = http.app.listen(0);
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await search?.stop?.();
  await bus?.close();
});

describe('catalogue.changed consumer', () => {
  it('indexes an upserted document and finds it by keyword and by meaning', async () => {
    const doc = makeDocument({
      ownerId: 'alice',
      title: 'Cover crops and soil carbon',
      summary: 'Legume cover crops store carbon in smallholder maize plots.',
    });
    await publish({ op: 'upsert', entity: doc });
    await expect
      .poll(async () => (await find(ALICE, 'maize')).body.results.map((h) => h.id))
      .toEqual([doc.id]);
    const semantic = await call<{ results: Hit[] }>('POST', '/api/search', ALICE, {
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
    await publish({ op: 'upsert', entity: v1 });
    await expect.poll(async () => (await find(ALICE, 'draft')).body.results.length).toBe(1);
    const v2 = makeDocument({ id: v1.id, ownerId: 'alice', version: 2, title: 'Tenant repairs memorandum' });
    await publish({ op: 'upsert', entity: v2 }, { op: 'upsert', entity: v1 });
    await expect
      .poll(async () => (await find(ALICE, 'memorandum')).body.results.map((h) => h.id))
      .toEqual([v1.id]);
    await bus.publish([catalogueChanged({ op: 'upsert', entity: v1 })]);
    await new Promise((r) => setTimeout(r, 100));
    expect((await find(ALICE, 'draft')).body.results).toEqual([]);
  });

  it('removes a deleted entity, and a redelivered older upsert does not bring it back', async () => {
    const doc = makeDocument({ ownerId: 'alice', version: 3, title: 'Quarterly tote bag report' });
    await publish({ op: 'upsert', entity: doc });
    await expect.poll(async () => (await find(ALICE, 'tote')).body.results.length).toBe(1);
    await publish({ op: 'delete', entityType: 'document', id: doc.id, ownerId: 'alice', version: 4 });
    await expect.poll(async () => (await find(ALICE, 'tote')).body.results.length).toBe(0);
    await publish({ op: 'upsert', entity: doc });
    await new Promise((r) => setTimeout(r, 100));
    expect((await find(ALICE, 'tote')).body.results.length).toBe(0);
  });

  it('coalesces a burst of events into few index writes', async () => {
    const before = index.writes.length;
    const docs = Array.from({ length: 40 }, (_, i) =>
      makeDocument({ ownerId: 'carol', title: `Burst document number ${i} about baskets` }),
    );
    await publish(...docs.map((entity) => ({ op: 'upsert' as const, entity })));
    await expect.poll(async () => (await index.stats('carol')).entities).toBe(40);
    const writes = index.writes.slice(before).filter((w) => w.op === 'upsert');
    expect(writes.length).toBeLessThan(40);
    expect(writes.reduce((n, w) => n + w.size, 0)).toBe(40);
  });

  it('dead-letters an event it can never index (embedding from another model)', async () => {
    const dead: string[] = [];
    const sub = await bus.subscribe({
      group: 'test-dlq',
      topics: [deadLetterTopic(Topics.catalogueChanged)],
      handler: async (e) => {
        dead.push(e.key);
        return 'done';
      },
    });
    const doc = makeDocument({ ownerId: 'alice', title: 'odd vector', embedding: [0.1, 0.2, 0.3] });
    await publish({ op: 'upsert', entity: doc });
    await expect.poll(() => dead).toContain(doc.id);
    await sub.close();
  });

  it('removes everything of a deleted user (user.changed DELETE)', async () => {
    const doc = makeDocument({ ownerId: 'dave', title: 'Dave keeps raffia fans' });
    await publish({ op: 'upsert', entity: doc });
    await expect.poll(async () => (await index.stats('dave')).entities).toBe(1);
    await bus.publish([userDeleted('dave')]);
    await expect.poll(async () => (await index.stats('dave')).entities).toBe(0);
  });
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
    await publish(...[a1, a2, b1, b2, bItem].map((entity) => ({ op: 'upsert' as const, entity })));
    await waitFor(async () => (await index.stats('bob')).entities === 3);
    await waitFor(async () => (await find(ALICE, 'bead')).body.results.length === 2);
  });

  it('never returns the other user’s entities in any search mode', async () => {
    for (const search_type of ['keyword', 'semantic', 'hybrid', 'vector']) {
      const alice = await call<{ results: Hit[] }>('POST', '/api/search', ALICE, {
        query: 'glass bead trade',
        search_type,
      });
      const aliceIds = alice.body.results.map((h) => h.id);
      expect(aliceIds).toEqual(expect.arrayContaining([a1.id, a2.id]));
      expect(aliceIds.filter((id) => bobIds.includes(id))).toEqual([]);
      const bob = await call<{ results: Hit[] }>('POST', '/api/search', BOB, {
        query: 'glass bead trade',
        search_type,
      });
      expect(bob.body.results.map((h) => h.id).sort()).toEqual([b1.id, b2.id, bItem.id].sort());
    }
    const docs = await call<{ results: Array<{ id: string }> }>('POST', '/api/documents/search', ALICE, {
      query: 'beads',
    });
    expect(docs.body.results.map((r) => r.id)).toEqual(expect.arrayContaining([a1.id, a2.id]));
    expect(docs.body.results.filter((r) => bobIds.includes(r.id))).toEqual([]);
    const bobDocs = await call<{ results: Array<{ id: string }> }>('POST', '/api/documents/search', BOB, {
      query: 'beads',
    });
    expect(bobDocs.body.results.map((r) => r.id).sort()).toEqual([b1.id, b2.id].sort());
  });

  it('answers 404 for related and duplicates of the other user’s entity, as for a missing one', async () => {
    for (const path of ['/api/search/related', '/api/search/duplicates']) {
      const theirs = await call('GET', `${path}?type=document&id=${b1.id}`, ALICE);
      const missing = await call('GET', `${path}?type=document&id=no-such-id`, ALICE);
      expect(theirs.status).toBe(404);
      expect(theirs.body.message).toBe('Document not found');
      expect(missing.body.message).toBe(theirs.body.message);
    }
  });

  it('related, duplicates and neighbours stay within the caller’s own entities', async () => {
    const related = await call<{ results: Hit[] }>(
      'GET',
      `/api/search/related?type=document&id=${a1.id}&limit=50`,
      ALICE,
    );
    expect(related.body.results[0]!.id).toBe(a2.id);
    const relatedIds = related.body.results.map((h) => h.id);
    expect(relatedIds.filter((id) => bobIds.includes(id) || id === a1.id)).toEqual([]);
    const dups = await call<{ results: Hit[] }>(
      'GET',
      `/api/search/duplicates?type=document&id=${a1.id}`,
      ALICE,
    );
    expect(dups.body.results.map((h) => h.id)).toEqual([a2.id]);
    expect(dups.body.results[0]!.score).toBeGreaterThanOrEqual(0.95);
    const edges = await call<{ edges: Array<{ source: string; target: string; similarity: number }> }>(
      'POST',
      '/api/search/neighbours',
      ALICE,
      { ids: [a1.id, a2.id, b1.id, b2.id], min_similarity: 0 },
    );
    expect(edges.status).toBe(200);
    expect(edges.body.edges).toHaveLength(1);
    expect([edges.body.edges[0]!.source, edges.body.edges[0]!.target].sort()).toEqual([a1.id, a2.id].sort());
    // Bob's own graph links only Bob's documents.
    const bobEdges = await call<{ edges: Array<{ source: string; target: string }> }>(
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
      const r = await call<{ results: Hit[] }>('POST', '/api/search', empty, {
        query: 'glass bead trade',
        search_type,
      });
      expect(r.body.results).toEqual([]);
    }
  });
});

describe('routes', () => {
  it('needs a signed-in user', async () => {
    expect((await call('POST', '/api/search', undefined, { query: 'x' })).status).toBe(401);
    expect((await call('POST', '/api/search', 'forged', { query: 'x' })).status).toBe(401);
  });

  it('filters by type and category, and says where the time went', async () => {
    const item = makeInventoryItem({
      ownerId: 'alice',
      name: 'Woven raffia fan',
      category: 'Fans',
      material: 'raffia',
    });
    const doc = makeDocument({ ownerId: 'alice', title: 'Raffia fan supplier letter', category: 'Letter' });
    await publish({ op: 'upsert', entity: item }, { op: 'upsert', entity: doc });
    await expect.poll(async () => (await find(ALICE, 'raffia')).body.results.length).toBe(2);
    const items = await find(ALICE, 'raffia', { types: ['inventory_item'] });
    expect(items.body.results.map((h) => [h.type, h.name, h.title, h.url, h.image_url])).toEqual([
      ['inventory_item', 'Woven raffia fan', '', '', `/api/inventory/${item.id}/image`],
    ]);
    expect((await find(ALICE, 'raffia', { category: 'Letter' })).body.results.map((h) => h.id)).toEqual([
      doc.id,
    ]);
    const semantic = await call('POST', '/api/search', ALICE, { query: 'raffia', search_type: 'semantic' });
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
    await publish({ op: 'upsert', entity: doc });
    await expect.poll(async () => (await find(ALICE, 'prescribing')).body.results.length).toBe(1);
    const res = await call<{ results: Array<Record<string, unknown>> }>(
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
    embedFails = true;
    try {
      const hybrid = await call<{ results: Hit[] }>('POST', '/api/search', ALICE, {
        query: 'raffia while processing is down',
        search_type: 'semantic',
      });
      expect(hybrid.status).toBe(200);
      expect(hybrid.headers.get('x-search-degraded')).toBe('keyword');
      expect(hybrid.body.results.map((h) => h.name || h.title)).toContain('Woven raffia fan');
      const vector = await call('POST', '/api/search', ALICE, {
        query: 'raffia down again',
        search_type: 'vector',
      });
      expect(vector.status).toBe(503);
      expect(vector.body.message).toBe('Service temporarily unavailable');
    } finally {
      embedFails = false;
    }
  });

  it('answers a repeated search from the result cache until that owner’s index changes', async () => {
    const q = { query: 'kiln glaze notebook', search_type: 'semantic' };
    const first = await call<{ results: Hit[] }>('POST', '/api/search', ALICE, q);
    expect(first.headers.get('x-search-cache')).toBeNull();
    const again = await call<{ results: Hit[] }>('POST', '/api/search', ALICE, q);
    expect(again.headers.get('x-search-cache')).toBe('hit');
    expect(again.body).toEqual(first.body);
    // Bob's write leaves Alice's answer cached; hers makes the next search run again and see it.
    await publish({ op: 'upsert', entity: makeDocument({ ownerId: 'bob', title: 'Kiln glaze notebook' }) });
    await waitFor(async () => (await find(BOB, 'kiln')).body.results.length === 1);
    expect((await call('POST', '/api/search', ALICE, q)).headers.get('x-search-cache')).toBe('hit');
    const mine = makeDocument({ ownerId: 'alice', title: 'Kiln glaze notebook' });
    await publish({ op: 'upsert', entity: mine });
    await waitFor(
      async () =>
        (await index.stats('alice')).entities > 0 && (await find(ALICE, 'kiln')).body.results.length === 1,
    );
    const fresh = await call<{ results: Hit[] }>('POST', '/api/search', ALICE, q);
    expect(fresh.headers.get('x-search-cache')).toBeNull();
    expect(fresh.body.results[0]!.id).toBe(mine.id);
  });

  it('embeds a repeated query once (query-embedding cache, across search types)', async () => {
    await call('POST', '/api/search', ALICE, { query: 'A query asked twice', search_type: 'semantic' });
    const before = embedCalls;
    const again = await call('POST', '/api/search', ALICE, {
      query: '  a QUERY asked twice ',
      search_type: 'vector',
    });
    expect(again.headers.get('x-search-cache')).toBeNull(); // another answer, the same query vector
    expect(embedCalls).toBe(before);
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
    const res = await call(method, path, ALICE, body);
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
          const res = await call('POST', '/api/search', ALICE, { query, search_type, limit });
          expect(res.status, `${search_type} ${JSON.stringify(query)} limit ${limit}`).toBe(200);
        }
      }
    }
    const broken = await call('POST', '/api/search', ALICE, undefined, '{"query": ');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe('Invalid JSON in request body');
  });

  it('clamps the limit to 100', async () => {
    const docs = Array.from({ length: 105 }, (_, i) =>
      makeDocument({ ownerId: 'carol', title: `Pottery plan ${i}` }),
    );
    await publish(...docs.map((entity) => ({ op: 'upsert' as const, entity })));
    await expect.poll(async () => (await index.stats('carol')).entities).toBeGreaterThanOrEqual(145);
    expect((await find(CAROL, 'pottery', { limit: 1000 })).body.results).toHaveLength(100);
    expect((await find(CAROL, 'pottery', { limit: -3 })).body.results).toHaveLength(1);
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
    await publish(...Object.values(docs).map((entity) => ({ op: 'upsert' as const, entity })));
    await bus.publish([kaboodleChanged({ op: 'upsert', kaboodle: fair })]);
    await waitFor(async () => (await find(DAVE, 'brass')).body.results.length === 3);
    await waitFor(async () => (await find(DAVE, 'brass', { kaboodle: fair.id })).status === 200);
  });

  it('finds only the kaboodle’s members, in every search type, with the other filters too', async () => {
    for (const search_type of ['keyword', 'semantic', 'hybrid', 'vector']) {
      const res = await find(DAVE, 'brass', { kaboodle: fair.id, search_type });
      expect(res.status, search_type).toBe(200);
      expect(ids(res), search_type).toEqual([docs.bell.id, docs.lamp.id].sort());
    }
    expect(ids(await find(DAVE, 'brass'))).toHaveLength(3);
    expect(ids(await find(DAVE, 'brass', { kaboodle: fair.id, types: 'document' }))).toEqual([docs.lamp.id]);
  });

  it('follows membership changes at once (the cached answer is dropped), and a deleted kaboodle is 404', async () => {
    expect(ids(await find(DAVE, 'brass', { kaboodle: fair.id }))).toHaveLength(2);
    const changed = makeKaboodle({
      id: fair.id,
      ownerId: 'dave',
      version: 11,
      members: [{ type: 'document', id: docs.vase.id }],
    });
    await bus.publish([kaboodleChanged({ op: 'upsert', kaboodle: changed })]);
    await waitFor(async () => ids(await find(DAVE, 'brass', { kaboodle: fair.id })).join() === docs.vase.id);
    // a redelivered older version changes nothing
    await bus.publish([kaboodleChanged({ op: 'upsert', kaboodle: fair })]);
    await new Promise((r) => setTimeout(r, 100));
    expect(ids(await find(DAVE, 'brass', { kaboodle: fair.id }))).toEqual([docs.vase.id]);

    const empty = makeKaboodle({ ownerId: 'dave', version: 12 });
    await bus.publish([kaboodleChanged({ op: 'upsert', kaboodle: empty })]);
    await waitFor(async () => (await find(DAVE, 'brass', { kaboodle: empty.id })).status === 200);
    expect((await find(DAVE, 'brass', { kaboodle: empty.id })).body.results).toEqual([]);
    await bus.publish([kaboodleChanged({ op: 'delete', id: empty.id, ownerId: 'dave', version: 13 })]);
    await waitFor(async () => (await find(DAVE, 'brass', { kaboodle: empty.id })).status === 404);
    expect(message(await find(DAVE, 'brass', { kaboodle: empty.id }))).toBe('Kaboodle not found');
  });

  it('answers another user’s kaboodle id like a missing one, and never reaches their members', async () => {
    await publish({ op: 'upsert', entity: makeDocument({ ownerId: 'erin', title: 'Brass plate' }) });
    await waitFor(async () => (await find(ERIN, 'brass')).body.results.length === 1);
    const theirs = await find(ERIN, 'brass', { kaboodle: fair.id });
    expect(theirs.status).toBe(404);
    expect(message(theirs)).toBe('Kaboodle not found');
    expect((await find(ERIN, 'brass', { kaboodle: 'no-such-kaboodle' })).status).toBe(404);
  });

  it('a smart kaboodle stands for what its saved search finds now, within its own kaboodle when it has one', async () => {
    const lamps = makeKaboodle({ ownerId: 'dave', version: 20, smart: { query: 'lamp' } });
    const inFair = makeKaboodle({
      ownerId: 'dave',
      version: 21,
      smart: { query: 'polishing restoration', kaboodleId: fair.id },
    });
    await bus.publish([
      kaboodleChanged({ op: 'upsert', kaboodle: lamps }),
      kaboodleChanged({ op: 'upsert', kaboodle: inFair }),
    ]);
    await waitFor(async () => (await find(DAVE, 'brass', { kaboodle: inFair.id })).status === 200);
    expect(ids(await find(DAVE, 'brass', { kaboodle: lamps.id }))).toEqual([docs.lamp.id]);
    // fair now holds only the vase: of "polishing restoration", only the vase is in it
    expect(ids(await find(DAVE, 'brass', { kaboodle: inFair.id }))).toEqual([docs.vase.id]);
  });

  it('checks the kaboodle field: text of at most 200 characters; blank means no kaboodle', async () => {
    const long = await find(DAVE, 'brass', { kaboodle: 'k'.repeat(201) });
    expect(long.status).toBe(400);
    expect(message(long)).toBe('kaboodle is too long (max 200 characters)');
    const wrong = await find(DAVE, 'brass', { kaboodle: 42 });
    expect(wrong.status).toBe(400);
    expect(message(wrong)).toBe('kaboodle must be a kaboodle id');
    expect(ids(await find(DAVE, 'brass', { kaboodle: '  ' }))).toHaveLength(3);
  });
});

describe('rebuild', () => {
  it('is for admins only', async () => {
    const res = await call('POST', '/api/search/admin/rebuild', ALICE);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Access denied. You may not have permission for this action.');
    expect((await call('GET', '/api/search/admin/rebuild', ALICE)).status).toBe(403);
  });

  it('streams every catalogue entity into the index; newer indexed versions stay', async () => {
    const fresh = makeDocument({ ownerId: 'frank', title: 'Only known to the catalogue' });
    const item = makeInventoryItem({ ownerId: 'frank', name: 'Catalogue-only stool' });
    catalogueEntities.push(fresh, item);
    const started = await call<{ running: boolean }>('POST', '/api/search/admin/rebuild', ADMIN);
    expect(started.status).toBe(202);
    await expect
      .poll(
        async () =>
          (await call<{ running: boolean; read: number }>('GET', '/api/search/admin/rebuild', ADMIN)).body,
      )
      .toMatchObject({ running: false, read: 2, applied: 2, error: null });
    expect((await find(user('frank'), 'catalogue')).body.results).toHaveLength(2);
    // Rebuilding again finds both already at that version.
    await search.rebuild();
    expect((await call('GET', '/api/search/admin/rebuild', ADMIN)).body).toMatchObject({
      read: 2,
      stale: 2,
      applied: 0,
    });
  });

  it('reports the index in /readyz', async () => {
    const res = await call<{ checks: Record<string, unknown> | Array<{ name: string }> }>(
      'GET',
      '/readyz',
      undefined,
    );
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('search.index');
  });
});
