// PDF → text per page (pdf.js via unpdf) + document info; pages without a text layer are rendered
// (@napi-rs/canvas) and OCR'd, up to limits.maxOcrPages. pdf.js detaches the buffer it is given,
// so it always gets a fresh copy.
import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import type * as Unpdf from 'unpdf';
import { ExtractionError, REASONS, type ExtractedMetadata, type ExtractedPage } from './extractor.ts';
import { type ExtractContext, type FormatResult, throwIfAborted, tidyText } from './extract-context.ts';

/** A page with fewer visible characters than this is treated as scanned (no usable text layer). */
const MIN_TEXT_LAYER_CHARS = 8;
/** Longest side, in pixels, a page is rendered at for OCR (~200 dpi for A4). */
const RENDER_LONGEST_SIDE = 2_400;

type UnpdfModule = typeof Unpdf;
let unpdfModule: Promise<UnpdfModule> | null = null;
const loadUnpdf = (): Promise<UnpdfModule> => (unpdfModule ??= import('unpdf'));

export async function extractPdf(bytes: Uint8Array, ctx: ExtractContext): Promise<FormatResult> {
  const { getDocumentProxy } = await loadUnpdf();
  let pdf: PDFDocumentProxy;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes), {
      stopAtErrors: false,
      verbosity: 0, // pdf.js warns on stdout about every recoverable flaw; errors still surface
      disableFontFace: true,
    });
  } catch (err) {
    throw mapOpenError(err);
  }
  try {
    return await readPdf(pdf, ctx);
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}

function mapOpenError(err: unknown): ExtractionError {
  const name = (err as { name?: string }).name;
  if (name === 'PasswordException')
    return new ExtractionError('password_protected', REASONS.passwordProtectedPdf, { cause: err });
  if (name === 'InvalidPDFException') {
    return new ExtractionError(
      'corrupt',
      'The PDF is damaged or incomplete and cannot be opened; save or download it again and re-upload it.',
      {
        cause: err,
      },
    );
  }
  return new ExtractionError('corrupt', 'The PDF could not be opened; it may be damaged.', { cause: err });
}

async function readPdf(pdf: PDFDocumentProxy, ctx: ExtractContext): Promise<FormatResult> {
  const { limits, warnings, signal } = ctx;
  const total = pdf.numPages;
  const toRead = Math.min(total, limits.maxPages);
  if (toRead < total) warnings.push(`Only the first ${toRead} of ${total} pages were read (page limit).`);

  const pages: ExtractedPage[] = [];
  const scanned: number[] = [];
  const unreadable: number[] = [];
  let chars = 0;
  let partial = toRead < total;
  for (let n = 1; n <= toRead; n++) {
    throwIfAborted(signal);
    try {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      // A wide gap between two runs of one line (the columns of a byline, "Achim Zeileis   Torsten
      // Hothorn", or of a two-column page) becomes a tab, so names and columns stay apart.
      let lineEnd: { x: number; y: number; size: number } | undefined;
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const [, , , d, x = 0, y = 0] = item.transform as number[];
        const size = Math.abs(d ?? 0) || item.height || 10;
        const blank = item.str.trim() === '';
        if (
          !blank &&
          lineEnd &&
          Math.abs(y - lineEnd.y) < size * 0.5 &&
          x - lineEnd.x > Math.max(lineEnd.size, size) * 1.5
        )
          text = `${text.replace(/[ \u00a0]+$/, '')}\t`;
        text += item.str + (item.hasEOL ? '\n' : '');
        if (item.hasEOL) lineEnd = undefined;
        else if (!blank) lineEnd = { x: x + item.width, y, size };
      }
      page.cleanup();
      const clean = tidyText(joinSpacingAccents(texLigatures(text)));
      if (clean.replace(/\s/g, '').length < MIN_TEXT_LAYER_CHARS) scanned.push(n);
      pages.push({ n, text: clean, ocr: false });
      chars += clean.length;
    } catch (err) {
      if (err instanceof ExtractionError) throw err;
      unreadable.push(n);
      pages.push({ n, text: '', ocr: false });
    }
    // Stop reading once there is more text than will be kept anyway.
    if (chars > limits.maxTextChars) {
      if (n < toRead) {
        warnings.push(`Reading stopped after page ${n}: the text limit was reached.`);
        partial = true;
      }
      break;
    }
  }
  if (unreadable.length === pages.length && pages.length > 0) {
    throw new ExtractionError('corrupt', 'The PDF is damaged: none of its pages could be read.');
  }
  if (unreadable.length > 0)
    warnings.push(
      `Page${unreadable.length > 1 ? 's' : ''} ${listPages(unreadable)} could not be read (damaged).`,
    );

  const ocrPages = scanned.filter((n) => !unreadable.includes(n)).slice(0, limits.maxOcrPages);
  const skipped = scanned.length - ocrPages.length - scanned.filter((n) => unreadable.includes(n)).length;
  if (skipped > 0) {
    partial = true;
    warnings.push(
      `${skipped} scanned page${skipped > 1 ? 's were' : ' was'} not OCR'd (limit ${limits.maxOcrPages} per file).`,
    );
  }
  let confidenceSum = 0;
  let confidenceCount = 0;
  if (ocrPages.length > 0) {
    const { renderPageAsImage } = await loadUnpdf();
    for (const n of ocrPages) {
      throwIfAborted(signal);
      try {
        const page = await pdf.getPage(n);
        const viewport = page.getViewport({ scale: 1 });
        const scale = Math.min(4, RENDER_LONGEST_SIDE / Math.max(viewport.width, viewport.height, 1));
        const png = await renderPageAsImage(pdf, n, { canvasImport: () => import('@napi-rs/canvas'), scale });
        page.cleanup();
        throwIfAborted(signal);
        const { text, confidence } = await ctx.ocr().recognize(Buffer.from(png));
        const clean = tidyText(joinSpacingAccents(text));
        const slot = pages[n - 1]!;
        // Keep a short text layer (a page number, a stamp) only when OCR found nothing better.
        if (clean.length > slot.text.length) pages[n - 1] = { n, text: clean, ocr: true };
        if (clean.length > 0) {
          confidenceSum += confidence;
          confidenceCount++;
        }
      } catch (err) {
        if (err instanceof ExtractionError) throw err;
        warnings.push(`Page ${n} could not be rendered for text recognition.`);
      }
    }
  }
  const metadata = await readMetadata(pdf);
  metadata.pageCount = total;
  if (confidenceCount > 0) metadata.ocrConfidence = Math.round(confidenceSum / confidenceCount);
  return {
    text: pages
      .map((p) => p.text)
      .filter((t) => t.length > 0)
      .join('\n\n'),
    pages,
    metadata,
    partial,
  };
}

function listPages(ns: number[]): string {
  return ns.length > 10 ? `${ns.slice(0, 10).join(', ')} and ${ns.length - 10} more` : ns.join(', ');
}

async function readMetadata(pdf: PDFDocumentProxy): Promise<ExtractedMetadata> {
  const metadata: ExtractedMetadata = {};
  let info: Record<string, unknown>;
  let xmp: { get(name: string): unknown } | null;
  try {
    const result = await pdf.getMetadata();
    info = (result.info ?? {}) as Record<string, unknown>;
    xmp = (result.metadata as { get(name: string): unknown } | null) ?? null;
  } catch {
    return metadata; // a broken info dictionary costs the metadata, not the text
  }
  const str = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    const t = v.replace(/\s+/g, ' ').trim();
    return t.length > 0 ? t : undefined;
  };
  const fromXmp = (name: string): string | undefined => {
    try {
      const v = xmp?.get(name);
      return str(Array.isArray(v) ? v.join(', ') : v);
    } catch {
      return undefined;
    }
  };
  const title = str(info.Title) ?? fromXmp('dc:title');
  const author = str(info.Author) ?? fromXmp('dc:creator');
  const subject = str(info.Subject) ?? fromXmp('dc:description');
  const keywords = str(info.Keywords) ?? fromXmp('pdf:keywords');
  const producer = str(info.Producer) ?? str(info.Creator);
  const created = parsePdfDate(info.CreationDate) ?? isoOrUndefined(fromXmp('xmp:createdate'));
  const modified = parsePdfDate(info.ModDate) ?? isoOrUndefined(fromXmp('xmp:modifydate'));
  if (title) metadata.title = title;
  if (author) metadata.author = author;
  if (subject) metadata.subject = subject;
  if (keywords)
    metadata.keywords = keywords
      .split(/[,;]\s*/)
      .map((k) => k.trim())
      .filter(Boolean);
  if (producer) metadata.producer = producer;
  if (created) metadata.created = created;
  if (modified) metadata.modified = modified;
  return metadata;
}

/** PDF dates look like D:YYYYMMDDHHmmSSOHH'mm' with everything after the year optional. */
export function parsePdfDate(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value !== 'string') return undefined;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?'?/.exec(
    value.trim(),
  );
  if (!m) return isoOrUndefined(value);
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const offset = sign === '+' || sign === '-' ? `${sign}${oh}:${om}` : 'Z';
  return isoOrUndefined(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
}

function isoOrUndefined(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

// TeX's T1 (Cork) font encoding puts the f-ligatures at 0x1B–0x1F; a font without a ToUnicode map
// hands them on as control characters ("Roundo\u001b error", "Coe\u001ecients").
const TEX_LIGATURES: Record<string, string> = {
  '\u001b': 'ff',
  '\u001c': 'fi',
  '\u001d': 'fl',
  '\u001e': 'ffi',
  '\u001f': 'ffl',
};

/** Those ligatures read back as their letters where they sit beside a letter ("Roundoff", "Coefficients"). */
export function texLigatures(text: string): string {
  // eslint-disable-next-line no-control-regex -- the ligatures arrive as control characters
  return text.replace(/(?<=\p{L})[\u001b-\u001f]|[\u001b-\u001f](?=\p{L})/gu, (c) => TEX_LIGATURES[c]!);
}

/**
 * TeX's fonts draw an accent as its own glyph before the letter ("f¨ur", "Universit¨at", "´o"):
 * joined back into one letter, names and words read as printed ("Mächler", "für").
 */
export function joinSpacingAccents(text: string): string {
  const COMBINING: Record<string, string> = {
    '¨': '\u0308',
    '´': '\u0301',
    '`': '\u0300',
    '˜': '\u0303',
    ˆ: '\u0302',
    '^': '\u0302',
    '¸': '\u0327',
    '˚': '\u030a',
    ˇ: '\u030c',
    '˘': '\u0306',
    '˙': '\u0307',
    '˝': '\u030b',
  };
  return text
    .replace(/(\p{L}) (?=[¨´˜ˆ¸˚ˇ˘˙˝]\s?[A-Za-zıȷ])/gu, '$1')
    .replace(/([¨´˜ˆ¸˚ˇ˘˙˝])\s?([A-Za-zıȷ])/g, (_, accent: string, letter: string) =>
      `${letter === 'ı' ? 'i' : letter === 'ȷ' ? 'j' : letter}${COMBINING[accent]}`.normalize('NFC'),
    )
    .normalize('NFC');
}
