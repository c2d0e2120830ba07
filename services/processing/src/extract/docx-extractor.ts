// DOCX → text with mammoth, after the zip-bomb defence: the central directory's declared sizes are
// checked against the caps, then every entry is inflated once under a hard output cap (so a directory
// that lies is caught) before mammoth/JSZip gets the buffer. Metadata comes from docProps/*.xml.
import mammoth from 'mammoth';
import { ExtractionError, type ExtractedMetadata } from './extractor.ts';
import { type ExtractContext, type FormatResult, throwIfAborted, tidyText } from './extract-context.ts';
import {
  ZipFormatError,
  readZipDirectory,
  readZipEntry,
  verifyZipEntries,
  zipBombReason,
  type ZipEntry,
} from './zip-reader.ts';

const CORRUPT = 'The Word document is damaged or incomplete; save it again and re-upload it.';

export async function extractDocx(
  bytes: Uint8Array,
  ctx: ExtractContext,
  known?: ZipEntry[],
): Promise<FormatResult> {
  const { limits } = ctx;
  let entries: ZipEntry[];
  try {
    entries = known ?? readZipDirectory(bytes, limits.maxZipEntries + 1);
  } catch (err) {
    if (err instanceof ZipFormatError) {
      if (/too many entries/.test(err.message)) throw bomb(err.message);
      throw new ExtractionError('corrupt', CORRUPT, { cause: err });
    }
    throw err;
  }
  const reason = zipBombReason(entries, {
    maxUncompressedBytes: limits.maxZipUncompressedBytes,
    maxRatio: limits.maxZipRatio,
    maxEntries: limits.maxZipEntries,
  });
  if (reason) throw bomb(reason);
  try {
    await verifyZipEntries(bytes, entries);
  } catch (err) {
    if (err instanceof ZipFormatError) {
      if (/past its declared size/.test(err.message)) throw bomb(err.message);
      if (/encrypted/.test(err.message)) {
        throw new ExtractionError(
          'password_protected',
          'This Word document is encrypted; remove the password and upload it again.',
          {
            cause: err,
          },
        );
      }
      throw new ExtractionError('corrupt', CORRUPT, { cause: err });
    }
    throw err;
  }
  throwIfAborted(ctx.signal);
  let text: string;
  try {
    const result = await mammoth.extractRawText({
      buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
    text = result.value;
  } catch (err) {
    throw new ExtractionError('corrupt', CORRUPT, { cause: err });
  }
  return { text: tidyText(text), metadata: readDocxMetadata(bytes, entries) };
}

function bomb(reason: string): ExtractionError {
  return new ExtractionError(
    'too_large',
    `This Word document was not opened because ${reason} when unpacked, which is how zip bombs behave.`,
    { details: { reason } },
  );
}

function readXmlEntry(bytes: Uint8Array, entries: ZipEntry[], name: string): string | null {
  const entry = entries.find((e) => e.name === name);
  if (!entry) return null;
  try {
    return readZipEntry(bytes, entry, 1024 * 1024).toString('utf8');
  } catch {
    return null;
  }
}

function xmlText(xml: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
  if (!m) return undefined;
  const value = decodeXmlEntities(m[1]!.replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
  return value.length > 0 ? value : undefined;
}

function decodeXmlEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower] ?? '';
  });
}

function readDocxMetadata(bytes: Uint8Array, entries: ZipEntry[]): ExtractedMetadata {
  const metadata: ExtractedMetadata = {};
  const core = readXmlEntry(bytes, entries, 'docProps/core.xml');
  if (core) {
    const title = xmlText(core, 'dc:title');
    const author = xmlText(core, 'dc:creator');
    const subject = xmlText(core, 'dc:subject');
    const description = xmlText(core, 'dc:description');
    const keywords = xmlText(core, 'cp:keywords');
    const created = iso(xmlText(core, 'dcterms:created'));
    const modified = iso(xmlText(core, 'dcterms:modified'));
    if (title) metadata.title = title;
    if (author) metadata.author = author;
    if (subject) metadata.subject = subject;
    if (description) metadata.excerpt = description;
    if (keywords)
      metadata.keywords = keywords
        .split(/[,;]\s*/)
        .map((k) => k.trim())
        .filter(Boolean);
    if (created) metadata.created = created;
    if (modified) metadata.modified = modified;
  }
  const app = readXmlEntry(bytes, entries, 'docProps/app.xml');
  if (app) {
    const application = xmlText(app, 'Application');
    const company = xmlText(app, 'Company');
    const pages = Number(xmlText(app, 'Pages'));
    if (application) metadata.producer = application;
    if (company) metadata.publisher = company;
    if (Number.isInteger(pages) && pages > 0) metadata.pageCount = pages;
  }
  return metadata;
}

function iso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
