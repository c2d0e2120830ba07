// Fusion and calibrated match percentages on hand-made lists: what the evaluation sets showed the
// old scores getting wrong (a weak top hit shown as 100 %, a fixed vector share outvoting words).
import { describe, expect, it } from 'vitest';
import type { SearchHit } from './index/search-index.port.ts';
import { calibrateList, fuseHybrid, GOOD_MATCH, matchProbability, queryWordCount } from './ranking.ts';

const hit = (
  id: string,
  raw: number,
  excerpt?: string,
  entityType: SearchHit['entityType'] = 'document',
): SearchHit => ({
  entityType,
  id,
  title: id,
  description: '',
  content: '',
  url: '',
  imageUrl: '',
  category: '',
  hashtags: [],
  score: 1,
  raw,
  ...(excerpt !== undefined ? { excerpt } : {}),
});

describe('calibrated match percentages', () => {
  it('does not make a weak keyword top hit 100 %: one word of four matched is a weak match', () => {
    // "something to carry groceries in" matching "carry" once in a ceramics paper.
    const weak = calibrateList(
      'keyword',
      [hit('ceramics', 3.1), hit('glaze', 2.0)],
      'something to carry groceries in',
      40,
    );
    expect(weak[0]!.score).toBeLessThan(GOOD_MATCH);
    const strong = calibrateList('keyword', [hit('open.2', 24)], 'open and possibly create a file', 800);
    expect(strong[0]!.score).toBeGreaterThan(GOOD_MATCH);
  });

  it('reads BM25 on the library’s scale: every word matched in a library of three is a good match', () => {
    // BM25 of a word in one document of three is small (idf 0.98): the same evidence as 6.3 in 800.
    expect(
      calibrateList('keyword', [hit('recipe', 4)], 'sourdough starter feeding', 3)[0]!.score,
    ).toBeGreaterThan(GOOD_MATCH);
    expect(
      calibrateList('keyword', [hit('recipe', 4)], 'sourdough starter feeding', 800)[0]!.score,
    ).toBeLessThan(GOOD_MATCH);
  });

  it('means the same in every mode: more evidence, higher probability; never above the hit before', () => {
    expect(matchProbability('semantic', { cosine: 0.7 }, 3, 40)).toBeGreaterThan(
      matchProbability('semantic', { cosine: 0.2 }, 3, 40),
    );
    expect(matchProbability('hybrid', { cosine: 0.5, bm25: 20 }, 4, 40)).toBeGreaterThan(
      matchProbability('hybrid', { cosine: 0.5, bm25: 2 }, 4, 40),
    );
    const scores = calibrateList('keyword', [hit('a', 5), hit('b', 30)], 'two words', 40).map((h) => h.score);
    expect(scores[1]).toBeLessThanOrEqual(scores[0]!);
    expect(queryWordCount('the value of doing nothing')).toBe(3);
  });
});

describe('hybrid fusion', () => {
  it('lets a document both lists agree on lead, and keeps the keyword winner above vector noise', () => {
    // Vector cosines bunched together (an embedder that knows little of the domain): words decide.
    const byVector = [hit('noise1', 0.41), hit('noise2', 0.4), hit('target', 0.39)];
    const byWords = [hit('target', 18), hit('other', 6)];
    expect(fuseHybrid(byVector, byWords, 'terminate the calling process', 800).map((h) => h.id)[0]).toBe(
      'target',
    );
    // A clear vector winner with no words in common still comes first.
    const clear = fuseHybrid([hit('bees', 0.8), hit('x', 0.3)], [hit('y', 2)], 'rooftop honeybees', 40);
    expect(clear[0]!.id).toBe('bees');
  });

  it('treats an item and a document with one id as two, takes the excerpt from either list, scores in [0, 1]', () => {
    const fused = fuseHybrid(
      [hit('x', 0.5), hit('x', 0.5, undefined, 'inventory_item')],
      [hit('x', 9, 'the passage')],
      'x marks',
      40,
    );
    expect(fused.map((h) => `${h.entityType}:${h.id}`).sort()).toEqual(['document:x', 'inventory_item:x']);
    expect(fused.find((h) => h.entityType === 'document')!.excerpt).toBe('the passage');
    for (const h of fused) expect(h.score).toBeGreaterThanOrEqual(0);
    for (const h of fused) expect(h.score).toBeLessThanOrEqual(1);
  });

  it('can still rank by RRF or a weighted sum when configured', () => {
    const byVector = [hit('a', 0.9), hit('b', 0.8)];
    const byWords = [hit('b', 10), hit('c', 9)];
    expect(fuseHybrid(byVector, byWords, 'q', 40, { method: 'rrf' })[0]!.id).toBe('b');
    expect(fuseHybrid(byVector, byWords, 'q', 40, { method: 'weighted', vectorWeight: 1 })[0]!.id).toBe('a');
  });
});
