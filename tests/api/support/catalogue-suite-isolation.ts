// Catalogue API suite (catalogue-suite.ts), isolation: bob, with identical content, never sees alice's
// data through any route.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAuthClient } from './auth-client.ts';
import { parseCsv } from './catalogue-suite-state.ts';
import type { CatalogueSuite, Doc, Item, ErrorBody } from './catalogue-suite-state.ts';

export function isolationTests(s: CatalogueSuite): void {
  const { api, get, tag } = s;

  describe('isolation: bob, with identical content, never sees alice', () => {
    it('bob has his own document from the same bytes, and only his', async () => {
      const list = await get<Doc[]>(s.bob, '/api/documents');
      expect(list.body.map((d) => d.id)).toEqual([s.bobDoc]);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect(s.bobDoc).not.toBe(s.docs[0]);
    });

    it('answers 404 for every route on alice ids, and changes nothing', async () => {
      const notFound: [string, string, unknown?][] = [];
      for (const id of s.docs) {
        notFound.push(
          ['GET', `/api/documents/${id}`],
          ['PATCH', `/api/documents/${id}`, { title: 'mine now' }],
          ['PATCH', `/api/documents/${id}`, { bogus: 1 }],
          ['DELETE', `/api/documents/${id}`],
          ['GET', `/api/documents/${id}/file`],
        );
      }
      notFound.push(
        ['GET', `/api/inventory/${s.item}`],
        ['PATCH', `/api/inventory/${s.item}`, { name: 'mine' }],
        ['GET', `/api/inventory/${s.item}/image`],
      );
      for (const [method, path, body] of notFound) {
        const res = await api.request<ErrorBody>(method, path, s.bob, body);
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
        expect(res.body.message).toMatch(/^(Document|Inventory item) not found$/);
      }
      const after = await get<Doc[]>(s.alice, '/api/documents');
      expect(after.body).toHaveLength(3);
      expect(after.body.map((d) => d.title)).not.toContain('mine now');
    });

    it('gives bob nothing of alice in lists, search, categories, export, stats and activity', async () => {
      expect((await get<Doc[]>(s.bob, '/api/documents/search?query=zed%20author')).body).toEqual([]);
      expect((await get<Doc[]>(s.bob, '/api/documents?category=Crafts')).body).toEqual([]);
      expect((await get<Doc[]>(s.bob, '/api/documents?hashtag=glass-beads')).body).toEqual([]);
      const cats = (await get<{ categories: { name: string }[] }>(s.bob, '/api/documents/categories')).body
        .categories;
      expect(cats.map((c) => c.name)).not.toContain('Crafts');
      const csv = await get(s.bob, '/api/documents/export?format=csv');
      expect(
        parseCsv(csv.text)
          .slice(1)
          .map((r) => r[0]),
      ).toEqual([s.bobDoc]);
      const json = await get(s.bob, `/api/documents/export?format=json&query=${tag}`);
      expect(JSON.parse(json.text).map((d: Doc) => d.id)).toEqual([s.bobDoc]);
      expect((await get<Item[]>(s.bob, '/api/inventory')).body).toEqual([]);
      expect((await get<Item[]>(s.bob, '/api/inventory/search?query=cobalt')).body).toEqual([]);
      expect((await get<Record<string, unknown>>(s.bob, '/api/stats')).body).toMatchObject({
        documents_processed: 1,
        inventory_items: 0,
        files_total: 1,
      });
      const activity = (await get<{ activity: { file_id: string }[] }>(s.bob, '/api/activity')).body.activity;
      expect(activity.every((a) => a.file_id === s.bobDoc)).toBe(true);
    });

    it('requires a signed-in user on every route', async () => {
      for (const path of [
        '/api/documents',
        '/api/documents/search?query=a',
        '/api/documents/categories',
        '/api/documents/export',
        `/api/documents/${s.docs[0]}`,
        `/api/documents/${s.docs[0]}/file`,
        '/api/inventory',
        `/api/inventory/${s.item}/image`,
        '/api/stats',
        '/api/activity',
      ]) {
        const res = await api.request<ErrorBody>('GET', path, undefined);
        expect({ path, status: res.status }).toEqual({ path, status: 401 });
      }
    });

    it('serves a browser session (cookie) and refuses its edits without the CSRF token', async () => {
      const browser = createAuthClient(s.app.url);
      const email = `browser-${randomUUID()}@example.com`;
      const reg = await browser.request('POST', '/api/auth/register', {
        body: { email, password: 'a long enough passphrase', name: 'Browser' },
      });
      expect(reg.status).toBe(201);
      const list = await browser.request<unknown[]>('GET', '/api/documents');
      expect([list.status, list.body]).toEqual([200, []]);
      const forged = await browser.request<ErrorBody>('PATCH', `/api/documents/${s.docs[0]}`, {
        body: { title: 'x' },
        csrf: false,
      });
      expect(forged.status).toBe(403);
      // with the token, another user's document is still just missing
      const withToken = await browser.request<ErrorBody>('PATCH', `/api/documents/${s.docs[0]}`, {
        body: { title: 'x' },
      });
      expect(withToken.status).toBe(404);
    });

    it('treats malformed ids as missing', async () => {
      for (const id of ['not-a-uuid', "1' OR '1'='1", '00000000-0000-0000-0000-000000000000']) {
        const res = await get<ErrorBody>(s.alice, `/api/documents/${encodeURIComponent(id)}`);
        expect([res.status, res.body.message]).toEqual([404, 'Document not found']);
      }
    });
  });
}
