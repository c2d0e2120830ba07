import { describe, expect, it } from 'vitest';
import { createBm25Index, tokenize } from './bm25.ts';
import { ndcgAt, reciprocalRank, reciprocalRankFusion, sameAuthors, sameText } from './metrics.ts';

describe('evaluation metrics', () => {
  it('MRR is 1/rank of the first relevant result, 0 when none is found', () => {
    expect(reciprocalRank(['a', 'b', 'c'], { c: 2 })).toBeCloseTo(1 / 3);
    expect(reciprocalRank(['a', 'b'], { z: 1 })).toBe(0);
  });

  it('nDCG@10 is 1 for the ideal order and lower for a worse one', () => {
    const rel = { a: 2, b: 1 } as const;
    expect(ndcgAt(['a', 'b', 'x'], rel)).toBeCloseTo(1);
    expect(ndcgAt(['b', 'a', 'x'], rel)).toBeLessThan(1);
    expect(ndcgAt(['x', 'y'], rel)).toBe(0);
  });

  it('reciprocal rank fusion favours what both rankings put high', () => {
    expect(
      reciprocalRankFusion([
        ['a', 'b', 'c'],
        ['b', 'c', 'a'],
      ])[0],
    ).toBe('b');
  });

  it('compares fields as a person would', () => {
    expect(sameText('The  Title!', 'the title')).toBe(true);
    expect(sameText('', '')).toBe(false);
    expect(sameAuthors('Felix Müller, Haruto Sato', ['Sato', 'Müller'])).toBe(true);
    expect(sameAuthors('Haruto Sato', ['Sato', 'Müller'])).toBe(false);
  });
});

describe('BM25', () => {
  it('ranks the document with the rare query term first and ignores stop words', () => {
    const index = createBm25Index([
      { id: 'bowl', text: 'a red ceramic bowl for soup' },
      { id: 'tote', text: 'a canvas tote bag for the market' },
      { id: 'both', text: 'a bag and a bowl' },
    ]);
    expect(index.search('ceramic bowl')[0]!.id).toBe('bowl');
    expect(index.search('the a and')).toEqual([]);
    expect(tokenize('Bowls policies')).toEqual(['bowl', 'policy']);
  });
});
