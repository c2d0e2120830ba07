// Catalogue API suite (catalogue-suite.ts), inventory items, /api/stats and /api/activity.
import { describe, expect, it } from 'vitest';
import { solidPng } from './catalogue-client.ts';
import type { CatalogueSuite, Item, ErrorBody } from './catalogue-suite-state.ts';

export function inventoryAndStatsTests(s: CatalogueSuite): void {
  const { api, get, texts } = s;

  describe('inventory', () => {
    it('lists, searches, reads and corrects the item made from a photo, and serves the photo inline', async () => {
      const list = await get<Item[]>(s.alice, '/api/inventory');
      expect(list.headers.get('x-total-count')).toBe('1');
      expect(list.body[0]).toMatchObject({ id: s.item, image_url: `/api/inventory/${s.item}/image` });
      const patched = await api.request<Item>('PATCH', `/api/inventory/${s.item}`, s.alice, {
        name: 'Cobalt Bowl',
        category: 'Bowls',
        material: 'stoneware',
        retail_price: 24.5,
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'Cobalt Bowl', retail_price: 24.5 });
      expect(patched.body.corrected_fields.sort()).toEqual(['category', 'material', 'name', 'retail_price']);
      expect(
        (await get<Item[]>(s.alice, '/api/inventory/search?query=STONEWARE')).body.map((i) => i.id),
      ).toEqual([s.item]);
      expect(
        (await get<Item[]>(s.alice, '/api/inventory/search?category=Bowls')).body.map((i) => i.id),
      ).toEqual([s.item]);
      expect(
        (await get<Item[]>(s.alice, '/api/inventory/search?query=stoneware&category=Fans')).body,
      ).toEqual([]);
      const bad = await api.request<ErrorBody>('PATCH', `/api/inventory/${s.item}`, s.alice, {
        retail_price: -3,
      });
      expect([bad.status, bad.body.message]).toEqual([
        400,
        'retail_price must be an amount from 0 to 1000000000, or null',
      ]);
      const detail = await get<Item>(s.alice, `/api/inventory/${s.item}`);
      expect(detail.body.name).toBe('Cobalt Bowl');
      const img = await get(s.alice, `/api/inventory/${s.item}/image`);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/png');
      expect(img.headers.get('content-disposition')).toMatch(/^inline; filename="blue bowl.png"$/);
      expect(img.headers.get('x-content-type-options')).toBe('nosniff');
      expect(img.bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
    });
  });

  describe('stats and activity', () => {
    it('counts the user files, documents, items and stored bytes', async () => {
      const res = await get<Record<string, number | null>>(s.alice, '/api/stats');
      expect(res.body).toMatchObject({
        documents_processed: 3,
        inventory_items: 1,
        files_completed: 4,
        files_failed: 0,
        files_total: 4,
        processing_efficiency: 1,
      });
      expect(res.body.storage_bytes).toBe(
        texts.reduce((n, t) => n + Buffer.byteLength(t), 0) + solidPng(96, 96, [20, 40, 200]).length,
      );
    });

    it('lists recent activity newest first, limited', async () => {
      const res = await get<{
        activity: { type: string; message: string; file_name: string; at: string }[];
      }>(s.alice, '/api/activity?limit=50');
      const types = res.body.activity.map((a) => a.type);
      expect(types.filter((t) => t === 'uploaded')).toHaveLength(4);
      expect(types.filter((t) => t === 'processed')).toHaveLength(4);
      expect(types).toContain('edited');
      const at = res.body.activity.map((a) => Date.parse(a.at));
      expect([...at].sort((a, b) => b - a)).toEqual(at);
      expect(
        (await get<{ activity: unknown[] }>(s.alice, '/api/activity?limit=2')).body.activity,
      ).toHaveLength(2);
      const bad = await get<ErrorBody>(s.alice, '/api/activity?limit=500');
      expect([bad.status, bad.body.message]).toEqual([400, 'limit must be a whole number from 1 to 100']);
    });
  });
}
