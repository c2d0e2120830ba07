import { describe, expect, it } from 'vitest';
import {
  bestPassage,
  bm25ToScores,
  clampLimit,
  cosineDistanceToScore,
  normaliseTag,
  queryTerms,
  reciprocalRankFusion,
} from './search-scoring.ts';

const keys = (...k: string[]) => k.map((key) => ({ key }));

describe('reciprocalRankFusion', () => {
  it('scores an entity first in both lists 1.0 and orders by the RRF sum (k = 60)', () => {
    const fused = reciprocalRankFusion([keys('a', 'b', 'c'), keys('a', 'c')]);
    expect(fused.map((f) => f.key)).toEqual(['a', 'c', 'b']);
    expect(fused[0]!.score).toBe(1);
    // c: 1/63 + 1/62 over the best 2/61
    expect(fused[1]!.score).toBeCloseTo((1 / 63 + 1 / 62) / (2 / 61), 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 62 / (2 / 61), 12);
    expect(fused[1]!.ranks).toEqual([3, 2]);
  });

  it('normalises by the lists that returned anything, so one empty list does not halve scores', () => {
    const fused = reciprocalRankFusion([keys('x', 'y'), []]);
    expect(fused[0]).toMatchObject({ key: 'x', score: 1 });
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });

  it('breaks ties by key and counts a duplicate in one list once', () => {
    const fused = reciprocalRankFusion([keys('b', 'a'), keys('a', 'b', 'a')]);
    expect(fused.map((f) => f.key)).toEqual(['a', 'b']);
    expect(fused[0]!.score).toBe(fused[1]!.score);
  });
});

describe('score mapping', () => {
  it('maps cosine distance to a similarity clamped to [0, 1]', () => {
    expect(cosineDistanceToScore(-1e-7)).toBe(1);
    expect(cosineDistanceToScore(0.25)).toBe(0.75);
    expect(cosineDistanceToScore(1.5)).toBe(0);
    expect(cosineDistanceToScore(Number.NaN)).toBe(0);
  });

  it('scales BM25 by the best hit of the list', () => {
    expect(bm25ToScores([8, 4, 2])).toEqual([1, 0.5, 0.25]);
    expect(bm25ToScores([])).toEqual([]);
    expect(bm25ToScores([0])).toEqual([0]);
  });
});

describe('helpers', () => {
  it('normalises tags case-insensitively without the leading #', () => {
    expect(normaliseTag(' #Machine-Learning ')).toBe('machine-learning');
    expect(normaliseTag('##ÄPFEL')).toBe('äpfel');
  });

  it('splits query terms on anything but letters and digits, any script', () => {
    expect(queryTerms('Tax-return (2024) für Müller! 日本')).toEqual([
      'tax',
      'return',
      '2024',
      'für',
      'müller',
      '日本',
    ]);
    expect(queryTerms('*** ??')).toEqual([]);
  });

  it('clamps limits into 1..max and falls back on nonsense', () => {
    expect(clampLimit(0, 100)).toBe(1);
    expect(clampLimit(-3, 100)).toBe(1);
    expect(clampLimit(7.9, 100)).toBe(7);
    expect(clampLimit(1e9, 100)).toBe(100);
    expect(clampLimit(Number.NaN, 100)).toBe(20);
    expect(clampLimit(Number.NaN, 10, 20)).toBe(10);
  });

  it('picks the passage that matches the query vector and words best', () => {
    const v = (...x: number[]) => Float32Array.from(x);
    const passages = [
      { text: 'about gardens', vector: v(1, 0, 0) },
      { text: 'about taxes and deadlines', vector: v(0, 1, 0) },
      { text: 'about music', vector: v(0, 0, 1) },
    ];
    expect(bestPassage(passages, { text: 'tax deadlines', vector: v(0, 1, 0) })?.index).toBe(1);
    expect(bestPassage(passages, { text: 'music' })?.index).toBe(2);
    expect(bestPassage(passages, { text: '', vector: v(1, 0.1, 0) })?.index).toBe(0);
    expect(bestPassage([], { text: 'x' })).toBeUndefined();
  });
});
