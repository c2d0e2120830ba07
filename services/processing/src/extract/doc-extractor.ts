// DOC (Word 97–2003) → text with word-extractor; the FIB's encryption flags are checked first
// (word-extractor would return ciphertext as text) and metadata is read from the
// "\u0005SummaryInformation" property set, which word-extractor ignores.
import iconv from 'iconv-lite';
import WordExtractor from 'word-extractor';
import { ExtractionError, REASONS, type ExtractedMetadata } from './extractor.ts';
import { type ExtractContext, type FormatResult, tidyText } from './extract-context.ts';
import { CfbFormatError, openCfb, type CfbFile } from './cfb-reader.ts';

const CORRUPT = 'The Word document is damaged or incomplete; save it again and re-upload it.';

export async function extractDoc(bytes: Uint8Array, _ctx: ExtractContext): Promise<FormatResult> {
  let cfb: CfbFile;
  let fib: Buffer | null;
  try {
    cfb = openCfb(bytes);
    fib = cfb.readStream('WordDocument');
  } catch (err) {
    if (err instanceof CfbFormatError) throw new ExtractionError('corrupt', CORRUPT, { cause: err });
    throw err;
  }
  if (!fib || fib.length < 0x1aa || fib.readUInt16LE(0) !== 0xa5ec) {
    throw new ExtractionError('corrupt', CORRUPT);
  }
  const flags = fib.readUInt16LE(0x0a);
  // fEncrypted (0x0100) or fObfuscated (0x8000): the text is ciphertext without the password.
  if (flags & 0x0100 || flags & 0x8000) {
    throw new ExtractionError('password_protected', REASONS.passwordProtectedOffice);
  }
  let text: string;
  try {
    const doc = await new WordExtractor().extract(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    );
    text = [
      doc.getBody(),
      doc.getFootnotes(),
      doc.getEndnotes(),
      doc.getTextboxes({ includeHeadersAndFooters: false, includeBody: true }),
    ]
      .map((part) => (part ?? '').trim())
      .filter((part) => part.length > 0)
      .join('\n\n');
  } catch (err) {
    throw new ExtractionError('corrupt', CORRUPT, { cause: err });
  }
  let metadata: ExtractedMetadata = {};
  try {
    const summary = cfb.readStream('\u0005SummaryInformation', 1024 * 1024);
    if (summary) metadata = parseSummaryInformation(summary);
  } catch {
    // metadata is a bonus; a damaged property set does not cost the text
  }
  return { text: tidyText(text), metadata };
}

const PID = {
  codepage: 1,
  title: 2,
  subject: 3,
  author: 4,
  keywords: 5,
  comments: 6,
  created: 12,
  saved: 13,
  appName: 18,
};

/** [MS-OLEPS] property set: the first section's string and FILETIME properties. */
export function parseSummaryInformation(buf: Buffer): ExtractedMetadata {
  if (buf.length < 48 || buf.readUInt16LE(0) !== 0xfffe) return {};
  const section = buf.readUInt32LE(44);
  if (section + 8 > buf.length) return {};
  const count = Math.min(buf.readUInt32LE(section + 4), 256);
  const props = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const at = section + 8 + i * 8;
    if (at + 8 > buf.length) break;
    props.set(buf.readUInt32LE(at), section + buf.readUInt32LE(at + 4));
  }
  let codepage = 1252;
  const cpAt = props.get(PID.codepage);
  if (cpAt !== undefined && cpAt + 6 <= buf.length && buf.readUInt32LE(cpAt) === 2)
    codepage = buf.readUInt16LE(cpAt + 4);
  const readString = (pid: number): string | undefined => {
    const at = props.get(pid);
    if (at === undefined || at + 8 > buf.length) return undefined;
    const type = buf.readUInt32LE(at);
    const size = buf.readUInt32LE(at + 4);
    let value: string;
    if (type === 0x1e) {
      const raw = buf.subarray(at + 8, Math.min(buf.length, at + 8 + size));
      const enc = codepage === 65001 ? 'utf8' : codepage === 1200 ? 'utf16le' : `cp${codepage}`;
      value = iconv.encodingExists(enc) ? iconv.decode(raw, enc) : raw.toString('latin1');
    } else if (type === 0x1f) {
      value = buf.subarray(at + 8, Math.min(buf.length, at + 8 + size * 2)).toString('utf16le');
    } else {
      return undefined;
    }
    const trimmed = value.replace(/\0+$/, '').replace(/\s+/g, ' ').trim();
    return trimmed.length > 0 ? trimmed : undefined;
  };
  const readTime = (pid: number): string | undefined => {
    const at = props.get(pid);
    if (at === undefined || at + 12 > buf.length || buf.readUInt32LE(at) !== 0x40) return undefined;
    const filetime = buf.readBigUInt64LE(at + 4);
    if (filetime === 0n) return undefined;
    // FILETIME counts 100 ns ticks since 1601-01-01.
    const ms = Number(filetime / 10_000n) - 11_644_473_600_000;
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1980 ? undefined : d.toISOString();
  };
  const metadata: ExtractedMetadata = {};
  const title = readString(PID.title);
  const subject = readString(PID.subject);
  const author = readString(PID.author);
  const keywords = readString(PID.keywords);
  const comments = readString(PID.comments);
  const appName = readString(PID.appName);
  const created = readTime(PID.created);
  const saved = readTime(PID.saved);
  if (title) metadata.title = title;
  if (subject) metadata.subject = subject;
  if (author) metadata.author = author;
  if (keywords)
    metadata.keywords = keywords
      .split(/[,;]\s*/)
      .map((k) => k.trim())
      .filter(Boolean);
  if (comments) metadata.excerpt = comments;
  if (appName) metadata.producer = appName;
  if (created) metadata.created = created;
  if (saved) metadata.modified = saved;
  return metadata;
}
