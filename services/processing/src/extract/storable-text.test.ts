// What the catalogue's PostgreSQL refused: NULs and lone surrogates from formula-heavy PDFs.
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalExtractor } from './local-extractor.ts';
import { storableMetadata, storableText } from './storable-text.ts';
import { makePdf } from './test-fixtures/generate-documents.ts';

describe('storable text', () => {
  it('replaces NUL, C0 controls and lone surrogates one for one, and keeps everything else', () => {
    const raw = 'a\u0000b\u0007c\td\ne\r\nf \ud835\udc65 \ud835 x \udc65 é';
    const clean = storableText(raw);
    expect(clean).toBe('a b c\td\ne\r\nf \ud835\udc65 \ufffd x \ufffd é');
    expect(clean).toHaveLength(raw.length);
    expect(storableMetadata({ title: 'R\u0000 manual\u0000', keywords: ['a\u0000'] })).toEqual({
      title: 'R  manual',
      keywords: ['a '],
    });
  });

  describe('through the extractor', () => {
    const extractor = createLocalExtractor();
    afterAll(() => extractor.close());
    it('gives no NUL to the catalogue, from the text layer or the metadata', async () => {
      const pdf = await makePdf({
        title: 'Errata\u0000 and vignette',
        pages: [['Applied econometrics with R']],
      });
      const r = await extractor.extract({ bytes: pdf, fileName: 'aer.pdf', declaredType: 'application/pdf' });
      expect(r.metadata.title).toBe('Errata  and vignette');
      expect(JSON.stringify(r)).not.toContain('\\u0000');
    });
  });
});
