// Draws the sample library's files offline, from sample-library.ts: PDFs with pdf-lib (a text
// layer, title and author in the document info), plain-text notes, and photos of handmade goods as
// SVG drawings rendered by sharp, loaded on first use (with a printed label, as a maker's photo often has).
// Deterministic, so every user's samples have the same bytes; made once per process and kept.
import { SAMPLE_LIBRARY, type SampleDocument, type SampleEntry, type SamplePhoto } from './sample-library.ts';

export interface SampleFile {
  name: string;
  contentType: string;
  bytes: Buffer;
  destination: 'document' | 'inventory';
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Greedy word wrap at `width` characters. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

async function pdfOf(doc: SampleDocument): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(doc.title);
  pdf.setAuthor(doc.author);
  pdf.setSubject('Kaboodle sample library');
  pdf.setCreationDate(new Date(Date.UTC(doc.year, 5, 1)));
  pdf.setModificationDate(new Date(Date.UTC(doc.year, 5, 1)));
  pdf.setProducer('Kaboodle');
  pdf.setCreator('Kaboodle sample library');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595, 842]);
  let y = 780;
  page.drawText(doc.title, { x: 56, y, size: 18, font: bold });
  y -= 26;
  page.drawText(`${doc.author}, ${doc.year}`, { x: 56, y, size: 12, font: regular });
  y -= 34;
  for (const paragraph of doc.paragraphs) {
    for (const line of wrap(paragraph, 88)) {
      page.drawText(line, { x: 56, y, size: 11, font: regular });
      y -= 16;
    }
    y -= 10;
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

function textOf(doc: SampleDocument): Buffer {
  const body = [doc.title, `By ${doc.author}, ${doc.year}`, '', ...doc.paragraphs.flatMap((p) => [p, ''])];
  return Buffer.from(`${body.join('\n').trimEnd()}\n`, 'utf8');
}

const DRAWINGS: Record<SamplePhoto['drawing'], { background: string; body: string }> = {
  bowl: {
    background: '#ece7dc',
    body: `<ellipse cx="320" cy="360" rx="230" ry="125" fill="#b03a2e"/><rect x="90" y="280" width="460" height="80" fill="#b03a2e"/><ellipse cx="320" cy="280" rx="230" ry="58" fill="#6e2119"/><ellipse cx="320" cy="486" rx="92" ry="18" fill="#8c2c22"/>`,
  },
  necklace: {
    background: '#f3ead7',
    body: Array.from({ length: 19 }, (_, i) => {
      const a = Math.PI * (0.12 + (0.76 * i) / 18);
      const colours = ['#1f6fb2', '#e3b23c', '#c0392b', '#2e8b57', '#f5f5f5'];
      return `<circle cx="${(320 - 230 * Math.cos(a)).toFixed(1)}" cy="${(150 + 250 * Math.sin(a)).toFixed(1)}" r="22" fill="${colours[i % colours.length]}" stroke="#333" stroke-width="3"/>`;
    }).join(''),
  },
  stool: {
    background: '#e9eef2',
    body: `<polygon points="205,300 235,300 175,520 145,520" fill="#8a5a2b"/><polygon points="405,300 435,300 495,520 465,520" fill="#8a5a2b"/><polygon points="305,310 335,310 335,540 305,540" fill="#74461f"/><ellipse cx="320" cy="290" rx="190" ry="48" fill="#a0692f"/><ellipse cx="320" cy="280" rx="190" ry="44" fill="#b97c3c"/>`,
  },
  fan: {
    background: '#eef3ea',
    body: `<path d="M320 420 L110 230 A270 270 0 0 1 530 230 Z" fill="#d9c27a" stroke="#9c8540" stroke-width="4"/>${Array.from(
      { length: 9 },
      (_, i) => {
        const a = Math.PI * (1.22 + (0.56 * i) / 8);
        return `<line x1="320" y1="420" x2="${(320 + 280 * Math.cos(a)).toFixed(1)}" y2="${(420 + 280 * Math.sin(a)).toFixed(1)}" stroke="#9c8540" stroke-width="3"/>`;
      },
    ).join('')}<rect x="305" y="410" width="30" height="150" rx="10" fill="#7a4b22"/>`,
  },
  tote: {
    background: '#f1efe9',
    body: `<path d="M230 250 C230 120 410 120 410 250" fill="none" stroke="#20406b" stroke-width="18"/><rect x="150" y="240" width="340" height="300" rx="12" fill="#2a4f86"/><rect x="150" y="240" width="340" height="40" fill="#20406b"/>`,
  },
  vase: {
    background: '#f4f1ec',
    body: `<path d="M285 120 L355 120 L350 180 C450 240 460 400 380 520 L260 520 C180 400 190 240 290 180 Z" fill="#2f8f5b" stroke="#1c5c3a" stroke-width="5"/><ellipse cx="320" cy="120" rx="40" ry="10" fill="#1c5c3a"/>`,
  },
};

async function photoOf(photo: SamplePhoto): Promise<Buffer> {
  const { background, body } = DRAWINGS[photo.drawing];
  const size = 30;
  const labelWidth = Math.round(photo.label.length * size * 0.6 + 20);
  const label = `<rect x="${320 - labelWidth / 2}" y="562" width="${labelWidth}" height="${size + 18}" fill="#ffffff"/><text x="320" y="${562 + size + 4}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="${size}" fill="#111111">${escapeXml(photo.label)}</text>`;
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="640"><rect width="640" height="640" fill="${background}"/>${body}${label}</svg>`,
  );
  // loaded on first use, like the catalogue's thumbnails: a server that never draws samples never loads it
  const { default: sharp } = await import('sharp');
  const image = sharp(svg);
  return photo.file.endsWith('.png') ? image.png().toBuffer() : image.jpeg({ quality: 88 }).toBuffer();
}

async function render(entry: SampleEntry): Promise<SampleFile> {
  if (entry.kind === 'photo') {
    return {
      name: entry.file,
      contentType: entry.file.endsWith('.png') ? 'image/png' : 'image/jpeg',
      bytes: await photoOf(entry),
      destination: 'inventory',
    };
  }
  return entry.format === 'pdf'
    ? { name: entry.file, contentType: 'application/pdf', bytes: await pdfOf(entry), destination: 'document' }
    : { name: entry.file, contentType: 'text/plain', bytes: textOf(entry), destination: 'document' };
}

let made: Promise<SampleFile[]> | null = null;

/** Every sample file, drawn on first use (about half a second) and kept for the process's life. */
export function sampleFiles(): Promise<SampleFile[]> {
  made ??= Promise.all(SAMPLE_LIBRARY.map(render)).catch((err: unknown) => {
    made = null; // a failed drawing is tried again next time
    throw err;
  });
  return made;
}
