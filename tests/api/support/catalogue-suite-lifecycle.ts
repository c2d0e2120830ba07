// Catalogue API suite (catalogue-suite.ts), reprocess and delete (last: they change what the other
// themes count).
import { describe, expect, it } from 'vitest';
import type { CatalogueSuite, Doc } from './catalogue-suite-state.ts';

export function reprocessAndDeleteTests(s: CatalogueSuite): void {
  const { api, get, texts } = s;

  describe('reprocess and delete', () => {
    it('a reprocessed file replaces its document in place and keeps the user corrections', async () => {
      const before = (await get<Doc>(s.alice, `/api/documents/${s.docs[0]}`)).body;
      const re = await api.request<{ status: string }>(
        'POST',
        `/process/files/${s.docs[0]}/reprocess`,
        s.alice,
        {},
      );
      expect(re.status).toBe(202);
      await expect
        .poll(async () => (await get<Doc>(s.alice, `/api/documents/${s.docs[0]}`)).body.version, {
          timeout: 90_000,
          interval: 300,
        })
        .toBeGreaterThan(before.version);
      const after = (await get<Doc>(s.alice, `/api/documents/${s.docs[0]}`)).body;
      expect(after).toMatchObject({
        id: s.docs[0],
        title: 'alpha',
        author: 'Zed Author',
        publication_year: 2001,
      });
      expect((await get<Doc[]>(s.alice, '/api/documents')).headers.get('x-total-count')).toBe('3');
    });

    it('DELETE /api/documents/:id removes the document only (204), then 404', async () => {
      const del = await api.request('DELETE', `/api/documents/${s.docs[1]}`, s.alice);
      expect(del.status).toBe(204);
      expect((await get(s.alice, `/api/documents/${s.docs[1]}`)).status).toBe(404);
      expect((await api.request('DELETE', `/api/documents/${s.docs[1]}`, s.alice)).status).toBe(404);
      expect((await get(s.alice, `/process/status/${s.docs[1]}`)).status).toBe(200);
      const last = (
        await get<{ activity: { type: string; message: string }[] }>(s.alice, '/api/activity?limit=1')
      ).body.activity[0];
      expect(last).toMatchObject({ type: 'deleted', message: 'Deleted the document "Beta"' });
    });

    it('deleting the uploaded file deletes the document made from it and its storage from the stats', async () => {
      const before = (await get<{ storage_bytes: number; files_total: number }>(s.alice, '/api/stats')).body;
      const del = await api.request('DELETE', `/process/files/${s.docs[2]}`, s.alice);
      expect(del.status).toBe(200);
      await expect
        .poll(async () => (await get(s.alice, `/api/documents/${s.docs[2]}`)).status, { timeout: 30_000 })
        .toBe(404);
      await expect
        .poll(async () => (await get<{ files_total: number }>(s.alice, '/api/stats')).body.files_total, {
          timeout: 30_000,
        })
        .toBe(before.files_total - 1);
      const stats = (await get<{ storage_bytes: number }>(s.alice, '/api/stats')).body;
      expect(stats.storage_bytes).toBe(before.storage_bytes - Buffer.byteLength(texts[2]!));
    });
  });
}
