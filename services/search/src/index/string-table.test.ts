// StringTable: ids for strings in typed arrays, with JS string order for ties.
import { describe, expect, it } from 'vitest';
import { StringTable } from './string-table.ts';

describe('StringTable', () => {
  const samples = [
    '',
    'a',
    'ab',
    'b',
    'café',
    'cafe',
    '東京',
    '\uE000x',
    '😀',
    '𝒳',
    'z'.repeat(500),
    '["o","document","1"]',
  ];

  it('interns, finds and reads back any string, across growth of the arena and the hash', () => {
    const t = new StringTable();
    const all = [...samples, ...Array.from({ length: 20_000 }, (_, i) => `key-${i}-ü`)];
    const ids = all.map((s) => t.intern(s));
    expect(new Set(ids).size).toBe(all.length);
    expect(t.size).toBe(all.length);
    all.forEach((s, i) => {
      expect(t.intern(s)).toBe(ids[i]);
      expect(t.find(s)).toBe(ids[i]);
      expect(t.get(ids[i]!)).toBe(s);
    });
    expect(t.find('missing')).toBe(-1);
    // a copy of its parts is a table of its own
    const copy = new StringTable(t.parts());
    expect(copy.find('café')).toBe(t.find('café'));
    copy.intern('only in the copy');
    expect(t.find('only in the copy')).toBe(-1);
  });

  /** Every pair of the strings (all in the table) compares as JS compares them. */
  const expectJsOrder = (table: StringTable, strings: string[]) => {
    const ids = strings.map((s) => table.find(s));
    for (let i = 0; i < strings.length; i++)
      for (let j = 0; j < strings.length; j++) {
        const a = strings[i]!;
        const b = strings[j]!;
        expect(Math.sign(table.compare(ids[i]!, ids[j]!)), `${a} vs ${b}`).toBe(a < b ? -1 : a > b ? 1 : 0);
      }
  };

  it('compares as JS compares strings (UTF-16 order), astral characters included', () => {
    const t = new StringTable();
    for (const s of samples) t.intern(s);
    expectJsOrder(t, samples);
  });

  it('compares strings sharing a long prefix rightly while a new string shortens what they share', () => {
    // an owner's keys share `["<owner>","`: compare skips it; a later string shares less, or is the
    // prefix itself, and a table rebuilt from its parts (a snapshot) must agree
    const owner = '["f6a2510b-1d0a-45e9-8cd1-3aad354d4401","';
    const first = ['document","b2"]', 'document","a9"]', 'inventory_item","a1"]', 'document","é"]'].map(
      (rest) => owner + rest,
    );
    const later = [owner.slice(0, 20), owner, `${owner.slice(0, 39)}é`, '["e', '😀'];
    const t = new StringTable();
    for (const s of first) t.intern(s);
    expectJsOrder(t, first);
    const all = [...first];
    for (const s of later) {
      t.intern(s);
      all.push(s);
      expectJsOrder(t, all);
      expectJsOrder(new StringTable(t.parts()), all);
    }
  });
});
