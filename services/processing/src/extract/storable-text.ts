// Text that every store downstream accepts: PostgreSQL's text type rejects U+0000, and a lone
// UTF-16 surrogate is not valid UTF-8 at all, so one such character (pdf.js emits them for the
// custom-encoded math fonts of formula-heavy PDFs) made the catalogue refuse the whole result on
// every retry. C0 controls other than tab and line breaks, and the C1 controls (a TeX font's
// footnote mark comes out as U+0084), carry nothing a reader sees either.
import type { ExtractedMetadata } from './extractor.ts';

const UNSTORABLE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * NUL and the other C0 controls become a space (they sit where a glyph was), a lone surrogate the
 * replacement character: one character for one, so offsets into the text (pages, passages) stay valid.
 */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, (c) => (c.length === 1 && c.charCodeAt(0) < 0xd800 ? ' ' : '\ufffd'));
}

/** The same for every string field of the file's metadata (a PDF Info title can carry NULs too). */
export function storableMetadata(metadata: ExtractedMetadata): ExtractedMetadata {
  const out: ExtractedMetadata = { ...metadata };
  for (const [k, v] of Object.entries(out) as [keyof ExtractedMetadata, unknown][]) {
    if (typeof v === 'string') (out as Record<string, unknown>)[k] = storableText(v).trim();
    else if (Array.isArray(v))
      (out as Record<string, unknown>)[k] = v.map((x) => (typeof x === 'string' ? storableText(x) : x));
  }
  if (out.extra)
    out.extra = Object.fromEntries(Object.entries(out.extra).map(([k, v]) => [k, storableText(v)]));
  return out;
}
