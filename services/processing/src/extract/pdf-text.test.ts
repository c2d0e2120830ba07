// The PDF text repairs TeX's fonts need: f-ligatures that arrive as control characters.
import { describe, expect, it } from 'vitest';
import { storableText } from './storable-text.ts';
import { texLigatures } from './pdf-extractor.ts';

describe('texLigatures', () => {
  it('reads T1-encoded f-ligatures back as letters (the survival vignettes’ titles)', () => {
    expect(texLigatures('Roundo\u001b error and Tied Times')).toBe('Roundoff error and Tied Times');
    expect(texLigatures('Coe\u001ecients, \u001cnd, \u001dow, ba\u001fe')).toBe(
      'Coefficients, find, flow, baffle',
    );
  });

  it('leaves control characters away from letters to the storable-text pass', () => {
    expect(storableText(texLigatures('a \u001b b'))).toBe('a   b');
  });
});
