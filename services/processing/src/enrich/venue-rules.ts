// Where the work appeared, read from how the page prints it rather than from a list of words like
// "journal" or "press" (most venues have neither: "Harbour Studies Review", "R News", "J. ACM"):
// a labelled line; a name followed by volume/issue/page marks, a year, or the dates and place of a
// meeting; the page's own citation of itself ("… 2018. <title>. J. ACM 37, 4, …"); "published in
// the Journal of …" in a reprint's abstract; then the file's own publisher field.
import type { ExtractedMetadata } from '../extract/extractor.ts';
import { ProvenanceSource } from './document-enricher.ts';
import { hit, type RuleHit } from './rule-hit.ts';
import { bareVolumeLine, DATE, VOLUME_MARKS } from './title-rules.ts';

const DOI = /\b(?:doi:?\s*|https?:\/\/(?:dx\.)?doi\.org\/)(10\.\d{4,9}\/\S+)/i;
const NAME_WORD = "(?:\\p{Lu}[\\p{L}’'.-]*|of|the|and|for|in|on|de|la|del|des|der|für|&)";
/** A venue name: capitalised words (and the small words between them), two at least. */
const VENUE_NAME = new RegExp(`(\\p{Lu}[\\p{L}’'.-]*(?:\\s+${NAME_WORD}){1,12})`, 'u');

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** "Journal of Legal Informatics, Vol. 12, No. 3 (2019), pp. 1-20" → "Journal of Legal Informatics". */
export function trimVenue(s: string): string {
  return s
    .replace(DOI, '')
    .replace(/\t.*$/, '')
    .split(
      /,|\bvol(?:ume)?\.?\s*[\d?]|\bno\.\s*[\d?]|\(\s*(?:1[5-9]|20)\d\d|\bpp\.|\s\d{1,4}\s*\(|\s(?:c©|©)/i,
    )[0]!
    .replace(/[.\s:;-]+$/, '')
    .replace(/\s+(?:of|the|and|for|in|on)$/i, '')
    .trim();
}

const plausibleVenue = (name: string) =>
  name.length >= 4 && /\p{Lu}/u.test(name) && name.split(/\s+/).length <= 16 && !/@|https?:|www\./.test(name);

export function findVenue(
  lines: string[],
  text: string,
  metadata: ExtractedMetadata,
  title: { value: string; first: number; last: number } | undefined,
  isNames: (l: string) => boolean,
): RuleHit<string> | null {
  for (const l of lines.slice(0, 30)) {
    const m =
      /^(?:journal|publisher|published by|published in|source|in|venue)\s*:\s*(.{3,160})$/i.exec(l) ??
      /^published (?:by|in)\s+(.{3,160})$/i.exec(l);
    if (m) return hit(trimVenue(m[1]!), 0.85, 'rule: publisher/journal label', l);
  }
  const top = lines.slice(0, Math.max(12, (title?.last ?? 0) + 6));
  for (let i = 0; i < top.length; i++) {
    const l = top[i]!;
    if (title && i >= title.first && i <= title.last) continue;
    if (isNames(l)) continue;
    // A line that quotes the title cites the work itself: read below, after the title.
    if (title && title.value.length >= 12 && norm(l).includes(norm(title.value))) continue;
    const next = top[i + 1] ?? '';
    // "Condensed Matter Physics, 2021, Vol. 3" / "Harbour Studies Review, 2014" / "Proc. of … (DAFx-06),
    // Montreal, Canada, September 18-20, 2006": the name before the marks.
    const marked =
      VOLUME_MARKS.test(l) ||
      // "Ecology and Society 25(3): 14 (2020)": volume(issue), or the year in brackets at the end.
      (/^\p{Lu}/u.test(l) && /\s\d{1,4}\s*\(\d{1,4}\)|\((?:1[5-9]|20)\d\d\)[.,;]?$/u.test(l)) ||
      /^\p{Lu}[\p{L}'’&.() -]+,\s*\(?(?:1[5-9]|20)\d\d\)?(?:[,.;]|$)/u.test(l) ||
      (DATE.test(l) && /,/.test(l) && (!title || i < title.first));
    if (marked) {
      const name = trimVenue(l);
      if (plausibleVenue(name) && !DATE.test(name) && /\p{L}{3}/u.test(name) && !/^(?:vol|no)\b/i.test(name))
        return hit(name, 0.8, 'rule: venue line (volume, year or dates)', l);
    }
    // The name alone on the line above its volume line or above a meeting's "dates, place" line.
    if (
      (bareVolumeLine(next) || (DATE.exec(next)?.index === 0 && /,/.test(next))) &&
      !VOLUME_MARKS.test(l) &&
      !/:$/.test(l) &&
      plausibleVenue(trimVenue(l))
    )
      return hit(trimVenue(l), 0.8, 'rule: venue above its volume or dates line', `${l} ${next}`);
  }
  // A running head above the title: a name of three words or more on a line of its own.
  if (title)
    for (const l of lines.slice(0, title.first)) {
      if (/\d|[.:;,!?]$/.test(l) || isNames(l) || l.split(/\s+/).length < 3) continue;
      if (new RegExp(`^${VENUE_NAME.source}$`, 'u').test(l) && plausibleVenue(l))
        return hit(l, 0.6, 'rule: running head above the title', l);
    }
  // The page cites itself: "<authors>. 2018. <title>. J. ACM 37, 4, Article 111 (August 2018)".
  if (title && title.value.length >= 12) {
    const flat = text.slice(0, 8000).replace(/\s+/g, ' ');
    const at = norm(flat).indexOf(norm(title.value));
    if (at >= 0) {
      const esc = title.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
      const m = new RegExp(`${esc}\\.\\s+([^.\\d][^\\d]{2,80}?)\\s+\\d`, 'i').exec(flat);
      if (m && plausibleVenue(m[1]!.trim()) && m[1]!.split(/\s+/).length <= 10)
        return hit(m[1]!.trim().replace(/[,.]$/, ''), 0.75, 'rule: the page cites itself', m[0]);
    }
  }
  // A reprint says where it was published: "… published in the Journal of Statistical Software."
  const abstract = text
    .slice(0, 4000)
    .replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2')
    .replace(/\s+/g, ' ');
  const said = new RegExp(
    `\\b(?:published|appeared|appears|reprinted)\\s+(?:as\\s+[^.]{0,80}?\\s+)?in\\s+(?:the\\s+)?${VENUE_NAME.source}`,
    'u',
  ).exec(abstract);
  if (said) {
    const name = said[1]!
      // A full stop after a word (not an abbreviation such as "Int.") ends the sentence.
      .replace(/(\p{L}{4,})\.\s.*$/u, '$1')
      .replace(/\s+(?:of|the|and|for|in|on|&)$/i, '')
      .replace(/[.,]$/, '');
    if (plausibleVenue(name)) return hit(name, 0.7, 'rule: "published in" the venue', said[0]);
  }
  if (metadata.publisher?.trim())
    return hit(
      metadata.publisher.trim(),
      0.6,
      'file metadata publisher',
      metadata.publisher,
      ProvenanceSource.FILE_METADATA,
    );
  if (metadata.siteName?.trim())
    return hit(
      metadata.siteName.trim(),
      0.7,
      'web page site name',
      metadata.siteName,
      ProvenanceSource.FILE_METADATA,
    );
  return null;
}
