// The result fields (docs/product.md#search): title/name/"Untitled", description/content, type label and
// match percentage.
import { describe, expect, it } from 'vitest';
import { hitDescription, hitTitle, matchPercent, typeLabel } from './search-api.ts';

describe('unified search results', () => {
  it('titles a result by its title, else its name, else "Untitled"', () => {
    expect(hitTitle({ type: 'document', id: '1', title: 'Report', name: '' })).toBe('Report');
    expect(hitTitle({ type: 'inventory_item', id: '2', title: '', name: 'Red bowl' })).toBe('Red bowl');
    expect(hitTitle({ type: 'inventory_item', id: '3', title: ' ', name: '' })).toBe('Untitled');
  });

  it('describes a result by its description, else its content', () => {
    expect(hitDescription({ type: 'document', id: '1', description: '', content: 'Body' })).toBe('Body');
    expect(hitDescription({ type: 'inventory_item', id: '2', description: 'Blue', content: 'x' })).toBe(
      'Blue',
    );
  });

  it('shows round(score × 100) only when a score exists', () => {
    expect(matchPercent(0.834)).toBe(83);
    expect(matchPercent(0.835)).toBe(84);
    expect(matchPercent(0)).toBe(0);
    expect(matchPercent(null)).toBeNull();
    expect(matchPercent(undefined)).toBeNull();
    expect(matchPercent(Number.NaN)).toBeNull();
  });

  it('labels the two kinds the way the spec names them', () => {
    expect(typeLabel({ type: 'inventory_item', id: '1' })).toBe('Inventory Item');
    expect(typeLabel({ type: 'document', id: '1' })).toBe('Document');
  });
});
