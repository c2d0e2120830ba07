// Encoding decisions on real encodings of real text, and the binary/text boundary.
import { describe, expect, it } from 'vitest';
import { decodeText, looksLikeHtml, looksLikeText } from './text-decode.ts';
import { encodeText } from './test-fixtures/generate-documents.ts';
import { detectLanguage } from './language.ts';

describe('decodeText', () => {
  it('guesses a Central European 8-bit encoding from the letters used', () => {
    const text =
      'Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig. Żółta łódź płynęła po rzece, a ślimak się śmiał.';
    const decoded = decodeText(encodeText(text, 'iso-8859-2'));
    expect(decoded?.encoding).toMatch(/^(iso-8859-2|windows-1250)$/);
    expect(decoded?.text).toBe(text);
  });

  it('guesses Shift_JIS for Japanese text', () => {
    const text =
      '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。';
    const decoded = decodeText(encodeText(text, 'shift_jis'));
    expect(decoded).toEqual({ text, encoding: 'shift_jis', hadBom: false });
  });

  it('reads UTF-16 big-endian without a BOM from its zero bytes', () => {
    const bytes = Buffer.from('Plain ASCII words in UTF-16BE', 'utf16le').swap16();
    expect(decodeText(bytes)).toMatchObject({ text: 'Plain ASCII words in UTF-16BE', encoding: 'utf-16be' });
  });

  it('keeps UTF-8 with a few stray Latin-1 bytes as UTF-8 and counts the replacements', () => {
    const good = 'Grüße aus Köln, café crème, naïve façade. '.repeat(20);
    const bytes = Buffer.concat([
      Buffer.from(good),
      Buffer.from([0xe9]),
      Buffer.from(' and more text after it.'),
    ]);
    expect(decodeText(bytes)).toMatchObject({ encoding: 'utf-8', replaced: 1 });
    expect(decodeText(bytes)?.text).toContain('Grüße aus Köln');
  });

  it('calls bytes with NULs or many control characters binary', () => {
    expect(decodeText(Buffer.from([0x41, 0x00, 0x42, 0x43, 0x00, 0x00, 0x01, 0x02]))).toBeNull();
    expect(looksLikeText(Buffer.from(Array.from({ length: 500 }, (_, i) => (i % 31) + 1)))).toBe(false);
    expect(looksLikeText(Buffer.from('tabs\tand\r\nnewlines\n'))).toBe(true);
  });

  it('does not call a UTF-8 file binary because the sample cut a character in half', () => {
    const text = 'é'.repeat(40_000); // 80 000 bytes: the 64 KiB sample ends mid-sequence
    expect(looksLikeText(Buffer.from(text))).toBe(true);
    expect(decodeText(Buffer.from(text))?.encoding).toBe('utf-8');
  });
});

describe('looksLikeHtml', () => {
  it('recognises documents, not prose that mentions tags', () => {
    expect(looksLikeHtml('  <!DOCTYPE html><html>')).toBe(true);
    expect(looksLikeHtml('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">')).toBe(true);
    expect(looksLikeHtml('<head><title>x</title></head>')).toBe(true);
    expect(looksLikeHtml('Use <b> for bold in HTML.')).toBe(false);
  });
});

describe('detectLanguage', () => {
  it('names the language of enough text, and stays silent on too little', () => {
    expect(
      detectLanguage(
        'Der schnelle braune Fuchs springt über den faulen Hund und läuft danach weiter in den dunklen Wald hinein.',
      ),
    ).toBe('de');
    expect(
      detectLanguage(
        'Le renard brun rapide saute par-dessus le chien paresseux et court ensuite dans la forêt sombre.',
      ),
    ).toBe('fr');
    expect(detectLanguage('Hello there')).toBeUndefined();
  });
});
