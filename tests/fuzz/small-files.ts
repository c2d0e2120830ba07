// The bytes of the small files fuzzed uploads carry, made on the spot from a seed: a text note with
// the person's marker (so their data can be recognised anywhere it must not be), and small PNGs,
// PDFs, zips, HTML, SVG with a script, a Windows executable header, random bytes. Each seed gives
// different bytes, so uploads are not all answered as duplicates.
import zlib from 'node:zlib';
import { writeZip } from '../../services/processing/src/extract/test-fixtures/generate-containers.ts';
import type { FilePlan } from './plans.ts';

/** xorshift32 bytes: deterministic per seed. */
export function seededBytes(seed: number, length: number): Buffer {
  let s = seed | 0 || 0x9e3779b9;
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  return out;
}

const WORDS = [
  'indigo',
  'ledger',
  'walnut',
  'beads',
  'teapot',
  'archive',
  'receipt',
  'lantern',
  'quilt',
  'compass',
];

function note(seed: number, marker: string): string {
  const words = Array.from({ length: 12 }, (_, i) => WORDS[(seed + i * 7) % WORDS.length]).join(' ');
  return `Fuzz note ${seed}\n${marker}\n\n${words}.\n`;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** A valid 16×16 RGB PNG of one seeded colour. */
export function tinyPng(seed: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(16, 0);
  ihdr.writeUInt32BE(16, 4);
  ihdr[8] = 8;
  ihdr[9] = 2; // truecolour
  const [r, g, b] = seededBytes(seed, 3);
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: 16 }, () => [r!, g!, b!]).flat()),
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(Buffer.concat(Array.from({ length: 16 }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF with a line of text, written by hand (object offsets and all). */
export function tinyPdf(text: string): Buffer {
  const safe = text.replace(/[()\\\r\n]/g, ' ');
  const stream = `BT /F1 12 Tf 56 780 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export function fileBytes(file: FilePlan, marker: string): Buffer {
  const text = note(file.seed, marker);
  switch (file.content) {
    case 'text':
      return Buffer.from(text);
    case 'text-utf16':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'binary':
      return seededBytes(file.seed, 2048);
    case 'png':
      return tinyPng(file.seed);
    case 'pdf':
      return tinyPdf(text);
    case 'empty':
      return Buffer.alloc(0);
    case 'html':
      return Buffer.from(`<!doctype html><html><body><script>alert(1)</script><p>${text}</p></body></html>`);
    case 'exe':
      return Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), seededBytes(file.seed, 1024)]);
    case 'svg-script':
      return Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><text>${text}</text></svg>`,
      );
    case 'zip':
      return writeZip([{ name: 'note.txt', data: Buffer.from(text) }]);
  }
}
