import { describe, expect, it } from 'vitest';
import { OwnerKeywordIndex, analyse, wordPairs } from './keyword-index.ts';

describe('analyse', () => {
  it('folds case and accents, drops stop words and overlong tokens, and stems like the table’s FTS', () => {
    expect(analyse('The Running of the CAFÉ’s studies, 2024!')).toEqual([
      'run',
      'cafe',
      's',
      'studi',
      '2024',
    ]);
    expect(analyse(`a ${'x'.repeat(41)} b`)).toEqual(['b']);
    expect(analyse('*** "" OR AND ((')).toEqual([]);
    expect(analyse('Ünïcödé naïve 東京 🎉')).toEqual(['unicod', 'naiv', '東京']);
  });
});

describe('wordPairs', () => {
  it('pairs adjacent stems, stop words skipped, as single terms the analyser keeps', () => {
    expect(wordPairs('Open and possibly create a FILE')).toBe('open0possibl possibl0creat creat0file');
    expect(analyse(wordPairs('create a file'))).toEqual(['creat0fil']);
    expect(wordPairs('file')).toBe('');
    expect(wordPairs('the of and')).toBe('');
  });
});

describe('OwnerKeywordIndex', () => {
  function index(docs: Record<string, string>, types: Record<string, string> = {}): OwnerKeywordIndex {
    const ix = new OwnerKeywordIndex();
    for (const [k, text] of Object.entries(docs)) ix.load(k, types[k] ?? 'document', text);
    ix.markReady();
    return ix;
  }

  it('adds the lead: of two texts with the same words, the one that opens with them ranks first', () => {
    const filler = 'notes on the project and its many small parts and pieces and other matters '.repeat(8);
    const ix = new OwnerKeywordIndex();
    const late = `${filler} tidal turbine`;
    const early = `tidal turbine ${filler}`;
    ix.load('late', 'document', late, late.slice(0, 100));
    ix.load('early', 'document', early, early.slice(0, 100));
    ix.markReady();
    const hits = ix.search('tidal turbine', 10);
    expect(hits.map((h) => h.key)).toEqual(['early', 'late']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    // and a write replaces the lead with the text
    ix.applyWrite('early', 'document', late, late.slice(0, 100));
    const again = ix.search('tidal turbine', 10);
    expect(again[0]!.score).toBeCloseTo(again[1]!.score, 9);
  });

  it('scores a query’s adjacent words (word pairs) above the same words apart', () => {
    const withPairs = (t: string) => `${t}\n${wordPairs(t)}`;
    // Without the pairs the shorter text, with the words apart, would rank first.
    const apart = 'create the socket and read the file';
    const together = 'read the socket header and create a file';
    const ix = index({ apart: withPairs(apart), together: withPairs(together), other: withPairs('socket') });
    expect(ix.search('create a file', 10).map((h) => h.key)).toEqual(['together', 'apart']);
    const plain = index({ apart, together, other: 'socket' });
    expect(plain.search('create a file', 10).map((h) => h.key)).toEqual(['apart', 'together']);
  });

  it('ranks by BM25: rarer words weigh more, more occurrences count, shorter documents win ties', () => {
    const ix = index({
      a: 'ocean warming and glacier retreat',
      b: 'ocean ocean ocean currents',
      c: 'glacier',
      d: 'a long report about many things including an ocean and budgets and plans and more words',
      e: 'budgets',
    });
    const ocean = ix.search('ocean', 10).map((h) => h.key);
    expect(ocean).toEqual(['b', 'a', 'd']);
    // "glacier" is rarer than "ocean": the document with both ranks first, then the short glacier one
    expect(ix.search('glacier ocean', 10).map((h) => h.key)).toEqual(['a', 'c', 'b', 'd']);
    expect(ix.search('warmed', 10).map((h) => h.key)).toEqual(['a']); // stems match
    expect(ix.search('nothing here', 10)).toEqual([]);
    expect(ix.search('the and of', 10)).toEqual([]);
    const scores = ix.search('ocean', 10).map((h) => h.score);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });

  it('filters by type, returns the top k with ties by key, and follows writes and deletes', () => {
    const docs: Record<string, string> = {};
    const types: Record<string, string> = {};
    for (let i = 0; i < 50; i++) {
      docs[`k${String(i).padStart(2, '0')}`] = 'walnut chair';
      types[`k${String(i).padStart(2, '0')}`] = i % 2 ? 'inventory_item' : 'document';
    }
    const ix = index(docs, types);
    expect(ix.search('walnut', 3).map((h) => h.key)).toEqual(['k00', 'k01', 'k02']);
    expect(ix.search('walnut', 3, ['inventory_item']).map((h) => h.key)).toEqual(['k01', 'k03', 'k05']);
    ix.applyWrite('k00', 'document', 'oak table');
    ix.applyWrite('k01', 'inventory_item', null);
    expect(ix.size).toBe(49);
    expect(ix.search('walnut', 3).map((h) => h.key)).toEqual(['k02', 'k03', 'k04']);
    expect(ix.search('oak', 3).map((h) => h.key)).toEqual(['k00']);
  });

  it('keeps answers right after many deletes (compaction) and keeps writes made during a build', () => {
    const ix = new OwnerKeywordIndex();
    ix.applyWrite('new', 'document', 'heron'); // written while building
    ix.applyWrite('gone', 'document', null);
    ix.load('new', 'document', 'old text');
    ix.load('gone', 'document', 'heron');
    for (let i = 0; i < 3_000; i++) ix.load(`d${i}`, 'document', `common word${i % 7}`);
    ix.markReady();
    expect(ix.search('heron', 5).map((h) => h.key)).toEqual(['new']);
    for (let i = 0; i < 2_500; i++) ix.applyWrite(`d${i}`, 'document', null);
    expect(ix.size).toBe(501);
    const hits = ix.search('common', 1_000);
    expect(hits).toHaveLength(500);
    expect(new Set(hits.map((h) => h.key))).toEqual(
      new Set(Array.from({ length: 500 }, (_, i) => `d${2500 + i}`)),
    );
    expect(ix.search('heron', 5).map((h) => h.key)).toEqual(['new']);
  });

  it('picks the true top k from a long list', () => {
    const ix = new OwnerKeywordIndex();
    for (let i = 0; i < 5_000; i++) ix.load(`d${i}`, 'document', `pine ${'filler '.repeat(i % 97)}`);
    ix.markReady();
    const top = ix.search('pine', 20);
    const all = ix.search('pine', 5_000);
    expect(top).toEqual(all.slice(0, 20));
    expect(top[0]!.score).toBeGreaterThanOrEqual(top[19]!.score);
  });
});
