import { InputError } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import { guessMapping, parseAmount, planImport } from './inventory-import.ts';

describe('inventory CSV import', () => {
  it('reads amounts as people write them, and nothing else', () => {
    expect(parseAmount('$1,234.50')).toBe(1234.5);
    expect(parseAmount('12')).toBe(12);
    expect(parseAmount(' .5 ')).toBe(0.5);
    expect(parseAmount('USD 7.25')).toBe(7.25);
    expect(parseAmount('')).toBeNull();
    for (const bad of ['abc', '1,23', '-5', '12.3.4', '$', '1e5']) expect(parseAmount(bad)).toBeUndefined();
  });

  it('maps each field from one column at most, best word first', () => {
    expect(guessMapping(['Title', 'Name', 'Price', 'Retail Price', 'Colour'])).toEqual({
      Title: '',
      Name: 'name',
      Price: '',
      'Retail Price': 'retail_price',
      Colour: 'color',
    });
  });

  it('strips the export formula guard, keeps real apostrophes, and normalises categories and tags', () => {
    const plan = planImport(
      'name,description,category,hashtags\n\'=SUM(A1),\'tis a bowl,home decor,"#Red Things; red;  "\n',
    );
    expect(plan.rows[0]!.fields).toEqual({
      name: '=SUM(A1)',
      description: "'tis a bowl",
      category: 'Home Decor',
      hashtags: [
        { tag: 'red-things', relevancy: 1 },
        { tag: 'red', relevancy: 1 },
      ],
    });
  });

  it('numbers rows by the line they start on, blank lines and quoted line breaks included', () => {
    const plan = planImport('\nName,Price\n\nA,1\n"B\nstill B",x\nC,3\n');
    expect(plan.rows.map((r) => [r.line, r.fields.name, r.errors])).toEqual([
      [4, 'A', []],
      [5, 'B\nstill B', ['Price "x" is not an amount']],
      [7, 'C', []],
    ]);
  });

  it('refuses a file without a name column, and a mapping naming a missing column', () => {
    expect(() => planImport('a,b\n1,2\n')).toThrow(InputError);
    expect(() => planImport('Name\nx\n', { Nom: 'name' })).toThrow(
      'mapping names a column the CSV does not have: "Nom"',
    );
    expect(() => planImport('A,B\nx,y\n', { A: 'name', B: 'name' })).toThrow(
      'mapping reads name from more than one column',
    );
  });

  it('flags a row with more cells than the header names', () => {
    expect(planImport('Name\nA,extra\n').rows[0]!.errors).toEqual([
      'has 2 cells; the header names 1 columns',
    ]);
  });
});
