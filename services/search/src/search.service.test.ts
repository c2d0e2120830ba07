import { describe, expect, it } from 'vitest';
import type { SearchHit } from './index/search-index.port.ts';
import { fuseWeighted } from './search.service.ts';

const hit = (id: string, score: number, excerpt?: string): SearchHit => ({
  entityType: 'document',
  id,
  title: id,
  description: '',
  content: '',
  url: '',
  imageUrl: '',
  category: '',
  hashtags: [],
  score,
  ...(excerpt !== undefined ? { excerpt } : {}),
});

describe('weighted hybrid fusion', () => {
  it('adds w·cosine and (1 − w)·keyword score; a hit in one list only scores its share', () => {
    const fused = fuseWeighted([hit('a', 0.6), hit('b', 0.5)], [hit('b', 1), hit('c', 0.9)], 0.8);
    expect(fused.map((h) => [h.id, Number(h.score.toFixed(3))])).toEqual([
      ['b', 0.6], // 0.8·0.5 + 0.2·1
      ['a', 0.48],
      ['c', 0.18],
    ]);
  });

  it('keeps the vector order on ties and treats an inventory item and a document with one id as two', () => {
    const item = { ...hit('x', 0.5), entityType: 'inventory_item' as const };
    const fused = fuseWeighted([hit('p', 0.5), hit('q', 0.5), item], [hit('x', 0)], 1);
    expect(fused.map((h) => `${h.entityType}:${h.id}`)).toEqual([
      'document:p',
      'document:q',
      'inventory_item:x',
      'document:x',
    ]);
  });

  it('keeps scores in [0, 1], clamps the weight, and takes the excerpt from either list', () => {
    const fused = fuseWeighted([hit('a', 1)], [hit('a', 1, 'the passage')], 7);
    expect(fused).toEqual([expect.objectContaining({ id: 'a', score: 1, excerpt: 'the passage' })]);
    expect(fuseWeighted([], [hit('k', 1)], -1)[0]!.score).toBe(1);
  });
});
