// Each format on generated fixtures, through the in-thread extractor (the same code the worker runs).
import iconv from 'iconv-lite';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalExtractor } from './local-extractor.ts';
import { ExtractionError } from './extractor.ts';
import { keepConfidentLines } from './ocr-engine.ts';
import { encodeText, makeDocx, makePdf, textImage } from './test-fixtures/generate-documents.ts';
import { wordDoc } from './test-fixtures/generate-containers.ts';

const extractor = createLocalExtractor();
afterAll(() => extractor.close());

const PARAGRAPH =
  'The migration of the Arctic tern is the longest of any bird. Each year it flies from its breeding grounds in the north to the Antarctic and back again, following the summer.';

describe('PDF', () => {
  it('reads the text layer page by page with title, author and creation date', async () => {
    const pdf = await makePdf({
      title: 'Arctic Terns',
      author: 'Ada Lovelace',
      subject: 'Birds',
      keywords: ['migration;', 'birds'],
      created: new Date('2021-03-04T05:06:07Z'),
      pages: [['Chapter one: the long flight', PARAGRAPH.slice(0, 80)], ['Chapter two: the return']],
    });
    const result = await extractor.extract({
      bytes: pdf,
      fileName: 'terns.pdf',
      declaredType: 'application/pdf',
    });
    expect(result.kind).toBe('pdf');
    expect(result.pages).toHaveLength(2);
    expect(result.pages![0]).toMatchObject({ n: 1, ocr: false });
    expect(result.pages![0]!.text).toContain('Chapter one: the long flight');
    expect(result.pages![1]!.text).toBe('Chapter two: the return');
    expect(result.text).toContain('Chapter one');
    expect(result.text).toContain('Chapter two');
    expect(result.metadata).toMatchObject({
      title: 'Arctic Terns',
      author: 'Ada Lovelace',
      subject: 'Birds',
      created: '2021-03-04T05:06:07.000Z',
      pageCount: 2,
    });
    expect(result.metadata.keywords).toEqual(expect.arrayContaining(['migration', 'birds']));
    expect(result.warnings).toEqual([]);
    expect(result.truncated).toBe(false);
  });

  it("OCRs pages that have no text layer and marks them as OCR'd", async () => {
    const pdf = await makePdf({
      pages: [['A typed cover page with enough words on it']],
      scannedPages: [['Invoice number 4711', 'Total due 128.50 EUR']],
    });
    const result = await extractor.extract({ bytes: pdf, fileName: 'scan.pdf' });
    expect(result.pages![0]!.ocr).toBe(false);
    expect(result.pages![1]!.ocr).toBe(true);
    expect(result.pages![1]!.text).toMatch(/Invoice number 4711/);
    expect(result.pages![1]!.text).toMatch(/128[.,]50/);
    expect(result.metadata.ocrConfidence).toBeGreaterThan(60);
  }, 60_000);

  it('caps OCR at maxOcrPages and says how many scanned pages were skipped', async () => {
    const pdf = await makePdf({
      scannedPages: [['First scanned page'], ['Second scanned page'], ['Third scanned page']],
    });
    const result = await extractor.extract(
      { bytes: pdf, fileName: 'scans.pdf' },
      { limits: { maxOcrPages: 1 } },
    );
    expect(result.pages!.filter((p) => p.ocr)).toHaveLength(1);
    expect(result.text).toMatch(/First scanned page/);
    expect(result.warnings).toContain("2 scanned pages were not OCR'd (limit 1 per file).");
    expect(result.truncated).toBe(true);
  }, 60_000);

  it('reads only maxPages pages and warns', async () => {
    const pdf = await makePdf({ pages: [['one page here'], ['two page here'], ['three page here']] });
    const result = await extractor.extract(
      { bytes: pdf, fileName: 'long.pdf' },
      { limits: { maxPages: 2, maxOcrPages: 1 } },
    );
    expect(result.pages).toHaveLength(2);
    expect(result.metadata.pageCount).toBe(3);
    expect(result.warnings).toContain('Only the first 2 of 3 pages were read (page limit).');
    expect(result.truncated).toBe(true);
  });
});

describe('DOCX and DOC', () => {
  it('reads a DOCX with mammoth and its core properties', async () => {
    const docx = await makeDocx({
      title: 'Tern Notes',
      creator: 'Grace Hopper',
      paragraphs: ['First paragraph.', PARAGRAPH],
    });
    const result = await extractor.extract({ bytes: docx, fileName: 'notes.docx' });
    expect(result.kind).toBe('docx');
    expect(result.text).toBe(`First paragraph.\n\n${PARAGRAPH}`);
    expect(result.metadata).toMatchObject({ title: 'Tern Notes', author: 'Grace Hopper' });
    expect(result.metadata.created).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(result.language).toBe('en');
  });

  it('reads a Word 97 .doc (generated CFB + FIB + piece table) with its SummaryInformation', async () => {
    const doc = wordDoc({
      paragraphs: ['Minutes of the bead committee', 'We agreed to order more glass beads in crimson.'],
      title: 'Bead Committee',
      author: 'Ada Lovelace',
      created: new Date('2019-05-06T07:08:09Z'),
    });
    const result = await extractor.extract({
      bytes: doc,
      fileName: 'minutes.doc',
      declaredType: 'application/msword',
    });
    expect(result.kind).toBe('doc');
    expect(result.text).toBe(
      'Minutes of the bead committee\nWe agreed to order more glass beads in crimson.',
    );
    expect(result.metadata).toMatchObject({
      title: 'Bead Committee',
      author: 'Ada Lovelace',
      created: '2019-05-06T07:08:09.000Z',
    });
  });
});

describe('TXT', () => {
  const text = 'Café déjà vu — naïve façade, 10 € “quoted”.\nSecond line: Grüße aus Köln.';
  it.each([
    ['utf-8', 'utf-8'],
    ['utf-8-bom', 'utf-8'],
    ['utf-16le-bom', 'utf-16le'],
    ['utf-16be-bom', 'utf-16be'],
    ['utf-16le', 'utf-16le'],
    ['windows-1252', 'windows-1252'],
  ] as const)('decodes %s text', async (encoding, expected) => {
    const result = await extractor.extract({ bytes: encodeText(text, encoding), fileName: 'note.txt' });
    expect(result.kind).toBe('txt');
    expect(result.text).toBe(text);
    expect(result.metadata.encoding).toBe(expected);
  });

  it('reads an uploaded HTML file named .txt as the text it is', async () => {
    const html = '<!doctype html><html><head><title>x</title></head><body><p>Hello</p></body></html>';
    const result = await extractor.extract({ bytes: Buffer.from(html), fileName: 'page.txt' });
    expect(result.kind).toBe('txt');
    expect(result.text).toBe(html);
  });
});

describe('HTML from a fetched URL', () => {
  const article = `<!doctype html><html lang="en"><head>
    <title>Terns | Bird Weekly</title>
    <meta property="og:title" content="Why Arctic terns chase the summer">
    <meta name="author" content="Jane Birder">
    <meta property="article:published_time" content="2024-06-01T10:00:00Z">
    <meta property="og:site_name" content="Bird Weekly">
    <meta name="description" content="The longest migration of any bird.">
    </head><body>
    <nav><a href="/">Home</a> <a href="/birds">Birds</a> <a href="/about">About us</a></nav>
    <article><h1>Why Arctic terns chase the summer</h1>
    <p>${PARAGRAPH}</p>
    <p>${PARAGRAPH.replace('Arctic tern', 'little bird')}</p>
    <p>Scientists tracked them with tiny geolocators weighing less than a paperclip, and found routes of more than seventy thousand kilometres a year.</p>
    </article>
    <footer>Copyright Bird Weekly. Subscribe to our newsletter for more.</footer>
    <script>console.log('tracking')</script>
    </body></html>`;

  it('keeps the article text and reads title, author, date and site from the metadata', async () => {
    const result = await extractor.extract({
      bytes: Buffer.from(article),
      fileName: 'terns',
      source: 'url',
      url: 'https://birds.example/terns',
    });
    expect(result.kind).toBe('html');
    expect(result.text).toContain('The migration of the Arctic tern is the longest');
    expect(result.text).toContain('seventy thousand kilometres');
    expect(result.text).not.toContain('tracking');
    expect(result.text).not.toContain('Subscribe to our newsletter');
    expect(result.text.split('\n\n').length).toBeGreaterThanOrEqual(3);
    expect(result.metadata).toMatchObject({
      title: 'Why Arctic terns chase the summer',
      author: 'Jane Birder',
      created: '2024-06-01T10:00:00.000Z',
      siteName: 'Bird Weekly',
      excerpt: 'The longest migration of any bird.',
    });
    expect(result.language).toBe('en');
  });

  it('decodes a windows-1252 page by its <meta charset>', async () => {
    const page = `<html><head><meta charset="windows-1252"><title>Caf\u00e9</title></head><body><article><p>${'Un caf\u00e9 cr\u00e8me co\u00fbte 3 \u20ac au march\u00e9. '.repeat(10)}</p></article></body></html>`;
    const result = await extractor.extract({
      bytes: iconv.encode(page, 'windows-1252'),
      fileName: 'p',
      source: 'url',
    });
    expect(result.text).toContain('Un café crème coûte 3 € au marché.');
    expect(result.language).toBe('fr');
  });

  it('reads author and date from JSON-LD when there are no meta tags', async () => {
    const page = `<html><head><title>Report</title><script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: 'Bead prices rise',
      author: [{ '@type': 'Person', name: 'Sam Reporter' }],
      datePublished: '2023-02-03',
      publisher: { '@type': 'Organization', name: 'Craft Times' },
    })}</script></head><body><article><p>${PARAGRAPH}</p><p>${PARAGRAPH}</p></article></body></html>`;
    const result = await extractor.extract({ bytes: Buffer.from(page), fileName: 'x.html', source: 'url' });
    expect(result.metadata).toMatchObject({
      title: 'Bead prices rise',
      author: 'Sam Reporter',
      created: '2023-02-03T00:00:00.000Z',
      publisher: 'Craft Times',
    });
  });
});

describe('images', () => {
  it('OCRs a PNG', async () => {
    const png = await textImage(['Glass beads, crimson, 200 pieces', 'Batch 2024-17']);
    const result = await extractor.extract({ bytes: png, fileName: 'label.png' });
    expect(result.kind).toBe('image');
    expect(result.text).toMatch(/Glass beads, crimson, 200 pieces/);
    expect(result.pages).toEqual([{ n: 1, text: result.text, ocr: true }]);
    expect(result.metadata.width).toBeGreaterThan(0);
  }, 30_000);

  it('OCRs a JPEG and tolerates a .jpg/.png name mix-up with a warning', async () => {
    const jpeg = await textImage(['Woven stool, teak, 45 cm'], { format: 'jpeg' });
    const result = await extractor.extract({ bytes: jpeg, fileName: 'stool.png' });
    expect(result.text).toMatch(/Woven stool, teak, 45 cm/);
    expect(result.warnings[0]).toMatch(/JPEG although its name says \.png/);
  }, 30_000);

  it('returns no text (not an error) for a photo without words, dropping shapes misread as letters', async () => {
    const shapes =
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#b42828"/><circle cx="400" cy="300" r="200" fill="#3a6"/><rect x="100" y="50" width="120" height="400" fill="#fd2" transform="rotate(20 160 250)"/><ellipse cx="600" cy="450" rx="150" ry="60" fill="#225"/></svg>';
    const photo = await sharp(Buffer.from(shapes)).jpeg().toBuffer();
    const result = await extractor.extract({ bytes: photo, fileName: 'bowl.jpg' });
    expect(result.text).toBe('');
    expect(result.warnings).toContain('No text was recognised in the image.');
  }, 30_000);
});

describe('limits and cancellation', () => {
  it('cuts text longer than maxTextChars and says so', async () => {
    const result = await extractor.extract(
      { bytes: Buffer.from('word '.repeat(1000)), fileName: 'a.txt' },
      { limits: { maxTextChars: 100 } },
    );
    expect(result.text.length).toBe(100);
    expect(result.truncated).toBe(true);
    expect(result.warnings[0]).toMatch(/cut to its first 100 characters/);
  });

  it('treats a malformed call as a programming error, not a user-facing reason', async () => {
    const err = await extractor
      .extract({ bytes: Buffer.from('x'), fileName: 42 as unknown as string })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
  });

  it('rejects with code aborted when the caller cancels', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      extractor.extract({ bytes: Buffer.from('hello'), fileName: 'a.txt' }, { signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'aborted',
    });
  });

  it('rejects with code timeout when the time limit passes (cooperative in-thread)', async () => {
    const png = await textImage(['Some text to read slowly'], { width: 3000, fontSize: 60 });
    const err = await extractor
      .extract({ bytes: png, fileName: 'a.png' }, { limits: { timeoutMs: 5 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect(err).toMatchObject({
      code: 'timeout',
      message: 'Processing this file took longer than the 5 ms limit, so it was stopped.',
    });
  });
});

describe('keepConfidentLines', () => {
  it('keeps confident lines with letters or digits, per paragraph, and averages their confidence by length', () => {
    const blocks = [
      {
        paragraphs: [
          {
            lines: [
              { text: 'Total due 128.50\n', confidence: 90 },
              { text: 'I|\n', confidence: 20 },
            ],
          },
          {
            lines: [
              { text: '~ -\n', confidence: 80 },
              { text: 'Thanks\n', confidence: 60 },
            ],
          },
        ],
      },
    ];
    const result = keepConfidentLines(blocks, 'raw', 50);
    expect(result.text).toBe('Total due 128.50\n\nThanks');
    expect(result.confidence).toBeCloseTo((90 * 17 + 60 * 7) / 24, 5);
    expect(keepConfidentLines(null, 'raw', 50)).toEqual({ text: 'raw', confidence: 50 });
  });
});
