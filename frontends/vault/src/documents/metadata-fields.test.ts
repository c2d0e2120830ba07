// Inline metadata editing: validation and a patch with only the changed fields.
import { describe, expect, it } from 'vitest';
import { formFrom, patchFrom, validateForm } from './metadata-fields.ts';
import { doc } from './test-documents.ts';

const base = doc('d1', {
  title: 'On Liberty',
  publication_year: 1859,
  influenced_by: ['Bentham'],
  hashtags: [
    { tag: 'freedom', relevancy: 0.9 },
    { tag: 'ethics', relevancy: 0.5 },
  ],
});

describe('metadata editing', () => {
  it('sends only what changed', () => {
    expect(patchFrom(base, formFrom(base))).toEqual({});
    expect(patchFrom(base, { ...formFrom(base), title: '  On Liberty (1859) ' })).toEqual({
      title: 'On Liberty (1859)',
    });
    expect(patchFrom(base, { ...formFrom(base), publication_year: '' })).toEqual({ publication_year: null });
    expect(patchFrom(base, { ...formFrom(base), influenced_by: 'Bentham, Humboldt,  ' })).toEqual({
      influenced_by: ['Bentham', 'Humboldt'],
    });
  });

  it('keeps the relevancy of kept tags and gives new ones 1', () => {
    expect(patchFrom(base, { ...formFrom(base), hashtags: '#ethics, liberty' }).hashtags).toEqual([
      { tag: 'ethics', relevancy: 0.5 },
      { tag: 'liberty', relevancy: 1 },
    ]);
  });

  it('requires a title and a whole, not future, year', () => {
    const now = new Date('2026-06-01');
    expect(validateForm(formFrom(base), now)).toEqual({});
    expect(validateForm({ ...formFrom(base), title: '  ' }, now).title).toBe('Title is required');
    expect(validateForm({ ...formFrom(base), publication_year: '19.5' }, now).publication_year).toMatch(
      /whole number/,
    );
    expect(validateForm({ ...formFrom(base), publication_year: 'abc' }, now).publication_year).toMatch(
      /whole number/,
    );
    expect(validateForm({ ...formFrom(base), publication_year: '2030' }, now).publication_year).toBe(
      'Year cannot be after 2027',
    );
    expect(validateForm({ ...formFrom(base), publication_year: '-380' }, now)).toEqual({});
    expect(validateForm({ ...formFrom(base), author: 'x'.repeat(501) }, now).author).toMatch(/too long/);
  });
});
