import { describe, expect, it } from 'vitest';
import { parseInstructions } from './instructions.ts';
import { normaliseTag, reconcileTags, tagKey } from './tag-vocabulary.ts';

describe('tag vocabulary', () => {
  it('normalises every spelling to lower-case kebab', () => {
    expect(normaliseTag('#MachineLearning')).toBe('machine-learning');
    expect(normaliseTag('machine_learning')).toBe('machine-learning');
    expect(normaliseTag('  Café Culture ')).toBe('cafe-culture');
    expect(normaliseTag('R&D')).toBe('r-and-d');
  });

  it('treats plural and inflected forms as the same tag', () => {
    expect(tagKey('contracts')).toBe(tagKey('contract'));
    expect(tagKey('policies')).toBe(tagKey('policy'));
  });

  it('reuses the user’s spelling of an existing tag and prefers it to a new one of equal relevancy', () => {
    const tags = reconcileTags(
      [
        { tag: 'Contracts', relevancy: 0.6 },
        { tag: 'negotiation', relevancy: 0.6 },
      ],
      [{ tag: 'contract', count: 12 }],
    );
    expect(tags[0]).toMatchObject({ tag: 'contract', existing: true });
    expect(tags[0]!.relevancy).toBeGreaterThan(tags[1]!.relevancy);
    expect(tags[1]).toMatchObject({ tag: 'negotiation', existing: false });
  });

  it('keeps relevancy in [0,1], drops weak and numeric tags, and caps the count', () => {
    const tags = reconcileTags(
      [
        { tag: 'a-lot', relevancy: 3 },
        { tag: '2019', relevancy: 0.9 },
        { tag: 'weak', relevancy: 0.05 },
        ...Array.from({ length: 20 }, (_, i) => ({ tag: `tag-${i}x`, relevancy: 0.5 })),
      ],
      [],
      { max: 5 },
    );
    expect(tags).toHaveLength(5);
    expect(tags[0]).toMatchObject({ tag: 'a-lot', relevancy: 1 });
    expect(tags.map((t) => t.tag)).not.toContain('2019');
    expect(tags.map((t) => t.tag)).not.toContain('weak');
  });
});

describe('offline instruction directives', () => {
  it('reads requested tags, category, field and year; ignores free prose', () => {
    const d = parseInstructions(
      'Please be thorough.\ntags: legal tech, Contract Law; category: Legal Memo\nfield = Law\nyear: 2021\n#urgent',
    );
    expect(d.tags).toEqual(['legal tech', 'Contract Law', 'urgent']);
    expect(d).toMatchObject({ category: 'Legal Memo', field: 'Law', year: 2021 });
  });

  it('understands a requested summary length', () => {
    expect(parseInstructions('Give me a 2 sentences summary').summarySentences).toBe(2);
    expect(parseInstructions('short summary please').summarySentences).toBe(1);
  });
});
