// A known-item collection over real documentation: the Linux man-pages of Debian's manpages-dev
// (sections 2 and 3, system calls and library functions). Each page's one-line description from
// its NAME section ("open and possibly create a file") is a question written by the page's own
// authors, and its answer is that one page; the NAME section is taken out of the page so the
// question is not copied from the document. Pages whose description another page shares are left
// out (a known item has one answer). Pages are split in two by a hash of their name: fusion and
// calibration are chosen on the "tune" half and reported on the "report" half.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fetchPackageTree } from './fetch.ts';

export const MANPAGES = {
  package: 'manpages-dev',
  version: '6.03-2',
  licence: 'GPL-2+ and BSD-style (per page)',
};

export interface KnownItemDocument {
  id: string;
  fileName: string;
  text: string;
}
export interface KnownItemQuery {
  query: string;
  relevant: Record<string, 2>;
  half: 'tune' | 'report';
}

const SPECIALS: Record<string, string> = {
  em: '—',
  en: '–',
  aq: "'",
  dq: '"',
  lq: '“',
  rq: '”',
  oq: '‘',
  cq: '’',
  bu: '•',
  co: '©',
  rg: '®',
  mu: '×',
  di: '÷',
  '<=': '≤',
  '>=': '≥',
  '!=': '≠',
  '->': '→',
  '<-': '←',
  ti: '~',
  ha: '^',
  rs: '\\',
  pl: '+',
  mi: '-',
  eq: '=',
  sc: '§',
  de: '°',
  hy: '-',
  ga: '`',
  at: '@',
  sh: '#',
  dg: '†',
  ba: '|',
};

/** roff escapes to plain text: fonts dropped, specials spelled out. */
function unescape(s: string): string {
  return s
    .replace(/\\".*$/, '')
    .replace(/\\f(?:\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\\[([^\]]+)\]/g, (_, n: string) => SPECIALS[n] ?? '')
    .replace(/\\\((..)/g, (_, n: string) => SPECIALS[n] ?? '')
    .replace(/\\\*(?:\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\[&|^:%)]/g, '')
    .replace(/\\[- ~0e]/g, (m) => (m === '\\e' ? '\\' : m === '\\-' ? '-' : ' '))
    .replace(/\\s[-+]?\d/g, '')
    .replace(/\\./g, '');
}

/** A man page's text as `man` shows it, roughly: headings, paragraphs, argument words joined. */
export function roffToText(roff: string): { name: string; body: string } {
  const out: string[] = [];
  let name = '';
  let section = '';
  for (const raw of roff.split('\n')) {
    if (/^\.\s*\\"/.test(raw) || raw.startsWith('\'\\"')) continue;
    const m = /^\.\s*([A-Za-z]{1,3})\b\s*(.*)$/.exec(raw);
    if (!m) {
      const line = unescape(raw);
      if (section === 'NAME') name += ` ${line}`;
      else out.push(line);
      continue;
    }
    const [, macro, rest] = m;
    const args = (rest ?? '').match(/"[^"]*"|\S+/g)?.map((a) => unescape(a.replace(/^"|"$/g, ''))) ?? [];
    switch (macro) {
      case 'SH':
      case 'SS':
        section = args.join(' ').toUpperCase();
        if (section !== 'NAME') out.push('', args.join(' '), '');
        break;
      case 'B':
      case 'I':
      case 'SM':
      case 'SB':
        if (section === 'NAME') name += ` ${args.join(' ')}`;
        else out.push(args.join(' '));
        break;
      case 'BR':
      case 'RB':
      case 'IR':
      case 'RI':
      case 'BI':
      case 'IB':
        if (section === 'NAME') name += ` ${args.join('')}`;
        else out.push(args.join(''));
        break;
      case 'TP':
      case 'PP':
      case 'LP':
      case 'P':
      case 'IP':
        out.push('');
        if (macro === 'IP' && args[0]) out.push(args[0]);
        break;
      default:
        break;
    }
  }
  return {
    name: name.replace(/\s+/g, ' ').trim(),
    body: out
      .join('\n')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  };
}

const half = (id: string): 'tune' | 'report' =>
  createHash('sha256').update(id).digest()[0]! % 2 === 0 ? 'tune' : 'report';

/**
 * The collection: up to `limit` pages (every page when omitted), taken in name order across the
 * sections so a smaller collection is a prefix of the larger one.
 */
export function manPageCollection(limit?: number): {
  documents: KnownItemDocument[];
  queries: KnownItemQuery[];
  version: string;
} {
  const { root, files } = fetchPackageTree(MANPAGES.package, MANPAGES.version, '/usr/share/man');
  const pages: Array<{ id: string; description: string; body: string }> = [];
  for (const f of files) {
    const m = /man([23])\/([^/]+)\.\d\w*\.gz$/.exec(f);
    if (!m) continue;
    const roff = gunzipSync(readFileSync(path.join(root, f))).toString('utf8');
    if (/^\.so\s/m.test(roff) && roff.split('\n').length < 5) continue; // a redirect to another page
    const { name, body } = roffToText(roff);
    const description = /\s[-–—]\s(.+)$/.exec(name)?.[1]?.trim();
    if (!description || body.length < 200) continue;
    pages.push({ id: `${m[2]}.${m[1]}`, description, body });
  }
  const counts = new Map<string, number>();
  for (const p of pages)
    counts.set(p.description.toLowerCase(), (counts.get(p.description.toLowerCase()) ?? 0) + 1);
  const unique = pages.filter((p) => counts.get(p.description.toLowerCase()) === 1);
  const chosen = limit ? spread(unique, limit) : unique;
  return {
    documents: chosen.map((p) => ({ id: p.id, fileName: `${p.id}.txt`, text: p.body })),
    queries: chosen.map((p) => ({ query: p.description, relevant: { [p.id]: 2 }, half: half(p.id) })),
    version: readFileSync(path.join(root, '.complete'), 'utf8'),
  };
}

/** `n` items spread evenly over the list (so a small collection covers both sections). */
function spread<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}
