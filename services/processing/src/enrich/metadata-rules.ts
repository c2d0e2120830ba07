// Bibliographic fields from the file's own metadata first, then rules over the first page's lines
// (title lines, "by X", journal/DOI/volume lines, dates). Each hit says which rule found it and
// quotes the line, so the user can see why a value was chosen.
import type { ExtractedMetadata } from '../extract/extractor.ts';
import { excerpt, ProvenanceSource } from './document-enricher.ts';

export interface RuleHit<T> {
  value: T;
  confidence: number;
  source: ProvenanceSource;
  method: string;
  evidence: string;
}

const hit = <T>(
  value: T,
  confidence: number,
  method: string,
  evidence: string,
  source = ProvenanceSource.TEXT_ANALYSIS,
): RuleHit<T> => ({
  value,
  confidence,
  source,
  method,
  evidence: excerpt(evidence),
});

/** The first non-empty lines of the document (the title page), trimmed. */
export function headerLines(text: string, maxLines = 40, maxChars = 4000): string[] {
  return text
    .slice(0, maxChars)
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l.length > 0)
    .slice(0, maxLines);
}

const JUNK_TITLE =
  /^(untitled|microsoft (word|powerpoint)|document\d*|new document|slide ?\d*|title|draft|page \d+)\b/i;
const JOURNAL_WORDS =
  /\b(journal|review|proceedings|transactions|quarterly|annals|bulletin|letters|magazine|press|publishing|publishers|gazette|periodical|conference|symposium|quarterly|series|working paper)\b/i;
const STRONG_JOURNAL =
  /\b(journal|proceedings|transactions|press|publishing|publishers|law review|quarterly|annals|gazette|conference|symposium)\b/i;
const DOI = /\b(?:doi:?\s*|https?:\/\/(?:dx\.)?doi\.org\/)(10\.\d{4,9}\/\S+)/i;
const LABEL =
  /^(?:(?:title|authors?|written by|prepared by|from|to|re|subject|date|published|publisher|journal|source|cc|keywords)\s*:|by\s|(?:abstract|memorandum|memo)$)/i;
const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';

function plausibleTitle(s: string | undefined, fileName?: string): s is string {
  if (!s) return false;
  const t = s.trim();
  if (t.length < 3 || t.length > 250 || !/[A-Za-z]{2}/.test(t) || JUNK_TITLE.test(t)) return false;
  if (/\.(pdf|docx?|txt|png|jpe?g)$/i.test(t)) return false;
  if (fileName && t.toLowerCase() === fileName.replace(/\.[^.]+$/, '').toLowerCase()) return false;
  return true;
}

const DATE_ONLY = new RegExp(
  `^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\\s+)?(?:\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${MONTHS})\\.?|(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?),?(?:\\s+(?:1[5-9]|20)\\d\\d)?$`,
  'i',
);

// Unicode letters: Müller, Ødegaard and Łukasz are names too.
const NAME =
  "\\p{Lu}[\\p{L}'’-]+(?:\\s+(?:\\p{Lu}\\.|\\p{Lu}[\\p{L}'’-]+|van|von|de|da|del|der|la|le|bin|al))*\\s+\\p{Lu}[\\p{L}'’-]+";
const NAME_LIST = new RegExp(`^(?:${NAME})(?:\\s*(?:,|;|&|\\band\\b)\\s*(?:${NAME}))*$`, 'u');

const AFFILIATION =
  /\b(?:universit\w*|institut\w*|college|department|dept|school|faculty|laborator\w*|lab|cent(?:re|er)|hospital|clinic|foundation|society|association|press|publish\w*|inc|llc|llp|ltd|gmbh|corp\w*|company|co|group|partners|agency|ministry|council|office|bureau|museum|library|studio|team)\b/i;
const ROLE =
  /^(?:ph\.?\s?d|m\.?\s?d|m\.?\s?sc|m\.?\s?a|b\.?\s?a|mba|esq|j\.?\s?d|jr|sr|ii|iii|editor|eds?|partner|associate|professor|student|intern|director|manager|ceo|cto|founder|owner|chair|secretary|translator|et al)\.?$/i;
const HONORIFIC = /^(?:dr|prof|professor|mr|mrs|ms|mx|sir|dame)\.?\s+/i;
const NAME_WORD =
  /^(?:\p{Lu}[\p{L}'’-]*\.?|\p{Lu}\.(?:\s?\p{Lu}\.)*|van|von|de|da|del|della|der|den|di|du|la|le|bin|al|ibn|y)$/u;
// Capitalised words that open greetings, headings and dates, not names ("Dear Mr. Tanaka", "Meeting Notes").
const NOT_A_NAME =
  /^(?:dear|hi|hello|hey|attn|to|re|the|a|an|in|on|at|for|of|with|my|our|your|this|that|notes?|meeting|minutes|list|todo|agenda|summary|abstract|thanks|cheers|best|regards|sincerely|present|next|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday)$/i;
const INITIALS = /^(?:\p{Lu}\.\s?){1,3}$/u;

/** A part of a byline that is a person's name: 1–5 capitalised words (particles and initials allowed). */
function isPersonName(part: string): boolean {
  const words = part.split(' ');
  if (words.length < 1 || words.length > 5 || /\d|@|\//.test(part) || AFFILIATION.test(part)) return false;
  if (NOT_A_NAME.test(words[0]!)) return false;
  if (!words.every((w) => NAME_WORD.test(w))) return false;
  // A name has at least one word that is not an initial or a particle.
  return words.some((w) => /^\p{Lu}[\p{L}'’-]+$/u.test(w));
}

/** Byline parts that are not names but are expected next to them: years, dates, affiliations, roles. */
function isBylineExtra(part: string): boolean {
  const p = part.replace(/[()[\]]/g, '').trim();
  if (p === '') return true;
  if (/^(?:(?:c\.|circa|©)\s*)?(?:1[5-9]|20)\d\d(?:\s*[-–]\s*(?:\d\d){1,2})?$/i.test(p)) return true;
  if (
    new RegExp(
      `^(?:\\d{1,2}\\s+)?(?:${MONTHS})\\.?(?:\\s+\\d{1,2})?,?\\s*(?:(?:1[5-9]|20)\\d\\d)?$`,
      'i',
    ).test(p)
  )
    return true;
  if (/^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/.test(p) || /@|https?:|www\./i.test(p)) return true;
  return AFFILIATION.test(p) || ROLE.test(p);
}

/** Splits a byline into its parts: "A and B", "A, B & C", "A; B", "A | Institute". */
function bylineParts(raw: string): string[] {
  return raw
    .normalize('NFC')
    .replace(/[¹²³⁴⁵⁶⁷⁸⁹⁰*†‡§]+/g, '')
    .replace(/\s*\(([^)]*)\)\s*/g, ', $1, ')
    .replace(/\s+(?:and|&|und|et)\s+/gi, ', ')
    .replace(/\s*[;|–—]\s*|\s+-\s+/g, ', ')
    .split(/\s*,\s*/)
    .map((s) =>
      s
        .replace(/\s+/g, ' ')
        .replace(/^(?:by|written by|prepared by|authors?:?)\s+/i, '')
        .replace(HONORIFIC, '')
        .replace(/^[.,;:\s'"“”‘’]+|[.,;:\s'"“”‘’]+$/g, '')
        .replace(/(^|\s)(\p{Lu})$/u, '$1$2.'),
    )
    .filter(Boolean);
}

/**
 * "Jane A. Smith¹, Robert Jones*" → "Jane A. Smith, Robert Jones"; "By Livia Marcellus, 1987" →
 * "Livia Marcellus"; "Smith, J. and Jones, R." → "J. Smith, R. Jones". Years, dates, affiliations,
 * roles and degrees next to the names are dropped (a year belongs in publication_year). When no
 * part reads as a person (an organisation as author), the first part is kept as written.
 */
export function cleanAuthors(raw: string): string {
  const names = personNames(raw);
  if (names) return names;
  const first = bylineParts(raw).find((p) => !isBylineExtra(p) && /\p{L}{2}/u.test(p));
  return first ?? '';
}

/** Only the parts of a byline that read as people's names, comma-separated ('' when none do). */
export function personNames(raw: string): string {
  const parts = bylineParts(raw);
  const names: string[] = [];
  parts.forEach((part, i) => {
    const next = parts[i + 1];
    // "Smith, J." → the initials belong to the surname before them.
    if (next && INITIALS.test(next) && /^\p{Lu}[\p{L}'’-]+$/u.test(part) && !NOT_A_NAME.test(part)) {
      names.push(`${next.replace(/\s+/g, ' ').trim()} ${part}`);
      return;
    }
    // One capitalised word alone ("Thanks", "Present") is rarely a name: two words at least.
    if (part.includes(' ') && isPersonName(part)) names.push(part);
  });
  return [...new Set(names)].join(', ');
}

/** The names of a byline whose every other part is a year, date, affiliation or role; else null. */
export function bylineNames(line: string): string | null {
  if (line.split(' ').length > 16) return null;
  const parts = bylineParts(line);
  if (parts.length === 0) return null;
  let people = 0;
  for (const p of parts) {
    if ((p.includes(' ') && isPersonName(p)) || (INITIALS.test(p) && people > 0)) people++;
    else if (!isBylineExtra(p)) return null;
  }
  return people > 0 ? cleanAuthors(line) : null;
}

function looksLikeNames(line: string): boolean {
  const cleaned = line
    .replace(/[¹²³⁴⁵⁶⁷⁸⁹⁰*†‡§\d]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length <= 120 && NAME_LIST.test(cleaned) && !JOURNAL_WORDS.test(cleaned);
}

export function findTitle(
  lines: string[],
  metadata: ExtractedMetadata,
  fileName?: string,
): RuleHit<string> | null {
  if (plausibleTitle(metadata.title, fileName)) {
    return hit(
      metadata.title.trim(),
      0.9,
      'file metadata title',
      metadata.title,
      ProvenanceSource.FILE_METADATA,
    );
  }
  for (const l of lines.slice(0, 20)) {
    const m = /^(?:title|re|subject)\s*:\s*(.{3,200})$/i.exec(l);
    if (m) return hit(m[1]!.trim(), 0.8, `rule: "${l.split(':')[0]}:" line`, l);
  }
  for (let i = 0; i < Math.min(lines.length, 8); i++) {
    const l = lines[i]!;
    const words = l.split(' ').length;
    if (LABEL.test(l) || DOI.test(l) || (JOURNAL_WORDS.test(l) && /\d/.test(l))) continue;
    if (
      /^(abstract|summary|executive summary|introduction|table of contents|confidential|privileged.*)$/i.test(
        l,
      )
    )
      continue;
    if (new RegExp(`^(?:${MONTHS})\\b`, 'i').test(l) || /^[\d\W]+$/.test(l) || /@/.test(l)) continue;
    // "3 October 2025", "Tuesday, 12 March": a date line, not a title.
    if (DATE_ONLY.test(l)) continue;
    if (LIST_ITEM.test(l)) continue;
    // One word is a title only as the heading of a list ("Groceries", "TODO").
    const headsList = i === 0 && LIST_ITEM.test(lines[1] ?? '') && /\p{L}{3}/u.test(l);
    if ((words < 2 && !headsList) || words > 25 || l.length > 200) continue;
    if (/[.;,]$/.test(l) && !/\?$/.test(l)) continue;
    if (looksLikeNames(l) && i > 0) continue;
    let title = l;
    // A title broken over two lines: the second starts in lower case or the first ends with ':'.
    const next = lines[i + 1];
    if (next && (/^[a-z]/.test(next) || /:$/.test(l)) && next.split(' ').length < 15 && !LABEL.test(next))
      title = `${l} ${next}`;
    return hit(title.replace(/:$/, ''), i === 0 ? 0.7 : 0.6, 'rule: leading title line', title);
  }
  if (fileName) {
    const stem = fileName
      .replace(/\.[^.]+$/, '')
      .replace(/[_-]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    // "note.txt", "Untitled (2).txt", "IMG_2041.jpg" name no subject: the first sentence is better.
    if (/[A-Za-z]{3}/.test(stem) && !GENERIC_FILE_STEM.test(stem))
      return hit(stem.charAt(0).toUpperCase() + stem.slice(1), 0.3, 'rule: file name', fileName);
  }
  return null;
}

const LIST_ITEM = /^(?:[-*•–·▪◦○►✓✔]|\d{1,2}[.)]|\[[ xX]?\])\s+\S/;

const GENERIC_FILE_STEM =
  /^(?:notes?|untitled|new text document|new document|document|text|file|scan(?:ned)?|img|image|photo|dsc|pxl|download|copy of|memo|draft)(?:[\s()\d.]*|\s*copy)*$/i;

const JUNK_AUTHOR =
  /^(user|admin|administrator|owner|author|unknown|microsoft office user|windows user|root|guest|anonymous)$/i;

export function findAuthor(
  lines: string[],
  metadata: ExtractedMetadata,
  titleLine?: string,
): RuleHit<string> | null {
  const meta = metadata.author?.trim();
  if (meta && !JUNK_AUTHOR.test(meta) && !/@/.test(meta) && /[A-Za-z]{2}/.test(meta)) {
    return hit(cleanAuthors(meta), 0.85, 'file metadata author', meta, ProvenanceSource.FILE_METADATA);
  }
  for (const l of lines.slice(0, 25)) {
    const m = /^(?:authors?|by|written by|prepared by|from)\s*[:\s]\s*(.{3,160})$/i.exec(l);
    if (m) {
      // "Author:" names whoever is there; "by"/"from" must be followed by people ("From the kiln…" is prose).
      const value = /^authors?\s*:/i.test(l) ? cleanAuthors(m[1]!) : personNames(m[1]!);
      if (/[A-Z][a-z]/.test(value)) return hit(value, 0.8, `rule: "${l.split(/[:\s]/)[0]}" line`, l);
    }
  }
  const start = titleLine ? Math.max(0, lines.indexOf(titleLine)) + 1 : 1;
  for (const l of lines.slice(start, start + 4)) {
    if (looksLikeNames(l)) return hit(cleanAuthors(l), 0.65, 'rule: name line under the title', l);
    const names = bylineNames(l);
    if (names) return hit(names, 0.6, 'rule: byline under the title', l);
  }
  return null;
}

const currentYear = (): number => new Date().getUTCFullYear();
const plausibleYear = (y: number): boolean => y >= 1500 && y <= currentYear() + 1;

export function findYear(
  lines: string[],
  metadata: ExtractedMetadata,
  /** The line the author was read from: a year beside the names is the publication year. */
  byline?: string,
): RuleHit<number> | null {
  const header = lines.slice(0, 30);
  const labelled = new RegExp(
    `^(?:published|publication date|date|dated|copyright|©|\\(c\\)|issued|submitted|accepted|received)\\s*:?\\s*(?:on\\s+)?(?:(?:${MONTHS})\\.?\\s+)?(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?(?:(?:${MONTHS})\\.?,?\\s+)?((?:1[5-9]|20)\\d\\d)\\b`,
    'i',
  );
  for (const l of header) {
    const m = labelled.exec(l) ?? /(?:©|\bcopyright\b)\s*(?:\(c\)\s*)?((?:1[5-9]|20)\d\d)/i.exec(l);
    if (m && plausibleYear(Number(m[1]))) return hit(Number(m[1]), 0.85, 'rule: date/copyright line', l);
  }
  for (const l of header) {
    if (!(JOURNAL_WORDS.test(l) || /\bvol(?:ume)?\.?\s*\d/i.test(l) || DOI.test(l))) continue;
    const m = /\b((?:1[5-9]|20)\d\d)\b/.exec(l);
    if (m && plausibleYear(Number(m[1]))) return hit(Number(m[1]), 0.8, 'rule: journal/volume line', l);
  }
  const dateLine = new RegExp(
    `^(?:(?:${MONTHS})\\.?\\s+(?:\\d{1,2},?\\s+)?|\\d{1,2}\\s+(?:${MONTHS})\\.?,?\\s+)((?:1[5-9]|20)\\d\\d)$|^((?:1[5-9]|20)\\d\\d)-\\d\\d-\\d\\d$`,
    'i',
  );
  for (const l of header.slice(0, 15)) {
    const m = dateLine.exec(l);
    const y = Number(m?.[1] ?? m?.[2]);
    if (m && plausibleYear(y)) return hit(y, 0.7, 'rule: date line near the top', l);
  }
  // Numeric dates in the first lines: 14/03/2024, 3.14.2024 (day/month order does not matter for the year).
  for (const l of header.slice(0, 8)) {
    const m = /(?:^|\s|:)\d{1,2}[/.]\d{1,2}[/.]((?:1[5-9]|20)\d\d)\b/.exec(l);
    if (m && plausibleYear(Number(m[1])) && l.split(' ').length <= 12)
      return hit(Number(m[1]), 0.65, 'rule: numeric date near the top', l);
  }
  if (byline) {
    const m = /\b((?:1[5-9]|20)\d\d)\b/.exec(byline);
    if (m && plausibleYear(Number(m[1]))) return hit(Number(m[1]), 0.7, 'rule: year in the byline', byline);
  }
  const created = metadata.created ? new Date(metadata.created).getUTCFullYear() : NaN;
  if (plausibleYear(created)) {
    return hit(
      created,
      0.45,
      'file metadata creation date',
      metadata.created!,
      ProvenanceSource.FILE_METADATA,
    );
  }
  const counts = new Map<number, { n: number; line: string }>();
  for (const l of header) {
    for (const m of l.matchAll(/\b((?:1[5-9]|20)\d\d)\b/g)) {
      const y = Number(m[1]);
      if (!plausibleYear(y)) continue;
      const e = counts.get(y) ?? { n: 0, line: l };
      e.n++;
      counts.set(y, e);
    }
  }
  const best = [...counts.entries()].sort((a, b) => b[1].n - a[1].n || b[0] - a[0])[0];
  return best ? hit(best[0], 0.35, 'rule: most frequent year in the first lines', best[1].line) : null;
}

export function findJournal(
  lines: string[],
  metadata: ExtractedMetadata,
  titleLine?: string,
): RuleHit<string> | null {
  if (metadata.publisher?.trim()) {
    return hit(
      metadata.publisher.trim(),
      0.8,
      'file metadata publisher',
      metadata.publisher,
      ProvenanceSource.FILE_METADATA,
    );
  }
  for (const l of lines.slice(0, 30)) {
    const m =
      /^(?:journal|publisher|published by|published in|source|in)\s*:\s*(.{3,160})$/i.exec(l) ??
      /^published (?:by|in)\s+(.{3,160})$/i.exec(l);
    if (m) return hit(trimJournal(m[1]!), 0.85, 'rule: publisher/journal label', l);
  }
  // A journal line: strong words (journal, proceedings, press) or volume/issue/page/year marks.
  let best: { line: string; name: string; score: number } | null = null;
  for (const l of lines.slice(0, 30)) {
    if (l === titleLine || !JOURNAL_WORDS.test(l) || l.split(' ').length > 20 || LABEL.test(l)) continue;
    let score = 0;
    if (STRONG_JOURNAL.test(l)) score += 2;
    if (/\bvol(?:ume)?\.?\s*\d|\bno\.\s*\d|\bpp\.|\(\s*(?:1[5-9]|20)\d\d\s*\)|\bissue\s+\d/i.test(l))
      score += 2;
    if (DOI.test(l)) score += 1;
    const name = trimJournal(l);
    if (score < 2 || name.length < 4 || !JOURNAL_WORDS.test(name)) continue;
    if (!best || score > best.score) best = { line: l, name, score };
  }
  if (best) return hit(best.name, best.score >= 4 ? 0.8 : 0.7, 'rule: journal/publisher line', best.line);
  if (metadata.siteName?.trim()) {
    return hit(
      metadata.siteName.trim(),
      0.7,
      'web page site name',
      metadata.siteName,
      ProvenanceSource.FILE_METADATA,
    );
  }
  return null;
}

/** "Journal of Legal Informatics, Vol. 12, No. 3 (2019), pp. 1-20" → "Journal of Legal Informatics". */
function trimJournal(s: string): string {
  return s
    .replace(DOI, '')
    .split(/,|\bvol(?:ume)?\.?\s*\d|\bno\.\s*\d|\(\s*(?:1[5-9]|20)\d\d|\bpp\.|\s\d{1,4}\s*\(/i)[0]!
    .replace(/[.\s:;-]+$/, '')
    .trim();
}

export function findDoi(text: string): string | undefined {
  return DOI.exec(text.slice(0, 6000))?.[1]?.replace(/[.,;)]+$/, '');
}

/** A letter's signature: the name under "Sincerely," (or another closing) near the end. */
export function findSignature(text: string): RuleHit<string> | null {
  const lines = text
    .slice(-2000)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  for (let i = lines.length - 2; i >= Math.max(0, lines.length - 12); i--) {
    if (
      !/^(?:sincerely|best regards|kind regards|warm regards|regards|yours (?:truly|sincerely|faithfully)|respectfully|thanks|many thanks|thank you|cheers|best|best wishes|all the best)(?: yours)?[,.!]?$/i.test(
        lines[i]!,
      )
    )
      continue;
    const name = lines[i + 1]!;
    if (new RegExp(`^${NAME}$`, 'u').test(name))
      return hit(name, 0.7, 'rule: signature after the closing', `${lines[i]} ${name}`);
  }
  return null;
}
