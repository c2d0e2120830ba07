// SearchIndex contract, queries: excerpts, related entities, limit clamping, and hostile input
// (unicode, metacharacters, filter strings that must match literally).
import { expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { ContractSuite } from './search-index-contract-suite.ts';

export function queriesContract(s: ContractSuite): void {
  const { owner, vec, entity, q, ids, expectWellFormed } = s;

  it('returns the best-matching passage of each document as its excerpt, when asked', async () => {
    const o = owner();
    const { doc, passages } = s.almanac(o);
    const item = entity(o, {
      title: 'Almanac shelf',
      entityType: 'inventory_item',
      vector: vec({ tax: 1 }),
    });
    await s.index().upsert([doc, item]);
    const hits = await s
      .index()
      .search(q(o, 'hybrid', 'tax deadline', { vector: vec({ finance: 1, tax: 1 }), withExcerpts: true }));
    const hit = hits.find((h) => h.id === doc.id);
    expect(hit?.excerpt).toBe(passages[1]!.text);
    expect(hits.find((h) => h.id === item.id)?.excerpt).toBeUndefined();
    const byKeyword = await s.index().search(q(o, 'keyword', 'guitar', { withExcerpts: true }));
    expect(byKeyword.find((h) => h.id === doc.id)?.excerpt).toBe(passages[2]!.text);
    const without = await s.index().search(q(o, 'keyword', 'almanac'));
    for (const h of without) expect(h.excerpt).toBeUndefined();
  });

  it('relates an entity to its vector neighbours across both types, never itself, best first', async () => {
    const o = owner();
    const base = entity(o, { title: 'base', vector: vec({ bread: 1, cooking: 1 }) });
    const twin = entity(o, {
      title: 'twin',
      vector: vec({ bread: 1, cooking: 0.9 }),
      entityType: 'inventory_item',
    });
    const cousin = entity(o, { title: 'cousin', vector: vec({ bread: 1, pastry: 1 }) });
    const stranger = entity(o, { title: 'stranger', vector: vec({ tax: 1 }) });
    await s.index().upsert([base, twin, cousin, stranger]);
    const rel = await s.index().related({ ownerId: o, entityType: 'document', id: base.id, limit: 10 });
    expect(ids(rel)).toEqual([twin.id, cousin.id, stranger.id]);
    expectWellFormed(rel);
    expect(rel[0]!.entityType).toBe('inventory_item');
    expect(
      ids(await s.index().related({ ownerId: o, entityType: 'document', id: base.id, limit: 1 })),
    ).toEqual([twin.id]);
    const close = await s.index().related({
      ownerId: o,
      entityType: 'document',
      id: base.id,
      limit: 10,
      minSimilarity: 0.9,
    });
    expect(ids(close)).toEqual([twin.id]);
    await s.index().delete([{ entityType: 'inventory_item', id: twin.id, ownerId: o, version: 2 }]);
    expect(
      ids(await s.index().related({ ownerId: o, entityType: 'document', id: base.id, limit: 10 })),
    ).toEqual([cousin.id, stranger.id]);
    await expect(
      s.index().related({ ownerId: o, entityType: 'inventory_item', id: twin.id, limit: 10 }),
    ).rejects.toThrow();
  });

  it('clamps limits to 1..100', async () => {
    const o = owner();
    await s.index().upsert(Array.from({ length: 120 }, (_, i) => entity(o, { title: `lemur ${i}` })));
    for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
      const run = (limit: number) =>
        s
          .index()
          .search(q(o, mode, 'lemur', { vector: vec({ cleaning: 1 }), limit }))
          .then((h) => h.length);
      expect(await run(1000), mode).toBe(100);
      expect(await run(7), mode).toBe(7);
      expect(await run(0), mode).toBe(1);
      expect(await run(-5), mode).toBe(1);
    }
  });

  it('handles unicode and emoji in text, and Lucene/regex/SQL metacharacters in queries without throwing', async () => {
    const o = owner();
    const e = entity(o, {
      title: 'Café Über 🍎 straße',
      description: 'naïve résumé — 日本語のテキスト',
      hashtags: ['äpfel', '🍎'],
    });
    await s.index().upsert([e]);
    expect(ids(await s.index().search(q(o, 'keyword', 'café')))).toEqual([e.id]);
    expect(ids(await s.index().search(q(o, 'keyword', 'Über')))).toEqual([e.id]);
    expect(ids(await s.index().search(q(o, 'keyword', 'café', { hashtags: ['Äpfel'] })))).toEqual([e.id]);
    expect(ids(await s.index().search(q(o, 'keyword', 'café', { hashtags: ['apfel'] })))).toEqual([]);
    expect(
      ids(await s.index().search(q(o, 'semantic', 'x', { hashtags: ['äpfel'], vector: e.vector }))),
    ).toEqual([e.id]);
    expect(
      ids(await s.index().search(q(o, 'semantic', 'x', { hashtags: ['🍎'], vector: e.vector }))),
    ).toEqual([e.id]);
    const nasty = [
      '🍎',
      '"unterminated',
      '(a OR b) AND c* ? ~ ^2 : \\ / [x TO y] {z} !not +must -mustnot && ||',
      "x' OR '1'='1",
      "'; DROP TABLE entities; --",
      '100% _match_ \\\\ back\\slash',
      '.*[a-z]+(?=x)$^',
      'title:café AND owner_id:*',
    ];
    for (const text of nasty) {
      for (const mode of ['keyword', 'hybrid'] as const) {
        const hits = await s.index().search(q(o, mode, text, { vector: e.vector }));
        expectWellFormed(hits);
        for (const h of hits) expect(h.id).toBe(e.id);
      }
    }
  });

  it('escapes every user string used in a filter: quotes, backslashes, %, _ and unicode match literally', async () => {
    const weird = [
      "o'neil",
      "x' OR '1'='1",
      'back\\slash',
      '100%',
      'under_score',
      'ünïcödé 🍎',
      "\\' OR owner_id != '",
    ];
    const victim = owner();
    await s.index().upsert([entity(victim, { title: 'secret aardvark', category: 'Private' })]);
    for (const w of weird) {
      const o = `${w}-${randomUUID().slice(0, 6)}`;
      const e = entity(o, {
        id: `id-${w}-${randomUUID().slice(0, 6)}`,
        title: 'aardvark notes',
        category: w,
        hashtags: [w],
      });
      // What a LIKE pattern or an unescaped quote would also match: it must not.
      const lookalike = w.replace(/[%_'\\]/g, 'x');
      const other = lookalike === w ? `${w} decoy` : lookalike;
      const decoy = entity(o, { title: 'aardvark decoy', category: other, hashtags: [other] });
      await s.index().upsert([e, decoy]);
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        const all = await s.index().search(q(o, mode, 'aardvark', { vector: e.vector }));
        expect(ids(all).sort(), `${mode} ${w}`).toEqual([e.id, decoy.id].sort());
        expect(
          ids(await s.index().search(q(o, mode, 'aardvark', { vector: e.vector, category: w }))),
          `${mode} ${w}`,
        ).toEqual([e.id]);
        expect(
          ids(await s.index().search(q(o, mode, 'aardvark', { vector: e.vector, hashtags: [w] }))),
          `${mode} ${w}`,
        ).toEqual([e.id]);
        // A crafted filter value never opens another owner's rows.
        expect(await s.index().search(q(w, mode, 'aardvark', { vector: e.vector, category: w }))).toEqual([]);
      }
      expect((await s.index().stats(o)).entities).toBe(2);
      expect(await s.index().versionOf({ entityType: 'document', id: e.id, ownerId: o })).toBe(1);
      expect(
        ids(await s.index().related({ ownerId: o, entityType: 'document', id: e.id, limit: 10 })),
      ).toEqual([decoy.id]);
      await s.index().deleteOwner(o);
      expect((await s.index().stats(o)).entities).toBe(0);
    }
    expect(ids(await s.index().search(q(victim, 'keyword', 'aardvark')))).toHaveLength(1);
  });
}
