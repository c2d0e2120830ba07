// The title as a person reads it on the first page. The file's own title (PDF Info, DOCX core
// properties) is used when the page prints it too, or when the page offers no title: tools fill
// it with "float.dvi", "Untitled" or a working title, and the page is what the author published.
// Lines that are not titles are skipped by what they are (venue, volume, date, typesetting note,
// address, salutation), and a title broken over lines is joined back.
import type { ExtractedMetadata } from '../extract/extractor.ts';
import { ProvenanceSource } from './document-enricher.ts';
import { hit, type RuleHit } from './rule-hit.ts';

export const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';
const YEAR = '(?:1[5-9]|20)\\d\\d';

/** A printed date: "12 December 2008", "Jan. 2008", "February 6, 2023", "2021/12/29", "(2022-11-10)". */
export const DATE = new RegExp(
  `\\b(?:(?:\\d{1,2}(?:st|nd|rd|th)?\\s+)?(?:${MONTHS})\\.?(?:\\s+\\d{1,2}(?:st|nd|rd|th)?(?:\\s*[-–]\\s*\\d{1,2})?)?,?\\s+(${YEAR})|(?:spring|summer|autumn|fall|winter)\\s+(${YEAR})|(${YEAR})[-/](?:0?[1-9]|1[0-2])[-/](?:0?[1-9]|[12]\\d|3[01])|(?:0?[1-9]|[12]\\d|3[01])\\.(?:0?[1-9]|1[0-2])\\.(${YEAR}))\\b`,
  'i',
);

/** Volume, issue, page and ISSN marks: a journal's running line, never a title. */
export const VOLUME_MARKS =
  /\bvol(?:ume)?\.?\s*[\d?]|\b\d{1,4}\s*\(\d{1,4}\)\s*[:,]|\bno\.\s*[\d?]|\bn[uú]m\.\s*[\d?]|\bissue\s+\d|\bpp\.\s*\d|\bp[aá]gs?\.\s*\d|\bissn\b|\barticle\s+\d+\b/i;

/** A volume line that names no venue itself ("2014, Vol. 2, No. 1"): the venue is the line above. */
export const bareVolumeLine = (l: string): boolean =>
  VOLUME_MARKS.test(l) && /^(?:\d|vol|no\b|issue)/i.test(l);

const LABEL =
  /^(?:(?:title|authors?|written by|prepared by|from|to|re|subject|date|published|publisher|journal|source|cc|keywords)\s*:|by\s|(?:abstract|memorandum|memo)$)/i;
const SECTION =
  /^(?:abstract|summary|executive summary|introduction|contents|table of contents|confidential|privileged.*|keywords|preface|foreword|zusammenfassung|inhaltsverzeichnis|einleitung|resumen|r[ée]sum[ée]|sommaire|regular article|research article|original article|review article|preprint|draft)$/i;
const JUNK_TITLE =
  /^(untitled|microsoft (word|powerpoint)|document\d*|new document|slide ?\d*|title|draft|page \d+)\b/i;
/** Lines a typesetting system prints about itself: "Typeset using LaTeX…", "Draft version …". */
const TYPESETTING =
  /^(?:typeset|compiled|processed|printed|generated|produced|draft version|this version)\b/i;
/** Words a title does not end on: when a line ends with one, the title goes on below. */
const OPEN_END =
  /(?:^|\s)(?:of|the|and|or|for|in|on|with|to|a|an|as|by|at|from|via|into|using|between|versus|vs\.?|—|–|-|:|de|del|la|el|en|y|für|und|der|die|das|von|zu|et|le|les|des|du|pour|van|het|een|met)$/i;
const LIST_ITEM = /^(?:[-*•–·▪◦○►✓✔]|\d{1,2}[.)]|\[[ xX]?\])\s+\S/;
const GENERIC_FILE_STEM =
  /^(?:notes?|untitled|new text document|new document|document|text|file|scan(?:ned)?|img|image|photo|dsc|pxl|download|copy of|memo|draft)(?:[\s()\d.]*|\s*copy)*$/i;

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

export function plausibleTitle(s: string | undefined, fileName?: string): s is string {
  if (!s) return false;
  const t = s.trim();
  if (t.length < 3 || t.length > 250 || !/\p{L}{2}/u.test(t) || JUNK_TITLE.test(t)) return false;
  // A file name ("float.dvi", "C:/USERS/ANN/0.dvi", "report_final.pdf") names no work.
  if (/^[\w\s~:/\\.-]*\.[a-z0-9]{1,4}$/i.test(t) && !/\s\S+\s/.test(t)) return false;
  if (/^[a-z]:[/\\]|^\/\w+\//i.test(t)) return false;
  if (fileName && t.toLowerCase() === fileName.replace(/\.[^.]+$/, '').toLowerCase()) return false;
  return true;
}

/** Footnote marks and version notes that follow a title on its line ("Qtree…package¹", "(v1.3.2)"). */
function trimTitle(s: string): string {
  return (
    s
      .replace(/\t+/g, ' ')
      .replace(/(?<=\p{L}|\))\s*[∗*†‡§¶]+$/u, '')
      // a digit set on a plain lower-case word ("package1") is a footnote mark; one ending a code, a
      // version or a name ("cecbd9e5", "IPv6", "Python3", "mp3") is part of the title
      .replace(/(?<=(?:^|\s)\p{Ll}{4,})\d$/u, '')
      .replace(
        /\s*(?:[–—-]\s*|,\s*|\(\s*)?\b(?:version|v)\s?\d+(?:\.\d+)+[a-z]?\)?(?:\s+patched)?(?:\s*\([^)]*\))?$/i,
        '',
      )
      .replace(/[:\s]+$/, '')
      .trim()
  );
}

const isTitleCase = (l: string) => {
  const words = l.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  if (words.length === 0) return false;
  const caps = words.filter((w) => /^[^\p{L}]*\p{Lu}/u.test(w)).length;
  return caps / words.length >= 0.5;
};
/** Every word of four letters or more starts with a capital ("Numbering Footnote Lines"). */
const capitalisesEveryWord = (l: string) =>
  l
    .split(/[\s/]+/)
    .filter((w) => /^\p{L}{4}/u.test(w))
    .every((w) => /^\p{Lu}/u.test(w));
/** Set in capitals (a few lower-case letters allowed: "JACoW", "2ε"). */
const mostlyUpper = (l: string) => {
  const letters = l.match(/\p{L}/gu) ?? [];
  return letters.length >= 3 && letters.filter((c) => c === c.toUpperCase()).length / letters.length > 0.8;
};

/** Is this line something other than (part of) a title? */
function notATitle(
  l: string,
  next: string | undefined,
  looksLikeNames: (l: string) => boolean,
  first = false,
): boolean {
  if (LABEL.test(l) || SECTION.test(l) || TYPESETTING.test(l) || VOLUME_MARKS.test(l)) return true;
  if (/^\S*(?:doi|https?:|www\.)|@|©|\(c\)\s*\d|^c©/i.test(l)) return true;
  if (/^[\d\W]+$/u.test(l) || LIST_ITEM.test(l)) return true;
  // A date line, or a short line that carries a date ("Draft version February 26, 2021").
  // A date line: nothing much but a date and a version ("Version 4.2.2 Patched (2022-11-10)").
  const date = DATE.exec(l);
  const rest = l
    .replace(DATE, ' ')
    .replace(/\b(?:version|v)\s?\d[\w.-]*/gi, ' ')
    .replace(/[^\p{L}\s]/gu, ' ')
    .trim();
  if (date && (date.index === 0 || rest.split(/\s+/).filter(Boolean).length <= 1)) return true;
  // "…, Montreal, Canada, September 18-20, 2006": a meeting's place and dates.
  if (date && (l.match(/,/g) ?? []).length >= 2) return true;
  if (new RegExp(`^(?:${MONTHS})\\b`, 'i').test(l)) return true;
  // A venue: the line above a volume/issue line or a "dates, place" line.
  if (next && (bareVolumeLine(next) || (DATE.exec(next)?.index === 0 && /,/.test(next)))) return true;
  // An address ("Groenenborgerlaan 171, 2020 Antwerpen, BELGIUM"), a salutation.
  if (/\d{3,}.*,.*\b\p{Lu}/u.test(l) && /,/.test(l) && !/:/.test(l)) return true;
  if (/^(?:dear|hi|hello)\b/i.test(l)) return true;
  // "Harbour Studies Review, 2014": a name and a year is where the work appeared.
  if (/^\p{Lu}[\p{L}'’&. -]+,\s*\(?(?:1[5-9]|20)\d\d\)?(?:[,.;]|$)/u.test(l)) return true;
  // A Title Case title of two or three words reads like a name: names are a byline below a title.
  return !first && looksLikeNames(l);
}

/**
 * The title printed on the first page: the first line that is not something else, joined with
 * the lines that continue it (a lower-case start, an open end such as "of", a short Title Case
 * continuation, or the same capitals). A letter's title is its subject, above the salutation.
 */
export function pageTitle(
  lines: string[],
  looksLikeNames: (l: string) => boolean,
): { title: string; first: number; last: number } | null {
  const salutation = lines.findIndex((l) => /^(?:dear|hi|hello)\b/i.test(l));
  if (salutation > 0) {
    const subject = lines[salutation - 1]!.replace(DATE, '')
      .replace(/^[\s,.–-]+/, '')
      .trim();
    if (subject.split(/\s+/).length >= 2 && subject.split(/\s+/).length <= 14 && !looksLikeNames(subject))
      return { title: trimTitle(subject), first: salutation - 1, last: salutation - 1 };
  }
  for (let i = 0; i < Math.min(lines.length, 12); i++) {
    // A dash alone on its line joins the lines around it ("fnlineno.sty / — / Numbering Footnote Lines").
    const dashed = /^[—–]$/.test((lines[i + 1] ?? '').trim()) && (lines[i + 2] ?? '').trim() !== '';
    const l = (dashed ? `${lines[i]!} — ${lines[i + 2]!}` : lines[i]!).replace(/\t+/g, ' ');
    const skip = dashed ? 2 : 0;
    const words = l.split(' ').length;
    const after = lines[i + 1 + skip] ?? '';
    // A Title Case title reads like names; with a byline below it, it is the title.
    const titleAboveByline =
      i > 0 &&
      words >= 3 &&
      looksLikeNames(l) &&
      (looksLikeNames(after) || /^(?:by|por|von|par)$/i.test(after));
    if (!titleAboveByline && notATitle(l, after, looksLikeNames, i === 0)) continue;
    // One word is a title when it heads a list ("Groceries") or stands above a byline ("Concordance").
    const next0 = after;
    const oneWordTitle =
      i <= 1 && /\p{L}{3}/u.test(l) && (LIST_ITEM.test(next0) || (next0 !== '' && looksLikeNames(next0)));
    if ((words < 2 && !oneWordTitle) || words > 25 || l.length > 200) continue;
    if (/[.;,]$/.test(l) && !/\?$/.test(l)) continue;
    let title = l;
    let last = i + skip;
    for (let j = last + 1; j < Math.min(lines.length, last + 5); j++) {
      // A footnote mark closes the title it is set on ("The xkeyval package ∗" / "xkeyval").
      if (/[∗*†‡]$/u.test(title)) break;
      const next = lines[j]!.replace(/\t+/g, ' ');
      const nextWords = next.split(' ').length;
      if (nextWords > 15 || /[.;]$/.test(next) || SECTION.test(next) || LABEL.test(next)) break;
      if (/^(?:by|por|von|par|door)$/i.test(next) || /\t/.test(lines[j]!)) break;
      // A line that ends on "of", "in", "—": whatever follows is still the title ("as of / Feb. 2005").
      if (OPEN_END.test(title) && !(looksLikeNames(next) && /,|\band\b|&/.test(next))) {
        title = `${title} ${next}`;
        last = j;
        continue;
      }
      if (notATitle(next, lines[j + 1], looksLikeNames)) break;
      if (mostlyUpper(title) !== mostlyUpper(next) && !/^\p{Ll}/u.test(next)) break;
      const continues =
        /^\p{Ll}/u.test(next) ||
        /:$/.test(title) ||
        (mostlyUpper(title) && mostlyUpper(next)) ||
        (j === i + 1 + skip &&
          nextWords <= 8 &&
          isTitleCase(next) &&
          (title.length >= 25 || nextWords <= 2) &&
          // A title keeps its capitals: under a Title Case line, a sentence-case line is a heading
          // ("Asymptote Reference Card" / "Program structure/functions").
          !(capitalisesEveryWord(title) && !capitalisesEveryWord(next)));
      if (!continues) break;
      title = `${title} ${next}`;
      last = j;
    }
    return { title: trimTitle(title), first: i, last };
  }
  return null;
}

/** The lines a title is printed on: the first line it starts with, and as many as it spans. */
function printedLines(lines: string[], title: string): [number, number] | undefined {
  const t = norm(title);
  for (let i = 0; i < Math.min(lines.length, 20); i++) {
    let joined = norm(lines[i]!);
    if (!joined || !t.startsWith(joined)) continue;
    let j = i;
    while (
      joined.length < t.length &&
      j + 1 < lines.length &&
      t.startsWith(`${joined} ${norm(lines[j + 1]!)}`.trim())
    ) {
      j++;
      joined = `${joined} ${norm(lines[j]!)}`.trim();
    }
    return [i, j];
  }
  return undefined;
}

export function findTitle(
  lines: string[],
  metadata: ExtractedMetadata,
  fileName: string | undefined,
  looksLikeNames: (l: string) => boolean,
): (RuleHit<string> & { lines?: [number, number] }) | null {
  for (const l of lines.slice(0, 20)) {
    const m = /^(?:title|re|subject)\s*:\s*(.{3,200})$/i.exec(l);
    if (m) {
      const at = lines.indexOf(l);
      return { ...hit(m[1]!.trim(), 0.8, `rule: "${l.split(':')[0]}:" line`, l), lines: [at, at] };
    }
  }
  const page = pageTitle(lines, looksLikeNames);
  const meta = plausibleTitle(metadata.title, fileName) ? metadata.title.trim() : undefined;
  // The file's title counts when the page prints it (it is often the cleaner, whole title).
  if (meta && (!page || norm(lines.slice(0, 20).join(' ')).includes(norm(meta)))) {
    const metaHit = hit(meta, page ? 0.9 : 0.6, 'file metadata title', meta, ProvenanceSource.FILE_METADATA);
    return page ? { ...metaHit, lines: printedLines(lines, meta) ?? [page.first, page.last] } : metaHit;
  }
  if (page)
    return {
      ...hit(page.title, page.first === 0 ? 0.7 : 0.6, 'rule: title on the first page', page.title),
      lines: [page.first, page.last],
    };
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
