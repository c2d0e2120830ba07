// The bad-input corpus (issue 4), through the production path: createPooledExtractor, i.e. real
// worker threads with hard time and memory limits. Every case must end as a specific, readable
// failure or a graceful partial result, never a crash, a hang or runaway memory.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPooledExtractor } from './pooled-extractor.ts';
import { ExtractionError, type ExtractInput, type ExtractOptions, type Extractor } from './extractor.ts';
import {
  encodeText,
  encryptPdf,
  hasQpdf,
  hugePng,
  makeDocx,
  makePdf,
  textImage,
} from './test-fixtures/generate-documents.ts';
import {
  encryptedDocxEnvelope,
  wordDoc,
  writeZip,
  zipBombDocx,
} from './test-fixtures/generate-containers.ts';

let extractor: Extractor;
let dir: string;
const qpdf = await hasQpdf();

beforeAll(async () => {
  extractor = createPooledExtractor({ threads: 1, limits: { timeoutMs: 60_000 } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'kaboodle-bad-input-'));
});
afterAll(async () => {
  await extractor.close();
  await rm(dir, { recursive: true, force: true });
});

async function failure(
  input: ExtractInput,
  opts?: ExtractOptions,
  on: Extractor = extractor,
): Promise<ExtractionError> {
  const outcome = await on.extract(input, opts).then(
    (result) => result,
    (err: unknown) => err,
  );
  if (!(outcome instanceof ExtractionError)) {
    throw new Error(
      `expected an ExtractionError, got ${outcome instanceof Error ? outcome.stack : JSON.stringify(outcome)}`,
    );
  }
  return outcome;
}

describe('bad input ends as a clear reason or a partial result', () => {
  it('an empty file', async () => {
    const err = await failure({ bytes: new Uint8Array(0), fileName: 'empty.pdf' });
    expect(err).toMatchObject({ code: 'empty', message: 'The file is empty.' });
  });

  it('a PNG named .pdf', async () => {
    const err = await failure({ bytes: await textImage(['not a pdf']), fileName: 'report.pdf' });
    expect(err).toMatchObject({
      code: 'type_mismatch',
      message: "The file's content is PNG, but its name says .pdf",
    });
  });

  it('a corrupt PDF (header, then garbage)', async () => {
    const bytes = Buffer.concat([
      Buffer.from('%PDF-1.7\n'),
      Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 251)),
    ]);
    const err = await failure({ bytes, fileName: 'broken.pdf' });
    expect(err.code).toBe('corrupt');
    expect(err.message).toMatch(/^The PDF (is damaged|could not be opened)/);
  });

  it('a truncated PDF: pdf.js recovers what it can, or the reason says it is damaged', async () => {
    const full = await makePdf({
      pages: Array.from({ length: 6 }, (_, i) => [
        `Page ${i + 1} of the truncated report`,
        'More words on this page.',
      ]),
    });
    const outcome = await extractor
      .extract({ bytes: full.subarray(0, Math.floor(full.length * 0.6)), fileName: 'cut.pdf' })
      .catch((e: unknown) => e);
    if (outcome instanceof ExtractionError) {
      expect(['corrupt', 'empty']).toContain(outcome.code);
    } else {
      expect(outcome).toMatchObject({ kind: 'pdf' });
      expect((outcome as { text: string }).text).toMatch(/Page 1 of the truncated report/);
    }
  });

  it.skipIf(!qpdf)('a password-protected PDF (encrypted with qpdf)', async () => {
    const locked = await encryptPdf(await makePdf({ pages: [['top secret']] }));
    const err = await failure({ bytes: locked, fileName: 'locked.pdf' });
    expect(err).toMatchObject({
      code: 'password_protected',
      message: 'This PDF is password-protected; remove the password and upload it again.',
    });
  });
  it.skipIf(!qpdf)('a PDF with only an owner password (no user password) is read normally', async () => {
    const restricted = await encryptPdf(await makePdf({ pages: [['printable but not editable']] }), '');
    const result = await extractor.extract({ bytes: restricted, fileName: 'restricted.pdf' });
    expect(result.text).toBe('printable but not editable');
  });
  if (!qpdf)
    console.warn(
      'skipped: the two encrypted-PDF cases need qpdf (apt-get install qpdf); pdf-lib cannot encrypt',
    );

  it('a truncated DOCX', async () => {
    const docx = await makeDocx({ paragraphs: ['A document that will be cut in half.'] });
    const err = await failure({ bytes: docx.subarray(0, Math.floor(docx.length / 2)), fileName: 'cut.docx' });
    expect(err.code).toBe('corrupt');
    expect(err.message).toMatch(/^The Word document is damaged or incomplete/);
  });

  it('a DOCX whose document.xml is not XML', async () => {
    const bytes = writeZip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'word/document.xml', data: Buffer.from('this is <<< not xml') },
    ]);
    const err = await failure({ bytes, fileName: 'bad.docx' });
    expect(err.code).toBe('corrupt');
  });

  it('a password-protected DOCX (Office encryption envelope)', async () => {
    const err = await failure({ bytes: encryptedDocxEnvelope(), fileName: 'locked.docx' });
    expect(err).toMatchObject({
      code: 'password_protected',
      message: 'This Word document is password-protected; remove the password and upload it again.',
    });
  });

  it('a password-protected DOC (FIB fEncrypted)', async () => {
    const err = await failure({
      bytes: wordDoc({ paragraphs: ['ciphertext'], encrypted: true }),
      fileName: 'locked.doc',
    });
    expect(err.code).toBe('password_protected');
  });

  it('a DOCX zip bomb whose directory tells the truth (refused from the directory alone)', async () => {
    const bomb = zipBombDocx(64 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const err = await failure({ bytes: bomb, fileName: 'bomb.docx' });
    expect(err.code).toBe('too_large');
    expect(err.message).toMatch(
      /^This Word document was not opened because "word\/media\/payload.bin" expands \d+ times/,
    );
  });

  it('a DOCX zip bomb whose directory lies about the sizes (caught while inflating under a cap)', async () => {
    const err = await failure({ bytes: zipBombDocx(64 * 1024 * 1024, { lie: true }), fileName: 'liar.docx' });
    expect(err.code).toBe('too_large');
    expect(err.message).toMatch(/inflates past its declared size/);
  });

  it('a 30000×30000 PNG of ~19 MB: scaled down from its header size, OCR’d, bounded memory', async () => {
    const png = await hugePng();
    expect(png.length).toBeGreaterThan(15 * 1024 * 1024);
    expect(png.length).toBeLessThanOrEqual(20 * 1024 * 1024);
    const file = path.join(dir, 'huge.png');
    await writeFile(file, png);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const result = await extractor.extract({ bytes: file, fileName: 'huge.png' });
      expect(result.kind).toBe('image');
      expect(result.metadata).toMatchObject({ width: 30_000, height: 30_000 });
      expect(
        result.warnings.some((w) =>
          w.startsWith('The image (30000×30000 pixels) was scaled down to 3500×3500'),
        ),
      ).toBe(true);
    } finally {
      clearInterval(sampler);
    }
    // Decoded whole, the image alone would be 900 MB; streamed shrink-on-load stays far below.
    const growthMb = (peak - before) / 1024 / 1024;
    console.log(`30k×30k PNG: process RSS grew by ${growthMb.toFixed(0)} MB`);
    expect(growthMb).toBeLessThan(700);
  }, 90_000);

  it('an image whose header claims more pixels than the limit (refused before decoding)', async () => {
    const png = Buffer.from(await textImage(['x']));
    png.writeUInt32BE(100_000, 16);
    png.writeUInt32BE(100_000, 20);
    const err = await failure({ bytes: png, fileName: 'giant.png' });
    expect(err).toMatchObject({
      code: 'too_large',
      message: 'The image is 100000×100000 pixels (10000 megapixels); the limit is 1000 megapixels.',
    });
  });

  it('a truncated JPEG', async () => {
    const jpeg = await textImage(['cut off'], { format: 'jpeg' });
    const err = await failure({ bytes: jpeg.subarray(0, Math.floor(jpeg.length / 3)), fileName: 'cut.jpg' });
    expect(err.code).toBe('corrupt');
    expect(err.message).toBe('The JPEG image is damaged or incomplete.');
  });

  it('text in UTF-16 and in windows-1252 is decoded, not refused', async () => {
    const text = 'Prix: 12 € — café crème, naïveté.';
    const utf16 = await extractor.extract({ bytes: encodeText(text, 'utf-16le-bom'), fileName: 'a.txt' });
    const cp1252 = await extractor.extract({ bytes: encodeText(text, 'windows-1252'), fileName: 'b.txt' });
    expect(utf16).toMatchObject({ text, metadata: { encoding: 'utf-16le' } });
    expect(cp1252).toMatchObject({ text, metadata: { encoding: 'windows-1252' } });
  });

  it('binary data named .txt', async () => {
    const err = await failure({
      bytes: Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 37) % 256)),
      fileName: 'notes.txt',
    });
    expect(err.code).toBe('unsupported');
    expect(err.message).toMatch(
      /^The file's content is binary data of an unknown type, which is not supported/,
    );
  });

  it('a file over 20 MB, by path, refused before it is read', async () => {
    const file = path.join(dir, 'big.txt');
    await writeFile(file, Buffer.alloc(21 * 1024 * 1024, 0x61));
    const err = await failure({ bytes: file, fileName: 'big.txt' });
    expect(err).toMatchObject({ code: 'too_large', message: 'The file is 21.00 MB; the limit is 20.00 MB.' });
  });
});

describe('hard per-file limits', () => {
  it('kills the thread of a file that runs past its time limit; the next file OCRs on a fresh thread', async () => {
    const scanned = await makePdf({
      scannedPages: [['slow page one'], ['slow page two'], ['slow page three']],
    });
    const started = Date.now();
    const err = await failure({ bytes: scanned, fileName: 'slow.pdf' }, { limits: { timeoutMs: 400 } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(err).toMatchObject({
      code: 'timeout',
      message: 'Processing this file took longer than the 400 ms limit, so it was stopped.',
    });
    // The replacement thread loads sharp, canvas and tesseract again (native addons must reload in threads).
    const next = await extractor.extract(
      { bytes: scanned, fileName: 'slow.pdf' },
      { limits: { maxOcrPages: 1 } },
    );
    expect(next.pages![0]).toMatchObject({ ocr: true, text: 'slow page one' });
  }, 30_000);

  it('stops a file that needs more memory than the thread is allowed', async () => {
    const small = createPooledExtractor({ threads: 1, limits: { maxMemoryMb: 16 } });
    try {
      const paragraphs = Array.from(
        { length: 40_000 },
        (_, i) => `Paragraph ${i}: ${'the weaver counts each bead twice before threading '.repeat(4)}`,
      );
      const docx = await makeDocx({ paragraphs });
      const err = await failure({ bytes: docx, fileName: 'heavy.docx' }, undefined, small);
      expect(err).toMatchObject({
        code: 'too_large',
        message: 'Processing this file needed more than the 16 MB memory limit, so it was stopped.',
      });
    } finally {
      await small.close();
    }
  }, 60_000);

  it('cancels a running file when the caller aborts', async () => {
    const controller = new AbortController();
    const scanned = await makePdf({ scannedPages: [['cancel me']] });
    const pending = failure({ bytes: scanned, fileName: 'cancel.pdf' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ code: 'aborted', message: 'Processing was cancelled.' });
  }, 30_000);
});
