// Offline fixture generators for extraction tests and the bench: text and scanned PDFs (pdf-lib),
// DOCX (docx), images of text (sharp from SVG), a 30k×30k PNG, and encodings of a text.
import zlib from 'node:zlib';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import iconv from 'iconv-lite';
import sharp from 'sharp';

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A white image with black lines of text, rendered by librsvg (DejaVu fonts ship with the OS image). */
export async function textImage(
  lines: string[],
  options: { width?: number; fontSize?: number; format?: 'png' | 'jpeg' } = {},
): Promise<Buffer> {
  const fontSize = options.fontSize ?? 40;
  const width = options.width ?? 1400;
  const lineHeight = Math.round(fontSize * 1.6);
  const height = lineHeight * (lines.length + 1);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${lines
    .map(
      (l, i) =>
        `<text x="${fontSize}" y="${lineHeight * (i + 1)}" font-family="DejaVu Sans" font-size="${fontSize}" fill="black">${escapeXml(l)}</text>`,
    )
    .join('')}</svg>`;
  const image = sharp(Buffer.from(svg));
  return options.format === 'jpeg' ? image.jpeg({ quality: 90 }).toBuffer() : image.png().toBuffer();
}

export interface PdfFixture {
  /** One entry per page: text drawn on a text layer. */
  pages?: string[][];
  /** Pages that are only an image of these lines (no text layer), appended after `pages`. */
  scannedPages?: string[][];
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string[];
  created?: Date;
}

export async function makePdf(fixture: PdfFixture): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  if (fixture.title) doc.setTitle(fixture.title);
  if (fixture.author) doc.setAuthor(fixture.author);
  if (fixture.subject) doc.setSubject(fixture.subject);
  if (fixture.keywords) doc.setKeywords(fixture.keywords);
  if (fixture.created) doc.setCreationDate(fixture.created);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of fixture.pages ?? []) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 56, y: 780 - i * 18, size: 12, font }));
  }
  for (const lines of fixture.scannedPages ?? []) {
    const png = await textImage(lines, { width: 1700, fontSize: 36 });
    const image = await doc.embedPng(png);
    const page = doc.addPage([595, 842]);
    const scale = 540 / image.width;
    page.drawImage(image, {
      x: 28,
      y: 800 - image.height * scale,
      width: image.width * scale,
      height: image.height * scale,
    });
  }
  return Buffer.from(await doc.save());
}

export interface DocxFixture {
  paragraphs: string[];
  title?: string;
  creator?: string;
  description?: string;
}

export async function makeDocx(fixture: DocxFixture): Promise<Buffer> {
  const { Document, Packer, Paragraph, TextRun } = await import('docx');
  const doc = new Document({
    ...(fixture.title ? { title: fixture.title } : {}),
    ...(fixture.creator ? { creator: fixture.creator } : {}),
    ...(fixture.description ? { description: fixture.description } : {}),
    sections: [{ children: fixture.paragraphs.map((p) => new Paragraph({ children: [new TextRun(p)] })) }],
  });
  return Buffer.from(await Packer.toBuffer(doc));
}

/** The same text in the encodings people actually save files in. */
export function encodeText(
  text: string,
  encoding:
    | 'utf-8'
    | 'utf-8-bom'
    | 'utf-16le-bom'
    | 'utf-16be-bom'
    | 'utf-16le'
    | 'windows-1252'
    | 'iso-8859-2'
    | 'shift_jis',
): Buffer {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf-16le-bom':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf-16be-bom':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    case 'utf-16le':
      return Buffer.from(text, 'utf16le');
    default:
      return iconv.encode(text, encoding);
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/**
 * A valid greyscale PNG of width×height, mostly white with rows of noise spread so the file is close
 * to `targetBytes` (the bad-input corpus's "20 MB image of 30k×30k pixels"). Streams its rows through
 * deflate, so generating it never holds the decoded image.
 */
export async function hugePng(
  width = 30_000,
  height = 30_000,
  targetBytes = 19 * 1024 * 1024,
): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const white = Buffer.alloc(width + 1, 255);
  white[0] = 0;
  // Level-1 deflate spends ~200 bytes on each white row; the rest of the budget is noise.
  const noiseRows = Math.max(1, Math.floor((targetBytes - height * 200) / width));
  const every = Math.max(1, Math.floor(height / noiseRows));
  const deflate = zlib.createDeflate({ level: 1 });
  const out: Buffer[] = [];
  deflate.on('data', (d: Buffer) => out.push(d));
  const finished = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let seed = 1;
  for (let y = 0; y < height; y++) {
    if (y % every === 0) {
      const row = Buffer.alloc(width + 1);
      for (let x = 1; x <= width; x++) {
        // xorshift32: deterministic noise that deflate cannot shrink, so the file size is predictable
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        row[x] = seed & 0xff;
      }
      deflate.write(row);
    } else {
      deflate.write(white);
    }
    if (y % 1000 === 0) await new Promise((r) => setImmediate(r));
  }
  deflate.end();
  await finished;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.concat(out)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const execFileAsync = promisify(execFile);

/** Whether Debian's qpdf is installed (apt-get install qpdf); pdf-lib cannot encrypt PDFs. */
export async function hasQpdf(): Promise<boolean> {
  try {
    await execFileAsync('qpdf', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** Encrypts a PDF (AES-256) with qpdf; an empty user password makes an owner-password-only PDF. */
export async function encryptPdf(pdf: Buffer, userPassword = 'secret'): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kaboodle-qpdf-'));
  try {
    const input = path.join(dir, 'in.pdf');
    const output = path.join(dir, 'out.pdf');
    await writeFile(input, pdf);
    await execFileAsync('qpdf', [
      '--encrypt',
      userPassword, // may be '': an owner-password-only PDF
      `owner-${userPassword}`, // must not start with '-' (qpdf would take it for an option)
      '256',
      '--',
      input,
      output,
    ]);
    return await readFile(output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
