// Type by content: magic bytes and container contents decide; names and declared types only confirm.
import { beforeAll, describe, expect, it } from 'vitest';
import { decideType, detectContentType, extensionOf } from './detect-type.ts';
import { ExtractionError } from './extractor.ts';
import { encodeText, makeDocx, makePdf, textImage } from './test-fixtures/generate-documents.ts';
import { encryptedDocxEnvelope, wordDoc, writeCfb, writeZip } from './test-fixtures/generate-containers.ts';

let pdf: Buffer;
let png: Buffer;
let jpeg: Buffer;
let docx: Buffer;
beforeAll(async () => {
  pdf = await makePdf({ pages: [['hello']] });
  png = await textImage(['x']);
  jpeg = await textImage(['x'], { format: 'jpeg' });
  docx = await makeDocx({ paragraphs: ['hello'] });
});

function decisionError(
  bytes: Uint8Array,
  name: string,
  declared?: string,
  source: 'upload' | 'url' = 'upload',
) {
  try {
    decideType(detectContentType(bytes), name, declared, source);
  } catch (err) {
    if (err instanceof ExtractionError) return err;
    throw err;
  }
  throw new Error('expected decideType to refuse the file');
}

describe('detectContentType', () => {
  it('recognises the allowed types by their bytes', () => {
    expect(detectContentType(pdf)).toMatchObject({ kind: 'pdf', label: 'PDF' });
    expect(detectContentType(png)).toMatchObject({ kind: 'image', label: 'PNG' });
    expect(detectContentType(jpeg)).toMatchObject({ kind: 'image', label: 'JPEG' });
    expect(detectContentType(docx)).toMatchObject({ kind: 'docx', label: 'DOCX' });
    expect(detectContentType(wordDoc({ paragraphs: ['x'] }))).toMatchObject({ kind: 'doc', label: 'DOC' });
    expect(detectContentType(encodeText('plain words', 'utf-8'))).toMatchObject({ kind: 'txt' });
    expect(detectContentType(encodeText('plain words', 'utf-16le'))).toMatchObject({ kind: 'txt' });
    expect(detectContentType(Buffer.from('<!DOCTYPE html><html><body>x</body></html>'))).toMatchObject({
      kind: 'html',
    });
  });

  it('names content that is recognised but not allowed', () => {
    expect(detectContentType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')).label).toBe('GIF');
    expect(detectContentType(Buffer.from('{\\rtf1\\ansi hello}')).label).toBe('RTF');
    expect(detectContentType(writeZip([{ name: 'xl/workbook.xml', data: Buffer.from('<x/>') }])).label).toBe(
      'XLSX (Excel)',
    );
    expect(detectContentType(writeZip([{ name: 'photo.jpg', data: Buffer.from('abc') }])).label).toBe('ZIP');
    expect(detectContentType(writeCfb([{ name: 'Workbook', data: Buffer.alloc(10) }])).label).toBe(
      'XLS (Excel 97)',
    );
    expect(detectContentType(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0])).kind).toBeNull();
    expect(detectContentType(Buffer.from([1, 2, 3, 0, 0, 5, 200, 3, 0, 9]))).toMatchObject({
      kind: null,
      label: 'binary data of an unknown type',
    });
  });

  it('finds a %PDF header after leading junk, as readers tolerate', () => {
    expect(detectContentType(Buffer.concat([Buffer.from('\r\n\r\n'), pdf])).kind).toBe('pdf');
  });

  it('recognises an encrypted DOCX envelope and a cut-off DOCX', () => {
    const encrypted = detectContentType(encryptedDocxEnvelope());
    expect(encrypted).toMatchObject({ kind: 'docx' });
    expect(encrypted.problem?.code).toBe('password_protected');
    const cut = detectContentType(docx.subarray(0, Math.floor(docx.length / 2)));
    expect(cut.label).toBe('DOCX');
    expect(cut.problem?.code).toBe('corrupt');
  });
});

describe('decideType', () => {
  it('refuses a PNG named .pdf with a readable reason', () => {
    const err = decisionError(png, 'report.pdf');
    expect(err.code).toBe('type_mismatch');
    expect(err.message).toBe("The file's content is PNG, but its name says .pdf");
  });

  it('refuses content that contradicts the declared type', () => {
    const err = decisionError(pdf, 'report', 'image/png');
    expect(err.code).toBe('type_mismatch');
    expect(err.message).toBe("The file's content is PDF, but it was sent as image/png");
  });

  it('ignores unknown and generic declared types and names without an extension', () => {
    expect(decideType(detectContentType(pdf), 'report', 'application/octet-stream', 'upload').kind).toBe(
      'pdf',
    );
    expect(decideType(detectContentType(pdf), 'scan.weird', undefined, 'upload').kind).toBe('pdf');
  });

  it('refuses a DOCX named .doc (content decides, names only confirm)', () => {
    expect(decisionError(docx, 'letter.doc').message).toBe(
      "The file's content is DOCX, but its name says .doc",
    );
  });

  it('refuses unsupported content with the allowed list', () => {
    const err = decisionError(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'cat.gif');
    expect(err.code).toBe('unsupported');
    expect(err.message).toBe(
      "The file's content is GIF, which is not supported. Allowed types: PDF, JPEG, PNG, TXT, DOC, DOCX.",
    );
  });

  it('takes HTML from URLs, reads uploaded HTML as text, and refuses an uploaded .html', () => {
    const html = Buffer.from('<!doctype html><html><body><p>x</p></body></html>');
    expect(decideType(detectContentType(html), 'page', undefined, 'url').kind).toBe('html');
    expect(decideType(detectContentType(html), 'notes.txt', undefined, 'upload').kind).toBe('txt');
    expect(decisionError(html, 'page.html').code).toBe('unsupported');
  });

  it('reports a password-protected DOCX after the type checks pass', () => {
    expect(decisionError(encryptedDocxEnvelope(), 'secret.docx').code).toBe('password_protected');
  });
});

describe('extensionOf', () => {
  it('takes the last extension of the base name, lower-cased', () => {
    expect(extensionOf('a/b/Report.Final.PDF')).toBe('pdf');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('README')).toBe('');
  });
});
