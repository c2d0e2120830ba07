// SearchIndex contract, kaboodle memberships: members in order, search within members only (never
// across owners), version guards, the live list and deleteOwner.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { IndexedEntity, IndexedKaboodle } from '@kaboodle/search';
import type { ContractSuite } from './search-index-contract-suite.ts';

export function kaboodlesContract(s: ContractSuite): void {
  const { owner, vec, entity, q, ids, expectWellFormed } = s;

  describe('kaboodle memberships', () => {
    const kaboodle = (ownerId: string, over: Partial<IndexedKaboodle> = {}): IndexedKaboodle => ({
      ownerId,
      id: `k-${randomUUID().slice(0, 8)}`,
      version: 1,
      members: [],
      updatedAt: new Date('2026-01-02T00:00:00Z'),
      ...over,
    });
    const refs = (...es: IndexedEntity[]) => es.map((e) => ({ entityType: e.entityType, id: e.id }));

    it('keeps a kaboodle’s members in order and its saved search, and reads them back for the owner only', async () => {
      const o = owner();
      const [a, b] = [entity(o), entity(o, { entityType: 'inventory_item' })];
      const k = kaboodle(o, { members: refs(b, a), version: 7 });
      expect(await s.index().kaboodles.upsert([k])).toEqual({ applied: 1, stale: 0 });
      expect(await s.index().kaboodles.get(o, k.id)).toMatchObject({
        ownerId: o,
        id: k.id,
        version: 7,
        members: refs(b, a),
      });
      expect(await s.index().kaboodles.get(owner(), k.id)).toBeUndefined();
      expect(await s.index().kaboodles.get(o, 'no-such-kaboodle')).toBeUndefined();
      const smart = kaboodle(o, {
        smart: {
          query: 'quinces',
          searchType: 'keyword',
          entityTypes: ['document'],
          category: 'Recipes',
          kaboodleId: k.id,
        },
      });
      await s.index().kaboodles.upsert([smart]);
      expect((await s.index().kaboodles.get(o, smart.id))?.smart).toEqual(smart.smart);
      expect((await s.index().kaboodles.get(o, smart.id))?.members).toEqual([]);
    });

    it('searches only the listed members in every mode, and nothing for an empty list', async () => {
      const o = owner();
      const inside = entity(o, { title: 'walnut cabinet', vector: vec({ cleaning: 1, garden: 0.2 }) });
      const outside = entity(o, { title: 'walnut table', vector: vec({ cleaning: 1 }) });
      const item = entity(o, {
        entityType: 'inventory_item',
        title: 'walnut box',
        category: 'Wood',
        vector: vec({ cleaning: 1, garden: 0.1 }),
      });
      await s.index().upsert([inside, outside, item]);
      const only = refs(inside, item);
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        const hits = await s.index().search(q(o, mode, 'walnut', { vector: vec({ cleaning: 1 }), only }));
        expect(ids(hits).sort(), mode).toEqual([inside.id, item.id].sort());
        expectWellFormed(hits);
        expect(
          await s.index().search(q(o, mode, 'walnut', { vector: vec({ cleaning: 1 }), only: [] })),
        ).toEqual([]);
      }
      // with the other filters too
      const typed = await s
        .index()
        .search(q(o, 'keyword', 'walnut', { only, entityTypes: ['inventory_item'] }));
      expect(ids(typed)).toEqual([item.id]);
      const categorised = await s.index().search(q(o, 'keyword', 'walnut', { only, category: 'Wood' }));
      expect(ids(categorised)).toEqual([item.id]);
    });

    it('never lets a member list reach another owner’s entities, even with the same ids', async () => {
      const a = owner();
      const b = owner();
      const shared = 'shared-id-kaboodle';
      await s
        .index()
        .upsert([
          entity(a, { id: shared, title: 'tamarind paste' }),
          entity(b, { id: shared, title: 'tamarind pods' }),
        ]);
      const hits = await s
        .index()
        .search(q(a, 'keyword', 'tamarind', { only: [{ entityType: 'document', id: shared }] }));
      expect(hits.map((h) => h.title)).toEqual(['tamarind paste']);
    });

    it('version-guards kaboodles: older and equal versions are stale, a delete is remembered', async () => {
      const o = owner();
      const [a, b] = [entity(o), entity(o)];
      const k = kaboodle(o, { members: refs(a, b), version: 5 });
      await s.index().kaboodles.upsert([k]);
      expect(await s.index().kaboodles.upsert([{ ...k, version: 4, members: refs(a) }])).toEqual({
        applied: 0,
        stale: 1,
      });
      expect(await s.index().kaboodles.upsert([{ ...k, members: [] }])).toEqual({ applied: 0, stale: 1 });
      expect((await s.index().kaboodles.get(o, k.id))?.members).toEqual(refs(a, b));
      // the same kaboodle twice in one call: the highest version wins
      expect(
        await s.index().kaboodles.upsert([
          { ...k, version: 9, members: refs(b) },
          { ...k, version: 8, members: refs(a) },
        ]),
      ).toEqual({ applied: 1, stale: 1 });
      expect((await s.index().kaboodles.get(o, k.id))?.members).toEqual(refs(b));
      expect(await s.index().kaboodles.delete([{ ownerId: o, id: k.id, version: 10 }])).toEqual({
        applied: 1,
        stale: 0,
      });
      expect(await s.index().kaboodles.get(o, k.id)).toBeUndefined();
      // a late, older upsert does not bring it back; a newer one does
      expect((await s.index().kaboodles.upsert([{ ...k, version: 9 }])).applied).toBe(0);
      expect(await s.index().kaboodles.get(o, k.id)).toBeUndefined();
      await s.index().kaboodles.upsert([{ ...k, version: 11, members: refs(a) }]);
      expect((await s.index().kaboodles.get(o, k.id))?.members).toEqual(refs(a));
    });

    it('lists live kaboodles changed before a time, and deleteOwner removes them with the entities', async () => {
      const a = owner();
      const b = owner();
      const kept = [kaboodle(a, { version: 3 }), kaboodle(a), kaboodle(b)];
      const gone = kaboodle(a);
      const fresh = kaboodle(b, { updatedAt: new Date('2026-06-01T00:00:00Z') });
      await s.index().kaboodles.upsert([...kept, gone, fresh]);
      await s.index().kaboodles.delete([{ ownerId: a, id: gone.id, version: 2 }]);
      const listed = [];
      for await (const batch of s.index().kaboodles.listLive({
        updatedBefore: new Date('2026-03-01T00:00:00Z'),
        batchSize: 2,
      })) {
        expect(batch.length).toBeLessThanOrEqual(2);
        listed.push(...batch.filter((r) => r.ownerId === a || r.ownerId === b));
      }
      const key = (r: { ownerId: string; id: string }) => `${r.ownerId}/${r.id}`;
      expect(listed.map(key).sort()).toEqual(kept.map(key).sort());
      expect(listed.find((r) => r.id === kept[0]!.id)?.version).toBe(3);

      await s.index().deleteOwner(a);
      expect(await s.index().kaboodles.get(a, kept[0]!.id)).toBeUndefined();
      expect(await s.index().kaboodles.get(b, kept[2]!.id)).toBeDefined();
    });

    it('refuses a kaboodle without an owner, a bad version or a member of an unknown type', async () => {
      const o = owner();
      await expect(s.index().kaboodles.upsert([kaboodle('')])).rejects.toThrow();
      await expect(s.index().kaboodles.upsert([kaboodle(o, { version: -1 })])).rejects.toThrow();
      await expect(
        s.index().kaboodles.upsert([kaboodle(o, { members: [{ entityType: 'user' as never, id: 'x' }] })]),
      ).rejects.toThrow();
    });
  });
}
