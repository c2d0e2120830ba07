// The hostile file corpus, generated offline with the processing service's fixture generators:
// corrupt, truncated and password-protected PDFs and DOCX, zip bombs (honest and lying directories),
// a 30k×30k PNG and a header that claims it, mislabelled types, odd text encodings, a photo with no
// text sent as a document. Each is uploaded as a person would and followed to its end: `failed` with a
// reason the person can act on (never "failed on our side"), or, for files a reader can make sense
// of, `completed`.
import {
  encodeText,
  encryptPdf,
  hasQpdf,
  hugePng,
  makeDocx,
  makePdf,
  textImage,
} from '../../services/processing/src/extract/test-fixtures/generate-documents.ts';
import {
  encryptedDocxEnvelope,
  writeZip,
  zipBombDocx,
} from '../../services/processing/src/extract/test-fixtures/generate-containers.ts';
import {
  giantImageHeader,
  redBowl,
} from '../../services/processing/src/vision/test-fixtures/generate-photos.ts';
import { seededBytes, tinyPng } from './small-files.ts';

export interface CorpusFile {
  label: string;
  name: string;
  type: string;
  bytes: Buffer;
  /** `failed`: it must fail (with a reason). `ends`: completed, or failed with a reason. */
  expect: 'failed' | 'ends';
  destination?: 'auto' | 'document' | 'inventory';
}

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** `heavy` adds the big ones (the 19 MB 30k×30k PNG, 64 MiB bombs): `make fuzz`, not `make test`. */
export async function hostileCorpus(marker: string, heavy: boolean): Promise<CorpusFile[]> {
  const pdf = await makePdf({
    title: `Corpus ${marker}`,
    pages: [[`A report about ${marker}`, 'Second line.']],
  });
  const docx = await makeDocx({ paragraphs: [`Minutes of ${marker}`, 'Nothing else.'] });
  const files: CorpusFile[] = [
    {
      label: 'corrupt PDF',
      name: 'broken.pdf',
      type: PDF,
      bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), seededBytes(7, 4000)]),
      expect: 'failed',
    },
    {
      label: 'truncated PDF',
      name: 'half.pdf',
      type: PDF,
      bytes: pdf.subarray(0, Math.floor(pdf.length * 0.4)),
      expect: 'ends',
    },
    {
      label: 'PDF header only',
      name: 'header.pdf',
      type: PDF,
      bytes: Buffer.from('%PDF-1.4\n%%EOF\n'),
      expect: 'failed',
    },
    {
      label: 'corrupt DOCX (random bytes)',
      name: 'noise.docx',
      type: DOCX,
      bytes: seededBytes(11, 5000),
      expect: 'failed',
    },
    {
      label: 'truncated DOCX',
      name: 'half.docx',
      type: DOCX,
      bytes: docx.subarray(0, Math.floor(docx.length / 2)),
      expect: 'failed',
    },
    {
      label: 'DOCX whose document.xml is not XML',
      name: 'notxml.docx',
      type: DOCX,
      bytes: writeZip([
        { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
        { name: 'word/document.xml', data: Buffer.from('<<<not xml') },
      ]),
      expect: 'failed',
    },
    {
      label: 'password-protected DOCX',
      name: 'locked.docx',
      type: DOCX,
      bytes: encryptedDocxEnvelope(),
      expect: 'failed',
    },
    {
      label: 'zip bomb DOCX (honest directory)',
      name: 'bomb.docx',
      type: DOCX,
      bytes: zipBombDocx((heavy ? 64 : 16) * 1024 * 1024),
      expect: 'ends',
    },
    {
      label: 'zip bomb DOCX (lying directory)',
      name: 'liar.docx',
      type: DOCX,
      bytes: zipBombDocx((heavy ? 64 : 16) * 1024 * 1024, { lie: true }),
      expect: 'failed',
    },
    {
      label: 'header claiming 30000×30000 pixels',
      name: 'giant.png',
      type: 'image/png',
      bytes: await giantImageHeader(),
      expect: 'failed',
    },
    {
      label: 'PNG named .pdf',
      name: 'report.pdf',
      type: PDF,
      bytes: await textImage([`not a pdf ${marker}`]),
      expect: 'failed',
    },
    { label: 'PDF named .png', name: 'photo.png', type: 'image/png', bytes: pdf, expect: 'failed' },
    { label: 'DOCX named .pdf', name: 'letter.pdf', type: PDF, bytes: docx, expect: 'failed' },
    {
      label: 'Windows executable named .pdf',
      name: 'invoice.pdf',
      type: PDF,
      bytes: Buffer.concat([Buffer.from('MZ\x90\x00\x03', 'latin1'), seededBytes(13, 3000)]),
      expect: 'failed',
    },
    {
      label: 'zip named .docx (no Word parts)',
      name: 'archive.docx',
      type: DOCX,
      bytes: writeZip([{ name: 'a.txt', data: Buffer.from(`zip ${marker}`) }]),
      expect: 'failed',
    },
    {
      label: 'truncated PNG',
      name: 'cut.png',
      type: 'image/png',
      bytes: tinyPng(3).subarray(0, 40),
      expect: 'failed',
    },
    { label: 'empty PDF', name: 'empty.pdf', type: PDF, bytes: Buffer.alloc(0), expect: 'failed' },
    {
      label: 'binary named .txt',
      name: 'binary.txt',
      type: 'text/plain',
      bytes: seededBytes(17, 4096),
      expect: 'failed',
    },
    {
      label: 'UTF-16 text without BOM',
      name: 'utf16.txt',
      type: 'text/plain',
      bytes: encodeText(`Notes about ${marker}\nwith accents: café`, 'utf-16le'),
      expect: 'ends',
    },
    {
      label: 'Shift_JIS text',
      name: 'sjis.txt',
      type: 'text/plain',
      bytes: encodeText(`${marker} 日本語のメモ`, 'shift_jis'),
      expect: 'ends',
    },
    {
      label: 'windows-1252 text',
      name: 'cp1252.txt',
      type: 'text/plain',
      bytes: encodeText(`${marker} déjà vu – naïve`, 'windows-1252'),
      expect: 'ends',
    },
    {
      label: 'photo with no text sent as a document',
      name: 'bowl.jpg',
      type: 'image/jpeg',
      bytes: (await redBowl()).bytes,
      expect: 'ends',
      destination: 'document',
    },
  ];
  if (await hasQpdf()) {
    files.push(
      {
        label: 'password-protected PDF',
        name: 'locked.pdf',
        type: PDF,
        bytes: await encryptPdf(pdf),
        expect: 'failed',
      },
      {
        label: 'owner-password-only PDF',
        name: 'restricted.pdf',
        type: PDF,
        bytes: await encryptPdf(pdf, ''),
        expect: 'ends',
      },
    );
  }
  if (heavy)
    files.push({
      label: '30000×30000 PNG (19 MB)',
      name: 'huge.png',
      type: 'image/png',
      bytes: await hugePng(),
      expect: 'ends',
    });
  return files;
}
