// Colour names by CIEDE2000: the formula against the published reference pairs, and colours that
// plain Lab distance (ΔE76) misnamed on real photos because lightness outweighed hue.
import { describe, expect, it } from 'vitest';
import { colorName, deltaE2000 } from './color-names.ts';

describe('deltaE2000', () => {
  // Sharma, Wu and Dalal (2005), table 1: pairs 1, 17 and 34.
  it.each([
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ] as const)('%j against %j is %d', (a, b, expected) => {
    expect(deltaE2000([...a], [...b])).toBeCloseTo(expected, 4);
    expect(deltaE2000([...b], [...a])).toBeCloseTo(expected, 4);
  });
});

describe('colorName', () => {
  it('names hue before lightness', () => {
    // A peach-orange petal and a slate-blue sky were "terracotta" and "charcoal" by ΔE76.
    expect(colorName('#d9884a')).toBe('orange');
    expect(colorName('#4a6281')).toBe('blue');
  });

  it('keeps the plain names', () => {
    expect(colorName('#c43c2c')).toBe('red');
    expect(colorName('#1b2a5c')).toBe('navy');
    expect(colorName('#fdfdfd')).toBe('white');
    expect(colorName('#7b4a2a')).toBe('brown');
    expect(colorName('#111111')).toBe('black');
    expect(colorName('#2E8B57')).toBe(colorName('#2e8b57'));
  });

  it('names the saturated primaries and secondaries as a person does', () => {
    // Pure blue was "indigo" and pure magenta "violet": the palette's shades of those names are muted.
    expect(colorName('#0000ff')).toBe('blue');
    expect(colorName('#1a3fe0')).toBe('blue');
    expect(colorName('#ff00ff')).toBe('magenta');
    expect(colorName('#ff0000')).toBe('red');
    expect(colorName('#00ff00')).toBe('lime');
    expect(colorName('#ffff00')).toBe('yellow');
  });
});
