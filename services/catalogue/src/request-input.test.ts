import { describe, expect, it } from 'vitest';
import { InputError } from '@kaboodle/platform';
import { normaliseTag, parseInventoryPatch, parsePage, parseQuery } from './request-input.ts';

describe('request input', () => {
  it('pages default to 1 and 20 and stay within 1..100', () => {
    expect(parsePage({})).toEqual({ page: 1, limit: 20 });
    expect(parsePage({ page: '3', limit: '100' })).toEqual({ page: 3, limit: 100 });
    expect(() => parsePage({ limit: '1e2' })).toThrow(InputError);
    expect(() => parsePage({ page: ['1', '2'] })).toThrow('page must be given once');
  });

  it('trims the keyword and bounds it', () => {
    expect(parseQuery({ query: '  beads ' }, true)).toBe('beads');
    expect(parseQuery({ query: '   ' }, false)).toBeUndefined();
    expect(() => parseQuery({}, true)).toThrow('Search query is required');
    expect(() => parseQuery({ query: 'x'.repeat(501) }, true)).toThrow(
      'Search query is too long (max 500 characters)',
    );
  });

  it('normalises tags the way processing writes them', () => {
    expect(normaliseTag('#Machine Learning')).toBe('machine-learning');
    expect(normaliseTag('#MachineLearning')).toBe('machine-learning');
    expect(normaliseTag('  ##beads_and_more ')).toBe('beads-and-more');
    expect(normaliseTag('Café & Bar')).toBe('cafe-and-bar');
    expect(normaliseTag('!!!')).toBeNull();
    expect(normaliseTag('a'.repeat(65))).toBe('a'.repeat(48));
  });

  it('reads an inventory edit: prices to the cent, currency upper-cased', () => {
    expect(parseInventoryPatch({ retail_price: 12.345, import_cost: null, currency: 'eur' })).toEqual({
      retail_price: 12.35,
      import_cost: null,
      currency: 'EUR',
    });
    expect(() => parseInventoryPatch({ currency: 'euro' })).toThrow(InputError);
    expect(() => parseInventoryPatch({ name: '' })).toThrow('name must not be empty');
  });
});
