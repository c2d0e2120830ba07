// The search routes over real HTTP against `kaboodle --target=all` (embedded LanceDB index, offline
// embedder): real files uploaded, processed, catalogued and indexed, then found by keyword and by
// meaning, with excerpts, related items, near-duplicates and graph edges; edits re-indexed, deletes
// gone; two users with identical content never see each other's; every bad input a clear 400.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVAL_DOCUMENTS } from '../eval/documents.ts';
import { verifyAddress } from '../support/mail-links.ts';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';

const data = tempDataDir('kaboodle-search-api-');
const ADMIN_EMAIL = `admin-${randomUUID()}@example.com`;
let app: KaboodleProcess;
let alice: string;
let bob: string;
let admin: string;

interface Hit {
  type: string;
  id: string;
  title: string;
  name: string;
  description: string;
  content: string;
  url: string;
  image_url: string;
  score: number;
  match?: string;
  category: string;
  hashtags: string[];
}
interface Reply<T> {
  status: number;
  body: T & { message?: string };
}

async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<Reply<T>> {
  const res = await fetch(new URL(path, app.url), {
    method,
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T & { message?: string } };
}

/** Poll until `read()` satisfies `ok` (expect.poll only works inside tests; setup needs this). */
async function until<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached in ${timeoutMs} ms (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const search = (token: string, query: string, search_type = 'keyword', extra: Record<string, unknown> = {}) =>
  api<{ results: Hit[] }>('POST', '/api/search', token, { query, search_type, ...extra });

async function register(name: string, email = `${name}-${randomUUID()}@example.com`): Promise<string> {
  const res = await api<{ token: string }>('POST', '/api/auth/register', undefined, {
    email,
    password: 'a long enough passphrase',
    name,
  });
  expect(res.status).toBe(201);
  return res.body.token;
}

/** Upload a text file and wait until it is catalogued: its id is the document's id. */
async function uploadText(token: string, name: string, text: string, force = false): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/plain' }), name);
  form.append('destination', 'document');
  if (force) form.append('force', 'true');
  const res = await fetch(new URL('/process', app.url), {
    method: 'POST',
    headers: { 'x-requested-with': 'XMLHttpRequest', authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(202);
  const final = await until(
    async () =>
      (await api<{ status: string; error: string | null }>('GET', `/process/status/${body.id}`, token)).body,
    (st) => st.status === 'completed' || st.status === 'failed',
    `processing ${name}`,
  );
  expect(final, `processing ${name}`).toMatchObject({ status: 'completed' });
  return body.id;
}

/** Wait until the index answers a keyword query with the entity (the catalogue → search hop is async). */
async function indexed(token: string, query: string, id: string): Promise<void> {
  await until(
    async () => (await search(token, query, 'keyword', { limit: 100 })).body.results.map((h) => h.id),
    (found) => found.includes(id),
    `indexing ${id}`,
    30_000,
  );
}

const doc = (id: string) => {
  const d = EVAL_DOCUMENTS.find((x) => x.id === id);
  if (!d) throw new Error(`no eval document ${id}`);
  return d;
};

// Alice's library, and Bob's copy of part of it (identical bytes).
const ids: Record<string, string> = {};
const bobIds: Record<string, string> = {};

beforeAll(async () => {
  app = await startKaboodleProcess({
    target: 'all',
    env: {
      KABOODLE_DATA_DIR: data.dir,
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
      S3_ENDPOINT: '',
      ELASTICSEARCH_URL: '',
      ADMIN_EMAILS: ADMIN_EMAIL,
    },
  });
  [alice, bob] = await Promise.all([register('alice'), register('bob')]);
  await register('admin', ADMIN_EMAIL);
  // ADMIN_EMAILS applies once the address is verified
  await verifyAddress(app.url, data.dir, ADMIN_EMAIL);
  admin = (
    await api<{ token: string }>('POST', '/api/auth/admin/login', undefined, {
      email: ADMIN_EMAIL,
      password: 'a long enough passphrase',
    })
  ).body.token;
  for (const key of ['p-sleep', 'r-water', 'p-soil', 'b-coffee']) {
    ids[key] = await uploadText(alice, doc(key).fileName, doc(key).text);
  }
  ids['p-soil-copy'] = await uploadText(alice, 'soil-carbon-copy.txt', doc('p-soil').text, true);
  for (const key of ['p-sleep', 'r-water', 'p-soil']) {
    bobIds[key] = await uploadText(bob, doc(key).fileName, doc(key).text);
  }
  await indexed(alice, 'nitrate', ids['r-water']!);
  await indexed(alice, 'maize', ids['p-soil-copy']!);
  await indexed(bob, 'maize', bobIds['p-soil']!);
}, 600_000);

afterAll(async () => {
  await app?.stop();
  data.remove();
});

describe('POST /api/search', () => {
  it('finds a document by keyword, in the unified result shape', async () => {
    const res = await search(alice, 'nitrate drinking water');
    expect(res.status).toBe(200);
    const hit = res.body.results[0]!;
    expect(hit).toMatchObject({
      type: 'document',
      id: ids['r-water'],
      name: '',
      url: `/api/documents/${ids['r-water']}/file`,
      image_url: '',
    });
    expect(hit.title.length).toBeGreaterThan(0);
    expect(hit.score).toBeGreaterThan(0);
    expect(hit.score).toBeLessThanOrEqual(1);
    expect(Object.keys(hit).sort()).toEqual(
      [
        'category',
        'content',
        'description',
        'hashtags',
        'id',
        'image_url',
        'match',
        'name',
        'score',
        'title',
        'type',
        'url',
      ].sort(),
    );
  });

  it('calibrates match percentages: a real match is good, the closest hits of an unrelated query are weak', async () => {
    const good = await search(alice, 'nitrate in drinking water wells', 'semantic');
    expect(good.body.results[0]).toMatchObject({ id: ids['r-water'], match: 'good' });
    for (const mode of ['semantic', 'keyword', 'vector']) {
      const res = await search(alice, 'baroque opera sopranos singing arias', mode);
      expect(res.status).toBe(200);
      for (const hit of res.body.results) {
        expect(hit, mode).toMatchObject({ match: 'weak' });
        expect(hit.score, mode).toBeLessThan(0.3);
      }
    }
  });

  it('finds a document by meaning (no shared keyword needed) in semantic and vector modes', async () => {
    for (const mode of ['semantic', 'vector']) {
      const res = await search(alice, 'tired doctors make more mistakes', mode);
      expect(res.status).toBe(200);
      expect(res.body.results[0]?.id, mode).toBe(ids['p-sleep']);
    }
  });

  it('filters by type: no inventory item asked for, none given; documents only', async () => {
    const items = await search(alice, 'water', 'hybrid', { types: ['inventory_item'] });
    expect(items.status).toBe(200);
    expect(items.body.results).toEqual([]);
    const docs = await search(alice, 'water', 'hybrid', { types: ['document'] });
    expect(docs.body.results.every((h) => h.type === 'document')).toBe(true);
  });
});

describe('POST /api/documents/search', () => {
  it('answers with the best-matching passage as excerpt, taken from the document text', async () => {
    const res = await api<{
      results: Array<{ id: string; title: string; summary: string; excerpt: string }>;
    }>('POST', '/api/documents/search', alice, { query: 'coffee for commuters at train stations' });
    expect(res.status).toBe(200);
    const top = res.body.results[0]!;
    expect(top.id).toBe(ids['b-coffee']);
    expect(top.excerpt.length).toBeGreaterThan(20);
    expect(doc('b-coffee').text.replace(/\s+/g, ' ')).toContain(top.excerpt.replace(/\s+/g, ' ').trim());
    expect(Object.keys(top).sort()).toEqual(['excerpt', 'id', 'match', 'score', 'summary', 'title', 'url']);
  });
});

describe('related, duplicates and neighbours', () => {
  it('related: vector neighbours of a document, never itself', async () => {
    const res = await api<{ results: Hit[] }>(
      'GET',
      `/api/search/related?type=document&id=${ids['p-soil']}`,
      alice,
    );
    expect(res.status).toBe(200);
    const found = res.body.results.map((h) => h.id);
    expect(found).not.toContain(ids['p-soil']);
    expect(found[0]).toBe(ids['p-soil-copy']);
  });

  it('duplicates: the identical copy, at similarity ≥ 0.95', async () => {
    const res = await api<{ results: Hit[] }>(
      'GET',
      `/api/search/duplicates?type=document&id=${ids['p-soil']}`,
      alice,
    );
    expect(res.status).toBe(200);
    expect(res.body.results.map((h) => h.id)).toEqual([ids['p-soil-copy']]);
    expect(res.body.results[0]!.score).toBeGreaterThanOrEqual(0.95);
  });

  it('neighbours: undirected similarity edges among the given documents', async () => {
    const res = await api<{ edges: Array<{ source: string; target: string; similarity: number }> }>(
      'POST',
      '/api/search/neighbours',
      alice,
      { ids: Object.values(ids), k: 2, min_similarity: 0.9 },
    );
    expect(res.status).toBe(200);
    expect(res.body.edges).toHaveLength(1);
    expect([res.body.edges[0]!.source, res.body.edges[0]!.target].sort()).toEqual(
      [ids['p-soil'], ids['p-soil-copy']].sort(),
    );
  });
});

describe('isolation: Alice and Bob hold identical files', () => {
  const theirs = () => new Set(Object.values(bobIds));
  const mine = () => new Set(Object.values(ids));

  it('no search mode ever returns the other user’s entities', async () => {
    for (const mode of ['keyword', 'semantic', 'hybrid', 'vector']) {
      for (const query of ['soil carbon cover crops', 'sleep deprivation residents', 'nitrate wells']) {
        const a = await search(alice, query, mode, { limit: 100 });
        const b = await search(bob, query, mode, { limit: 100 });
        expect(
          a.body.results.filter((h) => theirs().has(h.id)),
          `alice ${mode} ${query}`,
        ).toEqual([]);
        expect(
          b.body.results.filter((h) => mine().has(h.id)),
          `bob ${mode} ${query}`,
        ).toEqual([]);
        expect(b.body.results.every((h) => theirs().has(h.id))).toBe(true);
      }
    }
    const docs = await api<{ results: Array<{ id: string; excerpt: string }> }>(
      'POST',
      '/api/documents/search',
      bob,
      {
        query: 'maize plots carbon',
        limit: 100,
      },
    );
    expect(docs.body.results.length).toBeGreaterThan(0);
    expect(docs.body.results.every((r) => theirs().has(r.id))).toBe(true);
  });

  it('the counts match each user’s own library', async () => {
    const a = await search(alice, 'the', 'vector', { limit: 100 });
    const b = await search(bob, 'the', 'vector', { limit: 100 });
    expect(a.body.results).toHaveLength(Object.keys(ids).length);
    expect(b.body.results).toHaveLength(Object.keys(bobIds).length);
  });

  it('related, duplicates and neighbours never cross users; another user’s id is a 404 like a missing one', async () => {
    for (const path of ['related', 'duplicates']) {
      const own = await api<{ results: Hit[] }>(
        'GET',
        `/api/search/${path}?type=document&id=${bobIds['p-soil']}`,
        bob,
      );
      expect(own.status).toBe(200);
      expect(own.body.results.every((h) => theirs().has(h.id))).toBe(true);
      const cross = await api('GET', `/api/search/${path}?type=document&id=${bobIds['p-soil']}`, alice);
      const missing = await api('GET', `/api/search/${path}?type=document&id=${randomUUID()}`, alice);
      expect(cross.status).toBe(404);
      expect(cross.body).toMatchObject({ message: missing.body.message });
    }
    const edges = await api<{ edges: Array<{ source: string; target: string }> }>(
      'POST',
      '/api/search/neighbours',
      alice,
      { ids: [...Object.values(ids), ...Object.values(bobIds)], k: 5, min_similarity: 0 },
    );
    const touched = edges.body.edges.flatMap((e) => [e.source, e.target]);
    expect(touched.length).toBeGreaterThan(0);
    expect(touched.every((id) => mine().has(id))).toBe(true);
  });
});

describe('edits and deletes', () => {
  it('re-indexes an edited title: found by the new title', async () => {
    const title = `Zanzibar clove ledger ${randomUUID().slice(0, 8)}`;
    const patch = await api('PATCH', `/api/documents/${ids['b-coffee']}`, alice, { title });
    expect(patch.status).toBe(200);
    await expect
      .poll(async () => (await search(alice, 'Zanzibar clove')).body.results.map((h) => [h.id, h.title]), {
        timeout: 30_000,
      })
      .toContainEqual([ids['b-coffee'], title]);
  });

  it('a deleted document disappears from every result', async () => {
    const del = await api('DELETE', `/api/documents/${ids['r-water']}`, alice);
    expect(del.status).toBe(204);
    await expect
      .poll(async () => (await search(alice, 'nitrate', 'hybrid')).body.results.map((h) => h.id), {
        timeout: 30_000,
      })
      .not.toContain(ids['r-water']);
    expect((await api('GET', `/api/search/related?type=document&id=${ids['r-water']}`, alice)).status).toBe(
      404,
    );
    // Bob's identical copy is untouched.
    expect((await search(bob, 'nitrate')).body.results.map((h) => h.id)).toContain(bobIds['r-water']);
  });
});

describe('bad input: a clear 400 or a sane clamp, never a 500', () => {
  const cases: Array<[string, unknown, number, string | RegExp]> = [
    ['an empty query', { query: '' }, 400, 'Search query is required'],
    ['a whitespace query', { query: '  \n\t ' }, 400, 'Search query is required'],
    ['a 10 kB query', { query: 'q'.repeat(10_240) }, 400, 'Search query is too long (max 1000 characters)'],
    ['an array query', { query: ['soil'] }, 400, 'Search query must be text'],
    [
      'an unknown search_type',
      { query: 'soil', search_type: 'psychic' },
      400,
      /use semantic, keyword, hybrid or vector/,
    ],
    ['a word as limit', { query: 'soil', limit: 'many' }, 400, 'limit must be a number'],
    ['an unknown type', { query: 'soil', types: ['kaboodle'] }, 400, /Unknown type "kaboodle"/],
    ['an array category', { query: 'soil', category: ['x'] }, 400, 'category must be text'],
  ];
  it.each(cases)('%s → %i', async (_label, body, status, message) => {
    const res = await api('POST', '/api/search', alice, body);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });

  it('metacharacters, unicode, emoji and extreme limits answer 200 in every mode', async () => {
    const queries = [
      'title:(soil OR "carbon")~ AND NOT * ? \\',
      "' OR 1=1; DROP TABLE entities; --",
      '^(a+)+$ [[:alpha:]] .*',
      'café naïve 東京 Ελληνικά',
      '🌱🔥☕',
    ];
    for (const query of queries) {
      for (const mode of ['keyword', 'semantic', 'vector']) {
        for (const limit of [-5, 0, 100_000]) {
          const res = await search(alice, query, mode, { limit });
          expect(res.status, `${mode} ${query} ${limit}`).toBe(200);
          expect(res.body.results.length).toBeLessThanOrEqual(100);
        }
      }
    }
    expect((await api('POST', '/api/search', alice, '{"query": "soil"')).status).toBe(400);
  });

  it('related, duplicates and neighbours validate their input', async () => {
    expect((await api('GET', '/api/search/related?type=document', alice)).status).toBe(400);
    expect((await api('GET', '/api/search/related?type=nope&id=x', alice)).status).toBe(400);
    expect((await api('GET', '/api/search/duplicates?type=document&id=x&id=y', alice)).status).toBe(400);
    const many = await api('POST', '/api/search/neighbours', alice, {
      ids: Array.from({ length: 501 }, (_, i) => `d${i}`),
    });
    expect(many.status).toBe(400);
    expect(many.body.message).toBe('ids takes at most 500 document ids, got 501');
  });

  it('needs a signed-in user', async () => {
    expect((await search('not-a-token', 'soil')).status).toBe(401);
    expect((await api('POST', '/api/search', undefined, { query: 'soil' })).status).toBe(401);
  });
});

describe('admin rebuild', () => {
  it('refuses a non-admin with the spec’s 403 text', async () => {
    const res = await api('POST', '/api/search/admin/rebuild', alice);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Access denied. You may not have permission for this action.');
  });

  it('streams the catalogue into the index for an admin; everything is already there at that version', async () => {
    const started = await api('POST', '/api/search/admin/rebuild', admin);
    expect(started.status).toBe(202);
    await expect
      .poll(async () => (await api('GET', '/api/search/admin/rebuild', admin)).body, { timeout: 60_000 })
      .toMatchObject({ running: false, error: null });
    const report = (
      await api<{ read: number; applied: number; stale: number; removed: number }>(
        'GET',
        '/api/search/admin/rebuild',
        admin,
      )
    ).body;
    // Alice's 5 minus the deleted one, and Bob's 3.
    expect(report.read).toBe(7);
    expect(report.applied).toBe(0);
    expect(report.stale).toBe(7);
    // The index holds nothing the catalogue lacks: the rebuild prunes nothing.
    expect(report.removed).toBe(0);
  });
});
