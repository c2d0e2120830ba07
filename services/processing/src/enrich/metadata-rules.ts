// Bibliographic fields from the file's own metadata first, then rules over the first page's lines
// (title lines, "by X", journal/DOI/volume lines, dates). Each hit says which rule found it and
// quotes the line, so the user can see why a value was chosen.
import type { ExtractedMetadata } from '../extract/extractor.ts';
import { ProvenanceSource } from './document-enricher.ts';
import { hit, type RuleHit } from './rule-hit.ts';
import { findTitle as findPrintedTitle } from './title-rules.ts';

export type { RuleHit } from './rule-hit.ts';
export { findYear } from './year-rules.ts';
export { findVenue } from './venue-rules.ts';

/** The first non-empty lines of the document (the title page), trimmed. */
export function headerLines(text: string, maxLines = 40, maxChars = 4000): string[] {
  return (
    text
      .slice(0, maxChars)
      .split(/\r?\n/)
      // A tab stands for a wide gap on the page (byline columns): kept, so names stay apart.
      .map((l) =>
        l
          .replace(/[^\S\t]+/g, ' ')
          .replace(/ ?\t[\t ]*/g, '\t')
          .trim(),
      )
      .filter((l) => l.length > 0)
      .slice(0, maxLines)
  );
}

const JOURNAL_WORDS =
  /\b(journal|review|proceedings|transactions|quarterly|annals|bulletin|letters|magazine|press|publishing|publishers|gazette|periodical|conference|symposium|quarterly|series|working paper)\b/i;
const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';

// Unicode letters: Müller, Ødegaard and Łukasz are names too.
const NAME =
  "\\p{Lu}[\\p{L}'’-]+(?:\\s+(?:\\p{Lu}\\.|\\p{Lu}[\\p{L}'’-]+|van|von|de|da|del|der|la|le|bin|al))*\\s+\\p{Lu}[\\p{L}'’-]+";
const NAME_LIST = new RegExp(`^(?:${NAME})(?:\\s*(?:,|;|&|\\band\\b)\\s*(?:${NAME}))*$`, 'u');

const AFFILIATION =
  /\b(?:universit\w*|institut\w*|college|department|dept|school|faculty|laborator\w*|lab|cent(?:re|er)|hospital|clinic|foundation|society|association|press|publish\w*|inc|llc|llp|ltd|gmbh|corp\w*|company|co|group|partners|agency|ministry|council|office|bureau|museum|library|studio|team|project)\b/i;
const ROLE =
  /^(?:ph\.?\s?d|m\.?\s?d|m\.?\s?sc|m\.?\s?a|b\.?\s?a|mba|esq|j\.?\s?d|jr|sr|ii|iii|editor|eds?|partner|associate|professor|student|intern|director|manager|ceo|cto|founder|owner|chair|secretary|translator|et al|member|fellow|senior member|life fellow)\.?$/i;
const HONORIFIC = /^(?:dr|prof|professor|mr|mrs|ms|mx|sir|dame)\.?\s+/i;
const NAME_WORD =
  /^(?:\p{Lu}[\p{L}'’-]*\.?|\p{Lo}[\p{L}\p{M}]*|\p{Lu}\.(?:\s?\p{Lu}\.)*|van|von|de|da|del|della|der|den|di|du|la|le|bin|al|ibn|y)$/u;
// Capitalised words that open greetings, headings and dates, not names ("Dear Mr. Tanaka", "Meeting Notes").
const NOT_A_NAME =
  /^(?:dear|hi|hello|hey|attn|to|re|the|a|an|in|on|at|for|of|with|my|our|your|this|that|notes?|meeting|minutes|list|todo|agenda|summary|abstract|thanks|cheers|best|regards|sincerely|present|next|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|user|users|guide|manual|documentation|version|edition|handbook|notes)$/i;
const INITIALS = /^(?:\p{Lu}\.\s?){1,3}$/u;

/** A part of a byline that is a person's name: 1–5 capitalised words (particles and initials allowed). */
function isPersonName(part: string): boolean {
  const words = part.split(' ');
  if (words.length < 1 || words.length > 5 || /\d|@|\//.test(part) || AFFILIATION.test(part)) return false;
  if (/universit|institut|hochschule|[ée]cole/i.test(part)) return false;
  if (NOT_A_NAME.test(words[0]!)) return false;
  // "R Enthusiasts": a bare letter opens no name (an initial has its full stop: "R. Jones").
  if (/^\p{Lu}$/u.test(words[0]!) && words.length < 3) return false;
  // "ETH Zurich": an acronym beside ordinary words is an organisation.
  if (words.some((w) => /^\p{Lu}{2,}$/u.test(w)) && !words.every((w) => /^[\p{Lu}.'’-]+$/u.test(w)))
    return false;
  if (!words.every((w) => NAME_WORD.test(w))) return false;
  // A name has at least one word that is not an initial or a particle (or is of a caseless script).
  return words.some((w) => /^\p{Lu}[\p{L}'’-]+$|^\p{Lo}/u.test(w));
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
  // An organisation's acronym ("ASCE", "USA") and compound names ("Wirtschaftsuniversität Wien").
  return (
    AFFILIATION.test(p) ||
    ROLE.test(p) ||
    /^\p{Lu}{2,6}$/u.test(p) ||
    /universit|institut|hochschule|[ée]cole/i.test(p)
  );
}

/** Splits a byline into its parts: "A and B", "A, B & C", "A; B", "A | Institute". */
function bylineParts(raw: string): string[] {
  return (
    raw
      .normalize('NFC')
      .replace(/[¹²³⁴⁵⁶⁷⁸⁹⁰*∗†‡§¶]+/g, '')
      // Footnote numbers and letters glued to a name ("Tanahashi1,", "Eddelbuettela") or standing alone.
      .replace(/(?<=\p{Ll})\d{1,2}(?=[\s,;]|$)/gu, '')
      .replace(/(^|[\s,])\d{1,2}(?=[\s,]|$)/g, '$1')
      // A remark in parentheses ("(tree drawing and core package)") is not a name.
      .replace(/\s*\(\s*\p{Ll}[^)]*\)\s*/gu, ' ')
      .replace(/\s*\(([^)]*)\)\s*/g, ', $1, ')
      .replace(/\t+/g, ', ')
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
      .filter(Boolean)
  );
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
  const all = bylineParts(raw);
  // A byline set in capitals ("VALERIE BÉRANGER, Inria Paris-Rocquencourt"): what is not in
  // capitals beside the names is an affiliation.
  const capitals = (p: string) => /\p{L}{2}/u.test(p) && p === p.toUpperCase();
  const parts = all.some((p) => p.includes(' ') && capitals(p) && isPersonName(p))
    ? all.filter((p) => capitals(p) || INITIALS.test(p))
    : all;
  const names: string[] = [];
  parts.forEach((part, i) => {
    const next = parts[i + 1];
    // "Smith, J." → the initials belong to the surname before them.
    if (next && INITIALS.test(next) && /^\p{Lu}[\p{L}'’-]+$/u.test(part) && !NOT_A_NAME.test(part)) {
      names.push(`${next.replace(/\s+/g, ' ').trim()} ${part}`);
      return;
    }
    // One capitalised word alone ("Thanks", "Present") is rarely a name: two words at least, unless
    // written in a script without capitals ("निरंजन"), where one word is often the whole name.
    if ((part.includes(' ') || /^\p{Lo}/u.test(part)) && isPersonName(part)) names.push(part);
  });
  return [...new Set(names)].join(', ');
}

/** The names of a byline whose every other part is a year, date, affiliation or role; else null. */
export function bylineNames(line: string): string | null {
  if (line.split(' ').length > 16) return null;
  const parts = bylineParts(line);
  if (parts.length === 0) return null;
  let people = 0;
  let affiliation = false;
  for (const p of parts) {
    if ((p.includes(' ') && isPersonName(p)) || (INITIALS.test(p) && people > 0)) people++;
    else if (isBylineExtra(p)) affiliation ||= AFFILIATION.test(p);
    // After an affiliation, a city and a country: "Name of Institute, City, Country".
    else if (!((affiliation || people > 0) && /^\p{Lu}[\p{L}'’. -]*$/u.test(p) && p.split(' ').length <= 3))
      return null;
  }
  return people > 0 ? cleanAuthors(line) : null;
}

export function looksLikeNames(line: string): boolean {
  const cleaned = line
    .replace(/[¹²³⁴⁵⁶⁷⁸⁹⁰*∗†‡§¶\d]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned.length > 120 || !NAME_LIST.test(cleaned) || JOURNAL_WORDS.test(cleaned)) return false;
  // "An Interactive Plotting Program", "The Thørväld Group": capitalised, but not people.
  const parts = bylineParts(line);
  return (
    parts.length > 0 && parts.every((p) => p.split(' ').length <= 4 && !NOT_A_NAME.test(p.split(' ')[0]!))
  );
}

export function findTitle(
  lines: string[],
  metadata: ExtractedMetadata,
  fileName?: string,
): (RuleHit<string> & { lines?: [number, number] }) | null {
  // A byline is names, names with affiliations ("Mark Henning, Germany") or an organisation.
  const isByline = (l: string) =>
    looksLikeNames(l) || bylineNames(l) !== null || ORGANISATION.test(l.replace(/\t+/g, ' '));
  return findPrintedTitle(lines, metadata, fileName, isByline);
}

const JUNK_AUTHOR =
  /^(user|admin|administrator|owner|author|unknown|microsoft office user|windows user|root|guest|anonymous)$/i;

/** An organisation as author: "R Core Team", "and the zoo Development Team". */
const ORGANISATION =
  /^(?:and\s+)?(?:the\s+)?(\p{L}[\p{L}.&-]*(?:\s+\p{L}[\p{L}.&-]*){0,4}\s+(?:team|group|project|consortium|collaboration|committee|working group))$/iu;
const SECTION_START =
  /^(?:abstract|contents|table of contents|introduction|summary|keywords|\d+\.?\s+\p{Lu})/iu;
const isUpperLine = (l: string) => /\p{L}{3}/u.test(l) && l === l.toUpperCase();

/** A line between names that belongs to them: an affiliation, an e-mail, an address, a place. */
function affiliationLine(l: string): boolean {
  return (
    AFFILIATION.test(l) ||
    /@|https?:|www\.|\bat\b.*\bdot\b/i.test(l) ||
    // "ETH Zurich", "ENSIMAG, Grenoble INP": an acronym among ordinary words.
    (/\b\p{Lu}{2,}\b/u.test(l) && !isUpperLine(l) && l.split(/\s+/).length <= 8) ||
    (bylineParts(l).every((p) => isBylineExtra(p) || /^\p{Lu}[\p{L}'’. -]*$/u.test(p)) && /,/.test(l))
  );
}

/**
 * The names printed under the title, line after line: one name a line with its affiliation below
 * ("Douglas Bates / University of Wisconsin / Martin Mächler / ETH Zurich"), several on a line,
 * an organisation ("R Core Team"). A subtitle or version line may stand between title and names.
 */
function namesUnderTitle(lines: string[], start: number): { names: string[]; line: string } | null {
  const names: string[] = [];
  let first: string | undefined;
  let skipped = 0;
  let lastColumns = 0;
  for (const l of lines.slice(start, start + 12)) {
    const bare = l.replace(/\s*\(\s*\p{Ll}[^)]*\)/gu, '').trim();
    const columns = l.split('\t').length;
    // A row with as many columns as the names above it holds their affiliations (JSS-style title pages).
    if (names.length > 0 && columns >= 2 && columns === lastColumns) continue;
    let org = ORGANISATION.exec(bare.replace(/\t+/g, ' '));
    // "R Development Core Team" under a person is where they work; "and the R Core Team" co-authors.
    if (org && names.length > 0 && !/^and\b/i.test(bare)) org = null;
    const opensWithAffiliation = names.length > 0 && isBylineExtra(bylineParts(bare)[0] ?? '');
    if (opensWithAffiliation && !org) continue;
    const found = org
      ? org[1]!.replace(/^the\s+/i, '')
      : (bylineNames(bare) ??
        (looksLikeNames(bare) && !(names.length > 0 && affiliationLine(bare)) ? cleanAuthors(bare) : null));
    if (found) {
      names.push(...found.split(', ').filter(Boolean));
      first ??= l;
      lastColumns = columns;
      continue;
    }
    if (SECTION_START.test(l)) break;
    if (names.length > 0) {
      // Affiliations, footnote marks ("1", "(AAS Journals Data Editors)2") between the names.
      if (affiliationLine(l) || /^[\d\W]+$/u.test(l) || /^\(.*\)\W*\d*$/u.test(l)) continue;
      break;
    }
    // Before the names: at most two short lines (a subtitle, a version or date line).
    if (++skipped > 2 || l.split(/\s+/).length > 14 || /[.;]$/.test(l)) break;
  }
  return names.length ? { names: [...new Set(names)], line: first! } : null;
}

const surname = (name: string) => name.trim().split(/\s+/).pop() ?? '';
// Marks dropped, and what a PDF could not map (U+FFFD): Devanagari's vowel sign before its consonant
// often comes out as "\uFFFD" ("निरंजन" printed, "\uFFFDनरंजन" read).
const foldCase = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\p{M}\uFFFD]/gu, '');

export function findAuthor(
  lines: string[],
  metadata: ExtractedMetadata,
  /** Index of the title's last line: the names are looked for below it. */
  titleEnd?: number,
): RuleHit<string> | null {
  for (const l of lines.slice(0, 25)) {
    const m = /^(?:authors?|by|written by|prepared by|from|por|von|par|door)\s*[:\s]\s*(.{3,160})$/i.exec(l);
    if (m) {
      // "Author:" names whoever is there; "by"/"from" must be followed by people ("From the kiln…" is prose).
      const value = /^authors?\s*:/i.test(l) ? cleanAuthors(m[1]!) : personNames(m[1]!);
      // "written by Jeff Siskind, and a front end that allows…" is prose that mentions a name.
      if (/\p{Lu}\p{Ll}/u.test(value) && value.length >= m[1]!.replace(/[^\p{L}]/gu, '').length * 0.5)
        return hit(value, 0.8, `rule: "${l.split(/[:\s]/)[0]}" line`, l);
    }
    // "by" alone on its line, the names below it ("por / Un Autor").
    if (/^(?:by|por|von|par|door)$/i.test(l)) {
      const next = lines[lines.indexOf(l) + 1];
      const value = next ? personNames(next) : '';
      if (value) return hit(value, 0.8, `rule: "${l}" line`, `${l} ${next}`);
    }
  }
  const page = namesUnderTitle(lines, titleEnd !== undefined ? titleEnd + 1 : 1);
  // "R Schlicht <w.m.l@gmx.net>": the address beside a name is not part of it.
  const raw = metadata.author?.replace(/\s*<[^<>\s]+@[^<>\s]+>/g, '').trim();
  const meta =
    raw && !JUNK_AUTHOR.test(raw) && !/@/.test(raw) && /\p{L}{2}/u.test(raw) ? cleanAuthors(raw) : '';
  if (meta) {
    // The file's author counts when the page prints those names and names no more people.
    const head = foldCase(lines.slice(0, 30).join(' '));
    const metaNames = meta.split(', ').filter(Boolean);
    const printed = metaNames.every((n) => head.includes(foldCase(surname(n))));
    if (printed && (!page || page.names.length <= metaNames.length))
      return hit(meta, 0.85, 'file metadata author', raw!, ProvenanceSource.FILE_METADATA);
    if (page) return hit(page.names.join(', '), 0.7, 'rule: names under the title', page.line);
    return hit(
      meta,
      0.5,
      'file metadata author (not printed on the first page)',
      raw!,
      ProvenanceSource.FILE_METADATA,
    );
  }
  return page ? hit(page.names.join(', '), 0.65, 'rule: names under the title', page.line) : null;
}

const DOI = /\b(?:doi:?\s*|https?:\/\/(?:dx\.)?doi\.org\/)(10\.\d{4,9}\/\S+)/i;

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
    const name = lines[i + 1]!.replace(HONORIFIC, '');
    if (new RegExp(`^${NAME}$`, 'u').test(name))
      return hit(name, 0.7, 'rule: signature after the closing', `${lines[i]} ${name}`);
  }
  return null;
}
