// SearchIndex contract, ranking and isolation: keyword, semantic and hybrid (RRF) search, filters,
// and owners kept apart (search-index-contract.ts runs it for every adapter).
import { expect, it } from 'vitest';
import type { IndexedEntity, SearchMode, SearchQuery } from '@kaboodle/search';
import { ndcgAt10 } from './search-index-contract-suite.ts';
import type { ContractSuite } from './search-index-contract-suite.ts';

export function rankingContract(s: ContractSuite): void {
  const { adapterName, owner, vec, entity, q, ids, expectWellFormed } = s;

  it('answers an empty index with no hits, zero stats and unknown versions', async () => {
    const o = owner();
    for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
      expect(await s.index().search(q(o, mode, 'anything', { vector: vec({ car: 1 }) }))).toEqual([]);
    }
    expect((await s.index().stats(o)).entities).toBe(0);
    expect(await s.index().versionOf({ entityType: 'document', id: 'nope', ownerId: o })).toBeUndefined();
    await expect(
      s.index().related({ ownerId: o, entityType: 'document', id: 'nope', limit: 5 }),
    ).rejects.toThrow();
    await s.index().ping();
  });

  it('finds an upserted entity by keyword in its title, description, content, tags and keyword fields', async () => {
    const o = owner();
    const doc = entity(o, {
      title: 'Quarterly zeppelin report',
      description: 'A summary about marmalade exports',
      content: 'The body mentions the word quokka somewhere in the middle of the text.',
      hashtags: ['aviation', 'logistics'],
      keywords: ['Ada Lovelace'],
      category: 'Reports',
    });
    const other = entity(o, { title: 'Unrelated', content: 'nothing to see here' });
    expect(await s.index().upsert([doc, other])).toEqual({ applied: 2, stale: 0 });
    for (const word of ['zeppelin', 'marmalade', 'quokka', 'aviation', 'lovelace']) {
      const hits = await s.index().search(q(o, 'keyword', word));
      expect(ids(hits), word).toEqual([doc.id]);
    }
    const [hit] = await s.index().search(q(o, 'keyword', 'zeppelin'));
    expect(hit).toMatchObject({
      entityType: 'document',
      id: doc.id,
      title: doc.title,
      description: doc.description,
      url: doc.url,
      imageUrl: '',
      category: 'Reports',
      hashtags: ['aviation', 'logistics'],
    });
    expect(doc.content.startsWith(hit!.content)).toBe(true);
    expect(hit!.content.length).toBeGreaterThan(0);
    expect(hit!.score).toBeGreaterThan(0);
    expect(hit!.score).toBeLessThanOrEqual(1);
    expect(await s.index().versionOf({ entityType: 'document', id: doc.id, ownerId: o })).toBe(1);
  });

  it('ranks by vector similarity in semantic mode, nearest first, scores in [0, 1]', async () => {
    const o = owner();
    const near = entity(o, { title: 'alpha', vector: vec({ music: 1, guitar: 1 }) });
    const mid = entity(o, { title: 'beta', vector: vec({ music: 1, piano: 1 }) });
    const far = entity(o, { title: 'gamma', vector: vec({ tax: 1 }), entityType: 'inventory_item' });
    await s.index().upsert([far, mid, near]);
    const hits = await s
      .index()
      .search(q(o, 'semantic', 'ignored words', { vector: vec({ music: 1, guitar: 1 }) }));
    expect(ids(hits)).toEqual([near.id, mid.id, far.id]);
    expectWellFormed(hits);
    expect(hits[0]!.score).toBeGreaterThan(0.99);
    expect(hits[2]!.score).toBeLessThan(0.2);
    await expect(s.index().search(q(o, 'semantic', 'x'))).rejects.toThrow();
  });

  it('hybrid (RRF) does at least as well as keyword and semantic alone on a graded set', async () => {
    const o = owner();
    const docs: Record<string, IndexedEntity> = {
      d1: entity(o, { title: 'Automobile repair handbook', vector: vec({ car: 1, repair: 1 }) }),
      d2: entity(o, {
        title: 'Fixing your vehicle engine',
        vector: vec({ car: 1, repair: 0.9, engine: 0.4 }),
      }),
      d3: entity(o, { title: 'Repair costs for bicycles', vector: vec({ bicycle: 1, repair: 1 }) }),
      d4: entity(o, {
        title: 'Sourdough bread baking',
        vector: vec({ cooking: 1, bread: 1, fermentation: 0.6 }),
      }),
      d5: entity(o, { title: 'Home baking of loaves', vector: vec({ cooking: 1, bread: 1 }) }),
      d6: entity(o, { title: 'Pastry cream recipes', vector: vec({ cooking: 1, pastry: 1 }) }),
      d7: entity(o, {
        title: 'Guitar chords for beginners',
        vector: vec({ music: 1, guitar: 1, piano: 0.3 }),
      }),
      d8: entity(o, { title: 'Learning a stringed instrument', vector: vec({ music: 1, guitar: 1 }) }),
      d9: entity(o, { title: 'Tax return checklist', vector: vec({ finance: 1, tax: 1, garden: 0.2 }) }),
      d10: entity(o, { title: 'Filing with the revenue office', vector: vec({ finance: 1, tax: 1 }) }),
      d11: entity(o, { title: 'Car wash soap', vector: vec({ car: 1, cleaning: 1 }) }),
      d12: entity(o, { title: 'Garden flower planting', vector: vec({ garden: 1, flower: 1 }) }),
      d13: entity(o, { title: 'Piano practice plan', vector: vec({ music: 1, piano: 1 }) }),
      d14: entity(o, { title: 'Return policy for a car', vector: vec({ car: 1, finance: 0.5 }) }),
    };
    await s.index().upsert(Object.values(docs));
    const id = (k: string) => docs[k]!.id;
    const queries: { text: string; vector: Float32Array; grades: Record<string, number> }[] = [
      {
        text: 'automobile repair',
        vector: vec({ car: 1, repair: 1 }),
        grades: { [id('d1')]: 3, [id('d2')]: 2, [id('d3')]: 1 },
      },
      {
        text: 'sourdough',
        vector: vec({ cooking: 1, bread: 1 }),
        grades: { [id('d4')]: 3, [id('d5')]: 1 },
      },
      {
        text: 'guitar',
        vector: vec({ music: 1, guitar: 1 }),
        grades: { [id('d7')]: 3, [id('d8')]: 2 },
      },
      {
        text: 'tax return',
        vector: vec({ finance: 1, tax: 1 }),
        grades: { [id('d9')]: 3, [id('d10')]: 2 },
      },
    ];
    const mean: Record<SearchMode, number> = { keyword: 0, semantic: 0, hybrid: 0 };
    for (const query of queries) {
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        const hits = await s.index().search(q(o, mode, query.text, { vector: query.vector, limit: 10 }));
        expectWellFormed(hits);
        mean[mode] += ndcgAt10(ids(hits), query.grades) / queries.length;
      }
    }
    process.stderr.write(
      `[contract:search-index:${adapterName}] graded set nDCG@10 keyword ${mean.keyword.toFixed(3)} semantic ${mean.semantic.toFixed(3)} hybrid ${mean.hybrid.toFixed(3)}\n`,
    );
    expect(mean.hybrid).toBeGreaterThanOrEqual(mean.keyword - 1e-9);
    expect(mean.hybrid).toBeGreaterThanOrEqual(mean.semantic - 1e-9);
    // Not a tie by accident: each single mode misses something the other finds.
    expect(mean.hybrid).toBeGreaterThan(Math.min(mean.keyword, mean.semantic));
  });

  it('filters by entity type, exact category and every requested hashtag, in every mode', async () => {
    const o = owner();
    const v = vec({ garden: 1 });
    const a = entity(o, {
      title: 'Tulip bulbs',
      category: 'Garden',
      hashtags: ['Spring', 'bulbs'],
      vector: v,
    });
    const b = entity(o, {
      title: 'Tulip vase',
      category: 'Home',
      hashtags: ['spring'],
      vector: v,
      entityType: 'inventory_item',
    });
    const c = entity(o, { title: 'Tulip history', category: 'Garden', hashtags: ['history'], vector: v });
    const d = entity(o, {
      title: 'Tulip print',
      category: 'garden',
      hashtags: ['#Spring', 'Bulbs'],
      vector: v,
    });
    await s.index().upsert([a, b, c, d]);
    for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
      const run = (over: Partial<SearchQuery>) =>
        s
          .index()
          .search(q(o, mode, 'tulip', { vector: v, ...over }))
          .then((h) => ids(h).sort());
      expect(await run({ entityTypes: ['inventory_item'] }), mode).toEqual([b.id]);
      expect(await run({ entityTypes: ['document'] }), mode).toEqual([a.id, c.id, d.id].sort());
      expect(await run({ entityTypes: [] }), mode).toHaveLength(4);
      expect(await run({ category: 'Garden' }), mode).toEqual([a.id, c.id].sort());
      // tags compare case-insensitively, without '#', and all of them must be present
      expect(await run({ hashtags: ['spring'] }), mode).toEqual([a.id, b.id, d.id].sort());
      expect(await run({ hashtags: ['#SPRING', 'bulbs'] }), mode).toEqual([a.id, d.id].sort());
      expect(
        await run({ hashtags: ['spring'], category: 'Garden', entityTypes: ['document'] }),
        mode,
      ).toEqual([a.id]);
      expect(await run({ category: 'Nowhere' }), mode).toEqual([]);
    }
  });

  it('keeps owners apart: identical content, even identical ids, never crosses (hits, related, stats)', async () => {
    const a = owner();
    const b = owner();
    const shared = {
      title: 'Identical twin record',
      content: 'same words for both owners',
      vector: vec({ flower: 1 }),
      hashtags: ['twin'],
      category: 'Twins',
    };
    const a1 = entity(a, { ...shared, id: 'same-id' });
    const a2 = entity(a, { ...shared, title: 'Identical twin record two' });
    await s.index().upsert([a1, a2]);
    const statsBefore = await s.index().stats(a);
    expect(await s.index().entityCount(a)).toBe(2);
    expect(await s.index().entityCount(b)).toBe(0);
    const b1 = entity(b, { ...shared, id: 'same-id', version: 5 });
    const b2 = entity(b, { ...shared, entityType: 'inventory_item' });
    expect(await s.index().upsert([b1, b2])).toEqual({ applied: 2, stale: 0 });
    expect(await s.index().stats(a)).toEqual(statsBefore);
    expect((await s.index().stats(a)).entities).toBe(2);
    expect((await s.index().stats(b)).entities).toBe(2);
    expect(await s.index().entityCount(a)).toBe(2);
    expect(await s.index().entityCount(b)).toBe(2);
    // b's same-id upsert (version 5) did not touch a's row
    expect(await s.index().versionOf({ entityType: 'document', id: 'same-id', ownerId: a })).toBe(1);
    expect(await s.index().versionOf({ entityType: 'document', id: 'same-id', ownerId: b })).toBe(5);
    for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
      const hitsA = await s
        .index()
        .search(q(a, mode, 'identical twin', { vector: vec({ flower: 1 }), withExcerpts: true }));
      expect(ids(hitsA).sort(), mode).toEqual([a1.id, a2.id].sort());
      const hitsB = await s.index().search(q(b, mode, 'identical twin', { vector: vec({ flower: 1 }) }));
      expect(ids(hitsB).sort(), mode).toEqual([b1.id, b2.id].sort());
    }
    const rel = await s.index().related({ ownerId: a, entityType: 'document', id: a2.id, limit: 50 });
    expect(ids(rel)).toEqual([a1.id]);
    // Another owner's entity answers like a missing one.
    await expect(
      s.index().related({ ownerId: a, entityType: 'inventory_item', id: b2.id, limit: 5 }),
    ).rejects.toThrow();
    expect(
      await s.index().versionOf({ entityType: 'inventory_item', id: b2.id, ownerId: a }),
    ).toBeUndefined();
    // A delete by b of the shared id leaves a's entity alone.
    await s.index().delete([{ entityType: 'document', id: 'same-id', ownerId: b, version: 6 }]);
    expect(ids(await s.index().search(q(a, 'keyword', 'identical')))).toContain('same-id');
    expect(ids(await s.index().search(q(b, 'keyword', 'identical')))).toEqual([b2.id]);
  });

  it('a user with few items still gets their true top-k among many items of others', async () => {
    const crowd = owner();
    const lone = owner();
    const v = vec({ piano: 1 });
    const many = Array.from({ length: 300 }, (_, i) =>
      entity(crowd, { title: `piano sonata number ${i}`, vector: v }),
    );
    await s.index().upsert(many);
    const mine = entity(lone, { title: 'my old piano', vector: vec({ piano: 1, garden: 0.5 }) });
    await s.index().upsert([mine]);
    for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
      const hits = await s.index().search(q(lone, mode, 'piano sonata', { vector: v, limit: 5 }));
      expect(ids(hits), mode).toEqual([mine.id]);
    }
  });
}
