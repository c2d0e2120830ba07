// Kaboodles and insights over real HTTP against `kaboodle --target=all` on embedded engines: files go
// through the real pipeline, then kaboodles are made, filled in batches, reordered, annotated,
// exported, made smart, and reviewed for near-duplicates. A second user never reaches any of it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import { createCatalogueClient, solidPng } from './support/catalogue-client.ts';

interface Member {
  type: string;
  id: string;
  title: string;
  note: string;
  position: number;
  link: string;
  image_url: string | null;
  score?: number;
}
interface Kaboodle {
  id: string;
  name: string;
  description: string;
  member_count: number;
  document_count: number;
  item_count: number;
  cover: { type: string; id: string; image_url: string | null; excerpt: string } | null;
  smart: null | { query: string };
  version: number;
  members: Member[];
}
interface ErrorBody {
  message: string;
  code: string;
  details?: { missing?: { type: string; id: string }[] };
}

describe('kaboodles and insights API', () => {
  const data = tempDataDir('kaboodle-kaboodles-');
  let app: KaboodleProcess;
  const api = createCatalogueClient(() => app.url);
  let alice: string;
  let bob: string;
  const word = `zq${randomUUID().slice(0, 6)}`; // a word only these texts contain
  let docs: string[] = [];
  let item: string;
  let bobDoc: string;
  const texts = [
    `Ledger of the Bead Cooperative\nby Ines Duarte\n\nA record of ${word} glass beads traded along the coast in 2024.`,
    `Notes on Stool Joinery\nby Kwame Mensah\n\nMortise and tenon joints for three-legged stools, tested for load.`,
    `Fan Weaving Patterns\nby Ana Ruiz\n\nPalm-leaf fans woven in twill; ${word} patterns change the airflow.`,
  ];

  async function uploadText(token: string, text: string, name: string, force = false): Promise<string> {
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
    expect(res.status).toBe(202);
    return body.id;
  }

  beforeAll(async () => {
    app = await startKaboodleProcess({
      target: 'all',
      env: { KABOODLE_DATA_DIR: data.dir, DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' },
    });
    [alice, bob] = await Promise.all([api.register('alice'), api.register('bob')]);
    docs = [];
    for (const [i, t] of texts.entries()) docs.push(await uploadText(alice, t, `note-${i}.txt`));
    item = await api.upload(
      alice,
      { bytes: solidPng(96, 96, [200, 40, 20]), name: 'red bowl.png', type: 'image/png' },
      'inventory',
    );
    bobDoc = await uploadText(bob, texts[0]!, 'note-0.txt');
    for (const id of [...docs, item]) expect((await api.settled(alice, id)).status).toBe('completed');
    expect((await api.settled(bob, bobDoc)).status).toBe('completed');
  });
  afterAll(async () => {
    await app?.stop();
    data.remove();
  });

  const req = <T>(token: string, method: string, path: string, body?: unknown) =>
    api.request<T>(method, path, token, body);
  const ref = (type: string, id: string) => ({ type, id });

  /** Wait until the search index holds what the catalogue stored (it follows through events). */
  async function untilSearchFinds(token: string, query: string, ids: string[]) {
    const until = Date.now() + 30_000;
    for (;;) {
      const res = await req<{ results: { id: string }[] }>(token, 'POST', '/api/search', {
        query,
        search_type: 'keyword',
      });
      if (ids.every((id) => res.body.results.some((r) => r.id === id))) return;
      if (Date.now() > until) throw new Error(`search did not find ${ids.join(', ')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  describe('plain kaboodles', () => {
    let fair: Kaboodle;

    it('creates a kaboodle with its first members, in the order given, with an item picture as cover', async () => {
      const res = await req<Kaboodle>(alice, 'POST', '/api/kaboodles', {
        name: '  Summer fair  ',
        description: 'What goes to the July stall',
        members: [ref('document', docs[0]!), ref('inventory_item', item), ref('document', docs[1]!)],
      });
      expect(res.status).toBe(201);
      fair = res.body;
      expect(fair).toMatchObject({
        name: 'Summer fair',
        description: 'What goes to the July stall',
        member_count: 3,
        document_count: 2,
        item_count: 1,
        smart: null,
      });
      expect(fair.members.map((m) => m.id)).toEqual([docs[0], item, docs[1]]);
      expect(fair.cover).toMatchObject({
        type: 'inventory_item',
        id: item,
        image_url: `/api/inventory/${item}/image`,
      });
      expect(fair.members[0]).toMatchObject({ link: `/documents?open=${docs[0]}`, image_url: null });
      expect(fair.members[0]!.title).toContain('Ledger');
    });

    it('refuses a blank, long or already used name with the reason', async () => {
      const blank = await req<ErrorBody>(alice, 'POST', '/api/kaboodles', { name: '   ' });
      expect(blank.status).toBe(400);
      expect(blank.body.message).toBe('Kaboodle name is required');
      const missing = await req<ErrorBody>(alice, 'POST', '/api/kaboodles', {});
      expect(missing.body.message).toBe('Kaboodle name is required');
      const long = await req<ErrorBody>(alice, 'POST', '/api/kaboodles', { name: 'x'.repeat(101) });
      expect(long.body.message).toBe('Kaboodle name is limited to 100 characters');
      const taken = await req<ErrorBody>(alice, 'POST', '/api/kaboodles', { name: 'SUMMER FAIR' });
      expect(taken.status).toBe(409);
      expect(taken.body.message).toBe('You already have a kaboodle named "SUMMER FAIR"');
    });

    it('lists cards with counts and the last change, newest first', async () => {
      const other = await req<Kaboodle>(alice, 'POST', '/api/kaboodles', { name: 'Empty one' });
      const res = await req<{ kaboodles: Kaboodle[] }>(alice, 'GET', '/api/kaboodles');
      expect(res.status).toBe(200);
      expect(res.body.kaboodles.map((k) => k.name)).toEqual(['Empty one', 'Summer fair']);
      expect(res.body.kaboodles[0]).toMatchObject({ member_count: 0, cover: null });
      expect(res.body.kaboodles[1]).toMatchObject({ member_count: 3, item_count: 1 });
      expect(res.body.kaboodles[1]).not.toHaveProperty('members');
      expect((await req(alice, 'DELETE', `/api/kaboodles/${other.body.id}`)).status).toBe(204);
    });

    it('adds a batch (those already there are counted, not doubled) and says so in Recent Activity', async () => {
      const res = await req<{ added: number; already: number; kaboodle: Kaboodle }>(
        alice,
        'POST',
        `/api/kaboodles/${fair.id}/members`,
        { members: [ref('document', docs[2]!), ref('document', docs[0]!)] },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ added: 1, already: 1 });
      expect(res.body.kaboodle.members.map((m) => m.id)).toEqual([docs[0], item, docs[1], docs[2]]);
      expect(res.body.kaboodle.version).toBeGreaterThan(fair.version);
      const activity = await req<{ activity: { type: string; message: string }[] }>(
        alice,
        'GET',
        '/api/activity',
      );
      expect(activity.body.activity[0]).toMatchObject({
        type: 'added',
        message: 'Added 1 document to the kaboodle "Summer fair"',
      });
    });

    it('reorders by a full list, and refuses a list that is not every member once', async () => {
      const order = [
        ref('document', docs[2]!),
        ref('document', docs[0]!),
        ref('inventory_item', item),
        ref('document', docs[1]!),
      ];
      const res = await req<Kaboodle>(alice, 'PUT', `/api/kaboodles/${fair.id}/order`, { members: order });
      expect(res.status).toBe(200);
      expect(res.body.members.map((m) => m.id)).toEqual(order.map((o) => o.id));
      const partial = await req<ErrorBody>(alice, 'PUT', `/api/kaboodles/${fair.id}/order`, {
        members: order.slice(1),
      });
      expect(partial.status).toBe(409);
      expect(
        (await req<Kaboodle>(alice, 'GET', `/api/kaboodles/${fair.id}`)).body.members.map((m) => m.id),
      ).toEqual(order.map((o) => o.id));
    });

    it('renames, describes, notes a member and chooses the cover', async () => {
      const renamed = await req<Kaboodle>(alice, 'PATCH', `/api/kaboodles/${fair.id}`, {
        name: 'Summer fair 2026',
        description: '',
        cover: ref('document', docs[0]!),
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Summer fair 2026', description: '' });
      expect(renamed.body.cover).toMatchObject({ type: 'document', id: docs[0], image_url: null });
      expect(renamed.body.cover!.excerpt).toContain('Bead Cooperative');
      const unknown = await req<ErrorBody>(alice, 'PATCH', `/api/kaboodles/${fair.id}`, { owner: 'me' });
      expect(unknown.status).toBe(400);
      const noted = await req<Kaboodle>(
        alice,
        'PUT',
        `/api/kaboodles/${fair.id}/members/document/${docs[1]}/note`,
        {
          note: '=HYPERLINK("http://x") bring two',
        },
      );
      expect(noted.status).toBe(200);
      expect(noted.body.members.find((m) => m.id === docs[1])!.note).toBe('=HYPERLINK("http://x") bring two');
    });

    it('exports CSV in the kaboodle order, JSON with full records, and BibTeX of its documents', async () => {
      const csv = await req(alice, 'GET', `/api/kaboodles/${fair.id}/export?format=csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toBe(
        'attachment; filename=kaboodle-summer-fair-2026.csv',
      );
      const lines = csv.text.trim().split('\r\n');
      expect(lines[0]).toBe(
        'position,type,id,title,author_or_material,category,year,summary,hashtags,retail_price,note,added_at,file_name',
      );
      expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual([docs[2], docs[0], item, docs[1]]);
      expect(csv.text).toContain(`"'=HYPERLINK(""http://x"") bring two"`);

      const json = await req<string>(alice, 'GET', `/api/kaboodles/${fair.id}/export?format=json`);
      expect(json.headers.get('content-disposition')).toContain('kaboodle-summer-fair-2026.json');
      const parsed = JSON.parse(json.text) as {
        kaboodle: { name: string };
        members: { id: string; record: { title?: string; name?: string; image_url?: string } }[];
      };
      expect(parsed.kaboodle.name).toBe('Summer fair 2026');
      expect(parsed.members.map((m) => m.id)).toEqual([docs[2], docs[0], item, docs[1]]);
      expect(parsed.members[2]!.record.image_url).toBe(`/api/inventory/${item}/image`);

      const bib = await req(alice, 'GET', `/api/kaboodles/${fair.id}/export?format=bibtex`);
      expect(bib.headers.get('content-type')).toBe('application/x-bibtex; charset=utf-8');
      const entries = bib.text.match(/^@\w+\{/gm) ?? [];
      expect(entries).toHaveLength(3); // the item has no citation
      expect(bib.text).toMatch(/title = \{Ledger of the Bead Cooperative\}/);
      const bad = await req<ErrorBody>(alice, 'GET', `/api/kaboodles/${fair.id}/export?format=xls`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('format must be csv, json or bibtex');
    });

    it('removes members in a batch; a deleted document leaves the kaboodle by itself', async () => {
      const res = await req<{ removed: number; kaboodle: Kaboodle }>(
        alice,
        'POST',
        `/api/kaboodles/${fair.id}/members/remove`,
        {
          members: [ref('document', docs[2]!)],
        },
      );
      expect(res.body.removed).toBe(1);
      expect(res.body.kaboodle.members.map((m) => m.id)).toEqual([docs[0], item, docs[1]]);
      expect((await req(alice, 'DELETE', `/api/documents/${docs[1]}`)).status).toBe(204);
      const after = await req<Kaboodle>(alice, 'GET', `/api/kaboodles/${fair.id}`);
      expect(after.body.members.map((m) => m.id)).toEqual([docs[0], item]);
      const containing = await req<{ kaboodles: { name: string }[] }>(
        alice,
        'GET',
        `/api/kaboodles/containing?type=inventory_item&id=${item}`,
      );
      expect(containing.body.kaboodles.map((k) => k.name)).toEqual(['Summer fair 2026']);
    });

    it('another user reaches none of it: 404 like a missing kaboodle, and cannot add what is not theirs', async () => {
      const missing = await req<ErrorBody>(bob, 'GET', `/api/kaboodles/${randomUUID()}`);
      expect(missing.status).toBe(404);
      for (const [method, path, body] of [
        ['GET', `/api/kaboodles/${fair.id}`, undefined],
        ['PATCH', `/api/kaboodles/${fair.id}`, { name: 'Mine now' }],
        ['DELETE', `/api/kaboodles/${fair.id}`, undefined],
        ['POST', `/api/kaboodles/${fair.id}/members`, { members: [ref('document', bobDoc)] }],
        ['POST', `/api/kaboodles/${fair.id}/members/remove`, { members: [ref('document', docs[0]!)] }],
        ['PUT', `/api/kaboodles/${fair.id}/order`, { members: [] }],
        ['GET', `/api/kaboodles/${fair.id}/export?format=json`, undefined],
      ] as const) {
        const res = await req<ErrorBody>(bob, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.message).toBe(missing.body.message);
      }
      expect((await req<ErrorBody>(bob, 'GET', '/api/kaboodles/not-an-id')).status).toBe(404);
      expect((await req<{ kaboodles: unknown[] }>(bob, 'GET', '/api/kaboodles')).body.kaboodles).toEqual([]);

      // bob's own kaboodle cannot take alice's document: all or nothing, the missing one named
      const own = await req<Kaboodle>(bob, 'POST', '/api/kaboodles', { name: 'Summer fair 2026' });
      expect(own.status).toBe(201); // names are per user
      const steal = await req<ErrorBody>(bob, 'POST', `/api/kaboodles/${own.body.id}/members`, {
        members: [ref('document', bobDoc), ref('document', docs[0]!)],
      });
      expect(steal.status).toBe(404);
      expect(steal.body.message).toBe(`Document not found: ${docs[0]}`);
      expect((await req<Kaboodle>(bob, 'GET', `/api/kaboodles/${own.body.id}`)).body.members).toEqual([]);
      const withSteal = await req<ErrorBody>(bob, 'POST', '/api/kaboodles', {
        name: 'Another',
        members: [ref('inventory_item', item)],
      });
      expect(withSteal.status).toBe(404);
      expect((await req<{ kaboodles: unknown[] }>(bob, 'GET', '/api/kaboodles')).body.kaboodles).toHaveLength(
        1,
      );
      // and alice's kaboodle is as it was
      expect((await req<Kaboodle>(alice, 'GET', `/api/kaboodles/${fair.id}`)).body.name).toBe(
        'Summer fair 2026',
      );
    });

    it('checks batches at the edge', async () => {
      const empty = await req<ErrorBody>(alice, 'POST', `/api/kaboodles/${fair.id}/members`, { members: [] });
      expect(empty.body.message).toBe('Choose at least one document or item');
      const badType = await req<ErrorBody>(alice, 'POST', `/api/kaboodles/${fair.id}/members`, {
        members: [{ type: 'kaboodle', id: randomUUID() }],
      });
      expect(badType.status).toBe(400);
      expect(badType.body.message).toBe('type must be document or inventory_item');
      const tooMany = await req<ErrorBody>(alice, 'POST', `/api/kaboodles/${fair.id}/members`, {
        members: Array.from({ length: 501 }, () => ref('document', randomUUID())),
      });
      expect(tooMany.body.message).toBe('Add or remove at most 500 documents and items at a time');
    });
  });

  describe('smart kaboodles', () => {
    it('holds whatever its search matches now, and follows the library as it changes', async () => {
      await untilSearchFinds(alice, word, [docs[0]!, docs[2]!]);
      const res = await req<Kaboodle>(alice, 'POST', '/api/kaboodles', {
        name: `About ${word}`,
        smart: { query: word, search_type: 'keyword' },
      });
      expect(res.status).toBe(201);
      expect(res.body.smart).toMatchObject({ query: word });
      expect(res.body.members.map((m) => m.id).sort()).toEqual([docs[0]!, docs[2]!].sort());
      expect(res.body.members[0]!.score).toBeGreaterThan(0);

      const added = await req<ErrorBody>(alice, 'POST', `/api/kaboodles/${res.body.id}/members`, {
        members: [ref('inventory_item', item)],
      });
      expect(added.status).toBe(409);

      const fresh = await uploadText(
        alice,
        `Rope Knots\nby Lia Chen\n\nSailors' ${word} knots, tied and tested.`,
        'knots.txt',
      );
      expect((await api.settled(alice, fresh)).status).toBe('completed');
      await untilSearchFinds(alice, word, [fresh]);
      const later = await req<Kaboodle>(alice, 'GET', `/api/kaboodles/${res.body.id}`);
      expect(later.body.members.map((m) => m.id)).toContain(fresh);
      const cards = await req<{ kaboodles: Kaboodle[] }>(alice, 'GET', '/api/kaboodles');
      expect(cards.body.kaboodles.find((k) => k.id === res.body.id)!.member_count).toBe(3);
      // bob's identical words find only bob's document
      const bobs = await req<Kaboodle>(bob, 'POST', '/api/kaboodles', {
        name: 'Mine',
        smart: { query: word, search_type: 'keyword' },
      });
      expect(bobs.body.members.map((m) => m.id)).toEqual([bobDoc]);
    });
  });

  describe('insights', () => {
    it('gives the observatory its counts, trends, recommendations and real diagnostics', async () => {
      const res = await req<{
        library: {
          documents: number;
          inventory_items: number;
          images: number;
          kaboodles: number;
          files_waiting: number;
        };
        trends: { period: string; buckets: string[]; hashtags: { key: string; counts: number[] }[] };
        recommendations: { available: boolean; items: { entity: { id: string }; because: { id: string } }[] };
        duplicates: { available: boolean };
        diagnostics: {
          processing: { processed_share: number | null; files_waiting: number };
          index: { entities: number; size_bytes: number } | null;
          memory: { rss_bytes: number; share: number };
        };
      }>(alice, 'GET', '/api/insights?period=week&periods=8');
      expect(res.status).toBe(200);
      expect(res.body.library).toMatchObject({
        documents: 3,
        inventory_items: 1,
        images: 1,
        files_waiting: 0,
      });
      expect(res.body.trends.buckets).toHaveLength(8);
      const total = res.body.trends.hashtags.reduce((n, s) => n + s.counts.reduce((a, b) => a + b, 0), 0);
      expect(total).toBeGreaterThan(0);
      expect(res.body.recommendations.available).toBe(true);
      expect(res.body.duplicates.available).toBe(true);
      expect(res.body.diagnostics.processing.processed_share).toBeGreaterThan(0);
      expect(res.body.diagnostics.index!.entities).toBe(4);
      expect(res.body.diagnostics.memory.rss_bytes).toBeGreaterThan(10_000_000);

      const bad = await req<ErrorBody>(alice, 'GET', '/api/insights?period=year');
      expect(bad.body.message).toBe('period must be week or month');
    });

    it('recommends neighbours of what is open, never what is in view, never another user’s', async () => {
      const res = await req<{
        available: boolean;
        items: { entity: { id: string; type: string }; because: { id: string } }[];
      }>(
        alice,
        'GET',
        `/api/insights/recommendations?context=document:${docs[0]}&exclude=document:${docs[2]}&limit=5`,
      );
      expect(res.status).toBe(200);
      const ids = res.body.items.map((r) => r.entity.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids).not.toContain(docs[0]);
      expect(ids).not.toContain(docs[2]);
      expect(ids).not.toContain(bobDoc);
      const bobs = await req<{ items: { entity: { id: string } }[] }>(
        bob,
        'GET',
        `/api/insights/recommendations?context=document:${docs[0]}`,
      );
      expect(bobs.body.items.map((r) => r.entity.id)).not.toEqual(expect.arrayContaining([docs[0]]));
      for (const r of bobs.body.items) expect(r.entity.id).toBe(bobDoc);
    });

    it('lists identical files for review; dismiss hides a pair, merge keeps one and moves its memberships', async () => {
      const text = `Twin Paper\nby Ada Twin\n\nExactly the same words ${randomUUID()}.`;
      const twinA = await uploadText(alice, text, 'twin.txt');
      expect((await api.settled(alice, twinA)).status).toBe('completed');
      const twinB = await uploadText(alice, text, 'twin-again.txt', true);
      expect((await api.settled(alice, twinB)).status).toBe('completed');
      const twinC = await uploadText(alice, text, 'twin-third.txt', true);
      expect((await api.settled(alice, twinC)).status).toBe('completed');

      type Pairs = { pairs: { a: { id: string }; b: { id: string }; reason: string; similarity: number }[] };
      const has = (p: Pairs, x: string, y: string) =>
        p.pairs.some((q) => (q.a.id === x && q.b.id === y) || (q.a.id === y && q.b.id === x));
      const list = await req<Pairs>(alice, 'GET', '/api/insights/duplicates');
      expect(has(list.body, twinA, twinB)).toBe(true);
      expect(list.body.pairs.find((p) => has({ pairs: [p] }, twinA, twinB))!.reason).toBe('identical_file');
      expect((await req<Pairs>(bob, 'GET', '/api/insights/duplicates')).body.pairs).toEqual([]);

      const dismissed = await req(alice, 'POST', '/api/insights/duplicates/dismiss', {
        a: ref('document', twinA),
        b: ref('document', twinC),
      });
      expect(dismissed.status).toBe(204);
      expect(has((await req<Pairs>(alice, 'GET', '/api/insights/duplicates')).body, twinA, twinC)).toBe(
        false,
      );

      const k = await req<Kaboodle>(alice, 'POST', '/api/kaboodles', {
        name: 'Twins',
        members: [ref('document', twinB)],
      });
      const bobMerge = await req(bob, 'POST', '/api/insights/duplicates/merge', {
        keep: ref('document', twinA),
        remove: ref('document', twinB),
      });
      expect(bobMerge.status).toBe(404);
      const merged = await req<{ removed_file_id: string }>(alice, 'POST', '/api/insights/duplicates/merge', {
        keep: ref('document', twinA),
        remove: ref('document', twinB),
      });
      expect(merged.status).toBe(200);
      expect(merged.body.removed_file_id).toBe(twinB);
      expect((await req(alice, 'GET', `/api/documents/${twinB}`)).status).toBe(404);
      expect(
        (await req<Kaboodle>(alice, 'GET', `/api/kaboodles/${k.body.id}`)).body.members.map((m) => m.id),
      ).toEqual([twinA]);
      const mixed = await req<ErrorBody>(alice, 'POST', '/api/insights/duplicates/merge', {
        keep: ref('document', twinA),
        remove: ref('inventory_item', item),
      });
      expect(mixed.body.message).toBe('Only two documents or two inventory items can be merged');
    });
  });

  it('every kaboodle and insights operation is in the OpenAPI document', async () => {
    const res = await fetch(new URL('/api/openapi.json', app.url));
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    for (const path of [
      '/api/kaboodles',
      '/api/kaboodles/{id}',
      '/api/kaboodles/{id}/members',
      '/api/kaboodles/{id}/members/remove',
      '/api/kaboodles/{id}/order',
      '/api/kaboodles/{id}/export',
      '/api/insights',
      '/api/insights/trends',
      '/api/insights/recommendations',
      '/api/insights/duplicates',
      '/api/insights/duplicates/merge',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
