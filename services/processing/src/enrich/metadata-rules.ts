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

// Unicode letters: Müller, Ødegaard and Łukasz are names too.
const NAME =
  "\\p{Lu}[\\p{L}'’-]+(?:\\s+(?:\\p{Lu}\\.|\\p{Lu}[\\p{L}'’-]+|van|von|de|da|del|der|la|le|bin|al))*\\s+\\p{Lu}[\\p{L}'’-]+";
const NAME_LIST = new RegExp(`^(?:${NAME})(?:\\s*(?:,|;|&|\\band\\b)\\s*(?:${NAME}))*$`, 'u');

/** "Jane A. Smith¹, Robert Jones*" → "Jane A. Smith, Robert Jones"; affiliations after the names dropped. */
export function cleanAuthors(raw: string): string {
  const s = raw
    .replace(/[¹²³⁴⁵⁶⁷⁸⁹⁰*†‡§]+/g, '')
    .replace(/\s*\(.*?\)\s*/g, ' ')
    .replace(/\s*[|–—-]\s*(?:university|institute|college|department|school|inc\.?|llc|llp|ltd).*$/i, '')
    .replace(/,\s*(?:university|institute|college|department|school|ph\.?d|m\.?d|esq|j\.?d)\b.*$/i, '')
    .replace(/\s+(?:and|&)\s+/g, ', ')
    .replace(/\s*;\s*/g, ', ')
    .replace(/\s+/g, ' ')
    .replace(/[.,;:\s]+$/, '')
    .trim();
  return s;
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
    if (words < 2 || words > 25 || l.length > 200) continue;
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
    if (/[A-Za-z]{3}/.test(stem))
      return hit(stem.charAt(0).toUpperCase() + stem.slice(1), 0.3, 'rule: file name', fileName);
  }
  return null;
}

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
      const value = cleanAuthors(m[1]!);
      if (/[A-Z][a-z]/.test(value)) return hit(value, 0.8, `rule: "${l.split(/[:\s]/)[0]}" line`, l);
    }
  }
  const start = titleLine ? Math.max(0, lines.indexOf(titleLine)) + 1 : 1;
  for (const l of lines.slice(start, start + 4)) {
    if (looksLikeNames(l)) return hit(cleanAuthors(l), 0.65, 'rule: name line under the title', l);
  }
  return null;
}

const currentYear = (): number => new Date().getUTCFullYear();
const plausibleYear = (y: number): boolean => y >= 1500 && y <= currentYear() + 1;

export function findYear(lines: string[], metadata: ExtractedMetadata): RuleHit<number> | null {
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
      !/^(?:sincerely|best regards|kind regards|warm regards|regards|yours (?:truly|sincerely|faithfully)|respectfully)(?: yours)?,?$/i.test(
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
