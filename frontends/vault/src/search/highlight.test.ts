// Query words are highlighted literally, whatever characters they contain.
import { describe, expect, it } from 'vitest';
import { escapeRegExp, highlightParts, queryWords } from './highlight.ts';

const marked = (text: string, q: string) =>
  highlightParts(text, q)
    .map((p) => (p.match ? `[${p.text}]` : p.text))
    .join('');

describe('highlight', () => {
  it('marks every query word case-insensitively', () => {
    expect(marked('Red radio, crimson RED case', 'red case')).toBe('[Red] radio, crimson [RED] [case]');
  });

  it('treats regex metacharacters literally', () => {
    expect(marked('costs $5.00 (approx.) or 5x00', '$5.00 (approx.)')).toBe(
      'costs [$5.00] [(approx.)] or 5x00',
    );
    expect(marked('a+b [c] back\\slash', 'a+b [c] \\')).toBe('[a+b] [[c]] back[\\]slash');
    expect(() => highlightParts('x', '(((')).not.toThrow();
    expect(escapeRegExp('.*+?^${}()|[]\\')).toBe('\\.\\*\\+\\?\\^\\$\\{\\}\\(\\)\\|\\[\\]\\\\');
  });

  it('prefers the longest word and leaves text alone for a blank query', () => {
    expect(queryWords('bead  beads BEAD')).toEqual(['beads', 'bead']);
    expect(marked('beads', 'bead beads')).toBe('[beads]');
    expect(highlightParts('plain', '   ')).toEqual([{ text: 'plain', match: false }]);
    expect(highlightParts('', 'x')).toEqual([]);
  });

  it('handles unicode and emoji', () => {
    expect(marked('Café ☕ crème', 'CAFÉ ☕')).toBe('[Café] [☕] crème');
  });
});
