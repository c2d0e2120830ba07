import { describe, expect, it } from 'vitest';
import { changedAgo, moveItem } from './reorder.ts';

describe('kaboodle reorder helpers', () => {
  it('moves one member to a new place, keeping the others in order', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, 99)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });

  it('says how long ago a kaboodle changed', () => {
    const now = Date.parse('2026-03-18T12:00:00Z');
    expect(changedAgo('2026-03-18T11:59:30Z', now)).toBe('just now');
    expect(changedAgo('2026-03-18T11:57:00Z', now)).toBe('3 minutes ago');
    expect(changedAgo('2026-03-18T10:00:00Z', now)).toBe('2 hours ago');
    expect(changedAgo('2026-03-17T12:00:00Z', now)).toBe('1 day ago');
  });
});
