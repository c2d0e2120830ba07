// People and organisations the offline enricher suggests from the text: an author from compromise's
// people in the first lines, a publisher from its organisations, and the influences a work names
// ("influenced by", author-year citations, a references section).
import { excerpt, ProvenanceSource } from './document-enricher.ts';
import type { RuleHit } from './metadata-rules.ts';
import type { Nlp } from './nlp.ts';

export function suggestAuthor(nlp: Nlp, lines: string[]): RuleHit<string> | null {
  const head = lines.slice(0, 10).join('\n');
  // compromise costs ~15 ms a call: skip it when no line has two capitalised words in a row.
  if (!/\p{Lu}[\p{Ll}'’-]+\s+\p{Lu}/u.test(head)) return null;
  const people = nlp
    .people(head)
    .map((p) => p.replace(/[.,;:]+$/, '').trim())
    .filter((p) => p.split(/\s+/).length >= 2);
  const first = people[0];
  if (!first) return null;
  return {
    value: first,
    confidence: 0.4,
    source: ProvenanceSource.TEXT_ANALYSIS,
    method: 'compromise people (suggestion)',
    evidence: excerpt(lines.find((l) => l.includes(first)) ?? first),
  };
}

const PUBLISHER_WORDS =
  /\b(press|publish\w*|university|institute|society|journal|review|association|foundation)\b/i;

/** compromise organisations in the first lines that read like a publisher or a periodical. */
export function suggestPublisher(nlp: Nlp, lines: string[], titleLine?: string): RuleHit<string> | null {
  const head = lines.slice(0, 8).filter((l) => l !== titleLine);
  // Only names with a publisher's word are kept, so without such a word compromise (~15 ms) is not asked.
  if (!head.some((l) => PUBLISHER_WORDS.test(l))) return null;
  for (const org of nlp.organizations(head.join('\n'))) {
    const name = org.replace(/[.,;:]+$/, '').trim();
    if (!PUBLISHER_WORDS.test(name)) continue;
    return {
      value: name,
      confidence: 0.35,
      source: ProvenanceSource.TEXT_ANALYSIS,
      method: 'compromise organisations (suggestion)',
      evidence: excerpt(head.find((l) => l.includes(name)) ?? name),
    };
  }
  return null;
}

const SURNAME = "[A-Z][a-zA-Z'’-]+";

export function findInfluences(
  nlp: Nlp,
  analysed: string,
  full: string,
  author: string,
): { names: string[]; confidence: number; method: string; evidence: string } {
  const own = new Set(
    author
      .split(/,\s*/)
      .flatMap((a) => a.split(/\s+/))
      .map((w) => w.toLowerCase()),
  );
  const counts = new Map<string, number>();
  const evidence: string[] = [];
  const add = (name: string, weight: number, ev: string) => {
    const n = name
      .replace(/[’']s$/, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (n.length < 3 || n.split(' ').every((w) => own.has(w.toLowerCase()))) return;
    if (
      /^(I|The|This|That|These|Our|We|They|He|She|It|In|On|Table|Figure|Section|Vol|No)$/.test(n) ||
      n.replace(/[^A-Za-z]/g, '').length < 3
    )
      return;
    counts.set(n, (counts.get(n) ?? 0) + weight);
    if (evidence.length < 3) evidence.push(ev);
  };
  let explicit = false;
  // "influenced by X and Y", "building on X's work", "drawing on X".
  const cue =
    /\b(?:[Ii]nfluenced by|[Ii]nspired by|[Bb]uilding on|[Bb]uilds on|[Dd]rawing (?:on|from)|[Dd]raws on|[Ff]ollowing|[Ii]n the tradition of|[Ii]ndebted to|[Aa]fter the work of)\s+((?:[A-Z][\w'’.-]*\s*){1,4}(?:(?:,\s*and|,|and|&)\s*(?:[A-Z][\w'’.-]*\s*){1,4}){0,4})/g;
  for (const m of analysed.matchAll(cue)) {
    // Names are the capitalised runs between separators; compromise misses many surnames.
    for (const part of m[1]!.split(/,|\band\b|&/)) add(part.replace(/[.,;:]+$/, '').trim(), 3, m[0]);
    explicit = true;
  }
  // Author-year citations: "Smith (1999)", "(Smith, 1999)", "(Smith and Jones 2001)", "Smith et al. (2010)".
  const cite = new RegExp(
    `\\b(${SURNAME})(?:\\s+(?:and|&)\\s+(${SURNAME}))?(?:\\s+et al\\.?)?,?\\s*\\(?((?:1[6-9]|20)\\d\\d)[a-z]?\\)`,
    'g',
  );
  for (const m of analysed.matchAll(cite)) {
    add(m[1]!, 1, m[0]);
    if (m[2]) add(m[2], 1, m[0]);
  }
  // A references section: each entry starts with "Surname, F." or "Surname F.".
  const refs =
    /\n\s*(?:references|bibliography|works cited|sources|literature cited)\s*\n([\s\S]{0,20000})$/i.exec(
      full,
    );
  if (refs) {
    for (const line of refs[1]!.split('\n').slice(0, 80)) {
      const m = new RegExp(`^\\s*(?:\\[\\d+\\]\\s*)?(${SURNAME}),\\s+[A-Z]`).exec(line);
      if (m) add(m[1]!, 1.5, line.trim());
    }
  }
  const names = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([n]) => n);
  return {
    names,
    confidence: explicit ? 0.7 : refs ? 0.6 : 0.45,
    method: explicit
      ? 'rule: "influenced by"/"building on" phrases'
      : refs
        ? 'rule: references and citations'
        : 'rule: author-year citations',
    evidence: evidence.join(' | '),
  };
}
