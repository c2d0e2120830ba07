// SearchIndex contract, pages: searchKeys ranks as search does without display fields, and hitsOf
// reads the display hits of a page of refs (the hybrid search fuses two key lists, then reads the
// page it shows), in the refs' order, only the owner's live entities, with excerpts when asked.
import { expect, it } from 'vitest';
import type { RankedRef, SearchHit } from '@kaboodle/search';
import type { ContractSuite } from './search-index-contract-suite.ts';

const refOf = (h: SearchHit): RankedRef => ({
  entityType: h.entityType,
  id: h.id,
  score: h.score,
  ...(h.raw !== undefined && { raw: h.raw }),
});

export function pagesContract(s: ContractSuite): void {
  const { owner, vec, entity, q } = s;

  it('searchKeys ranks as search does, in every mode, with names and scores only', async () => {
    const o = owner();
    const bread = entity(o, { title: 'Sourdough bread at home', vector: vec({ bread: 1, cooking: 1 }) });
    const pastry = entity(o, {
      title: 'Pastry and bread rolls',
      entityType: 'inventory_item',
      vector: vec({ bread: 1, pastry: 1 }),
    });
    const tax = entity(o, { title: 'Tax return deadline', vector: vec({ tax: 1, finance: 1 }) });
    await s.index().upsert([bread, pastry, tax]);
    const vector = vec({ bread: 1, cooking: 0.5 });
    for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
      const query = q(o, mode, 'bread', mode === 'keyword' ? {} : { vector });
      const hits = await s.index().search(query);
      const keys = await s.index().searchKeys({ ...query, withExcerpts: true });
      expect(hits.length, mode).toBeGreaterThan(0);
      expect(keys, mode).toEqual(hits.map(refOf));
      for (const k of keys) expect(Object.keys(k).sort()).toEqual(Object.keys(refOf(hits[0]!)).sort());
    }
    expect(await s.index().searchKeys(q(o, 'keyword', 'bread', { only: [] }))).toEqual([]);
  });

  it('hitsOf reads a page in the refs’ order with their scores, leaving out what is not the owner’s', async () => {
    const o = owner();
    const other = owner();
    const a = entity(o, { title: 'Alpha garden notes', description: 'tulips', hashtags: ['garden'] });
    const b = entity(o, { title: 'Beta shelf', entityType: 'inventory_item' });
    const gone = entity(o, { title: 'Deleted draft' });
    const theirs = entity(other, { title: 'Someone else’s notes' });
    await s.index().upsert([a, b, gone, theirs]);
    await s.index().delete([{ entityType: 'document', id: gone.id, ownerId: o, version: 2 }]);
    const refs: RankedRef[] = [
      { entityType: 'inventory_item', id: b.id, score: 0.9, raw: 12.5 },
      { entityType: 'document', id: gone.id, score: 0.8 },
      { entityType: 'document', id: theirs.id, score: 0.7 },
      { entityType: 'document', id: 'no-such-entity', score: 0.6 },
      { entityType: 'document', id: a.id, score: 0.5 },
      // the right id under the other type names nothing
      { entityType: 'inventory_item', id: a.id, score: 0.4 },
    ];
    const hits = await s.index().hitsOf({ ownerId: o, refs });
    expect(hits.map((h) => [h.entityType, h.id, h.score, h.raw])).toEqual([
      ['inventory_item', b.id, 0.9, 12.5],
      ['document', a.id, 0.5, undefined],
    ]);
    const alpha = hits[1]!;
    expect(alpha.title).toBe('Alpha garden notes');
    expect(alpha.description).toBe('tulips');
    expect(alpha.hashtags).toEqual(['garden']);
    expect(alpha.url).toBe(a.url);
    expect(alpha.excerpt).toBeUndefined();
    expect(hits[0]!.imageUrl).toBe(b.imageUrl);
    // the other owner reads only their own
    expect((await s.index().hitsOf({ ownerId: other, refs })).map((h) => h.id)).toEqual([theirs.id]);
    expect(await s.index().hitsOf({ ownerId: o, refs: [] })).toEqual([]);
  });

  it('hitsOf gives each document of the page its best passage for the query, when asked', async () => {
    const o = owner();
    const { doc, passages } = s.almanac(o);
    const item = entity(o, { title: 'Almanac shelf', entityType: 'inventory_item', vector: vec({ tax: 1 }) });
    await s.index().upsert([doc, item]);
    const refs: RankedRef[] = [
      { entityType: 'inventory_item', id: item.id, score: 0.6 },
      { entityType: 'document', id: doc.id, score: 0.5 },
    ];
    const byMeaning = await s.index().hitsOf({
      ownerId: o,
      refs,
      excerptsFor: { text: 'tax deadline', vector: vec({ finance: 1, tax: 1 }) },
    });
    expect(byMeaning.map((h) => h.id)).toEqual([item.id, doc.id]);
    expect(byMeaning[0]!.excerpt).toBeUndefined();
    expect(byMeaning[1]!.excerpt).toBe(passages[1]!.text);
    const byWords = await s.index().hitsOf({ ownerId: o, refs, excerptsFor: { text: 'guitar' } });
    expect(byWords[1]!.excerpt).toBe(passages[2]!.text);
  });
}
