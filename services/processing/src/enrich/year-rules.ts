// The publication year as printed, before anything the file says about itself: a file's creation
// date is when that copy was made (a 2011 paper saved in 2023 is still from 2011). Printed evidence
// in order of strength: a labelled date ("Published: …"), the self-citation or journal line, the
// first date under the title (a "typeset on"/"compiled on" date only when no other is printed), a
// copyright line (the end of a range: "© 1999–2022" is the 2022 edition); then the file's date.
import type { ExtractedMetadata } from '../extract/extractor.ts';
import { ProvenanceSource } from './document-enricher.ts';
import { hit, type RuleHit } from './rule-hit.ts';
import { DATE, MONTHS, VOLUME_MARKS } from './title-rules.ts';

const YEAR = /\b((?:1[5-9]|20)\d\d)\b/;
const currentYear = (): number => new Date().getUTCFullYear();
const plausible = (y: number): boolean => y >= 1500 && y <= currentYear() + 1;
const dateYear = (m: RegExpExecArray) => Number(m[1] ?? m[2] ?? m[3] ?? m[4]);
/** Dates that say when this copy was typeset, not when the work appeared. */
const TYPESET_DATE =
  /\b(?:typeset|compiled|processed|printed|generated|built|updated|added note)\b[^()]{0,60}$/i;

export function findYear(
  lines: string[],
  metadata: ExtractedMetadata,
  /** The line the author was read from: a year beside the names is the publication year. */
  byline?: string,
  /** The line just after the title block: dates are looked for from the top to a few lines below. */
  titleEnd = 0,
  title?: string,
): RuleHit<number> | null {
  const header = lines.slice(0, 30);
  const labelled = new RegExp(
    `^(?:published|publication date|date|dated|issued|submitted|accepted|received)\\s*:?\\s*(?:on\\s+)?(?:(?:${MONTHS})\\.?\\s+)?(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?(?:(?:${MONTHS})\\.?,?\\s+)?((?:1[5-9]|20)\\d\\d)\\b`,
    'i',
  );
  for (const l of header) {
    const m = labelled.exec(l);
    if (m && plausible(Number(m[1]))) return hit(Number(m[1]), 0.85, 'rule: date line', l);
  }
  // The page cites itself: "… Kumquat. 2018. The Name of the Title Is Hope. J. ACM 37, 4 …".
  if (title && title.length >= 12) {
    const esc = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
    const flat = lines.join(' ');
    const m = new RegExp(`\\b((?:1[5-9]|20)\\d\\d)[a-z]?\\.\\s+${esc}`, 'i').exec(flat);
    if (m && plausible(Number(m[1]))) return hit(Number(m[1]), 0.8, 'rule: the page cites itself', m[0]);
  }
  // A journal or volume line, or a "Name, 2014" venue line: the year of that issue.
  for (const l of header.slice(0, Math.max(8, titleEnd + 4))) {
    if (!(
      VOLUME_MARKS.test(l) ||
      /^\p{Lu}[\p{L}'’&.-]+(?:\s+[\p{L}'’&.-]+)+,\s*\(?(?:1[5-9]|20)\d\d\)?(?:[,.;]|$)/u.test(l)
    ))
      continue;
    const m = /\(((?:1[5-9]|20)\d\d)\)/.exec(l) ?? YEAR.exec(l);
    if (m && plausible(Number(m[1]))) return hit(Number(m[1]), 0.8, 'rule: journal/volume line', l);
  }
  // Printed dates near the top, in reading order; typesetting dates only when nothing else is printed.
  const near = header.slice(0, Math.max(15, titleEnd + 8));
  let typeset: RuleHit<number> | null = null;
  for (const l of near) {
    for (const m of l.matchAll(new RegExp(DATE.source, 'gi'))) {
      const y = dateYear(m);
      if (!plausible(y)) continue;
      if (TYPESET_DATE.test(l.slice(0, m.index))) {
        typeset ??= hit(y, 0.6, 'rule: typesetting date', l);
        continue;
      }
      return hit(y, 0.75, 'rule: date under the title', l);
    }
  }
  if (typeset) return typeset;
  // Numeric dates in the first lines: 14/03/2024, 3.14.2024 (day/month order does not matter for the year).
  for (const l of header.slice(0, 8)) {
    const m = /(?:^|\s|:)\d{1,2}[/.]\d{1,2}[/.]((?:1[5-9]|20)\d\d)\b/.exec(l);
    if (m && plausible(Number(m[1])) && l.split(' ').length <= 12)
      return hit(Number(m[1]), 0.65, 'rule: numeric date near the top', l);
  }
  if (byline) {
    const m = YEAR.exec(byline);
    if (m && plausible(Number(m[1]))) return hit(Number(m[1]), 0.7, 'rule: year in the byline', byline);
  }
  // Copyright lines: the latest year of the latest line ("© 1999–2022" is the 2022 edition).
  let copyright: { y: number; line: string } | undefined;
  for (const l of header) {
    if (!/©|\bcopyright\b|\(c\)\s*\d/i.test(l)) continue;
    for (const m of l.matchAll(/\b((?:1[5-9]|20)\d\d)\b/g)) {
      const y = Number(m[1]);
      if (plausible(y) && (!copyright || y > copyright.y)) copyright = { y, line: l };
    }
  }
  if (copyright) return hit(copyright.y, 0.6, 'rule: copyright line', copyright.line);
  const created = metadata.created ? new Date(metadata.created).getUTCFullYear() : NaN;
  if (plausible(created)) {
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
      if (!plausible(y)) continue;
      const e = counts.get(y) ?? { n: 0, line: l };
      e.n++;
      counts.set(y, e);
    }
  }
  const best = [...counts.entries()].sort((a, b) => b[1].n - a[1].n || b[0] - a[0])[0];
  return best ? hit(best[0], 0.35, 'rule: most frequent year in the first lines', best[1].line) : null;
}
