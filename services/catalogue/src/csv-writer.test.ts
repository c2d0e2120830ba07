import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv-writer.ts';
import { safeContentType } from './content-types.ts';

describe('csvCell', () => {
  it('quotes fields with commas, quotes, CR or LF and doubles the quotes (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it('defuses formulas: text starting with = + - @ tab or CR gets a leading apostrophe', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+33 1 23')).toBe("'+33 1 23");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('=HYPERLINK("x"),y')).toBe('"\'=HYPERLINK(""x""),y"');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes numbers as numbers, empties for null, and ends records with CRLF', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(new Date('2024-01-02T03:04:05Z'))).toBe('2024-01-02T03:04:05.000Z');
    expect(csvRow(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
  });
});

describe('safeContentType', () => {
  it('sends unknown types as bytes to save', () => {
    expect(safeContentType('application/pdf')).toBe('application/pdf');
    expect(safeContentType('text/plain')).toBe('text/plain; charset=utf-8');
    expect(safeContentType('image/svg+xml')).toBe('application/octet-stream');
    expect(safeContentType('')).toBe('application/octet-stream');
  });
});
