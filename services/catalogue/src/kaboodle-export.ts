// A kaboodle as a file: CSV (one row per member, spreadsheet-safe), JSON (the kaboodle and every
// member with its full record), and BibTeX of its documents (a reference manager's import). Pure
// text builders; the route streams what they return.
import type { DocumentRow, InventoryRow } from './catalogue-model.ts';
import { documentJson, inventoryJson } from './catalogue-model.ts';
import { csvRow, UTF8_BOM } from './csv-writer.ts';
import type { MemberEntity } from './kaboodle.repository.ts';

export const CSV_COLUMNS = [
  'position',
  'type',
  'id',
  'title',
  'author_or_material',
  'category',
  'year',
  'summary',
  'hashtags',
  'retail_price',
  'note',
  'added_at',
  'file_name',
] as const;

export function kaboodleCsv(members: readonly MemberEntity[], bom: boolean): string {
  const lines = [csvRow(CSV_COLUMNS)];
  members.forEach((m, i) =>
    lines.push(
      csvRow([
        i + 1,
        m.type,
        m.id,
        m.title,
        m.subtitle,
        m.category,
        m.year,
        m.summary,
        m.hashtags.join(' '),
        m.retail_price,
        m.note,
        m.added_at,
        m.file_name,
      ]),
    ),
  );
  return (bom ? UTF8_BOM : '') + lines.join('');
}

export function kaboodleJson(
  kaboodle: Record<string, unknown>,
  members: readonly MemberEntity[],
  records: ReadonlyMap<string, DocumentRow | InventoryRow>,
): string {
  const out = members.map((m) => {
    const row = records.get(`${m.type}:${m.id}`);
    const record = row
      ? m.type === 'document'
        ? documentJson(row as DocumentRow)
        : inventoryJson(row as InventoryRow)
      : null;
    return {
      type: m.type,
      id: m.id,
      position: m.position,
      note: m.note,
      added_at: m.added_at?.toISOString() ?? null,
      record,
    };
  });
  return `${JSON.stringify({ kaboodle, members: out }, null, 2)}\n`;
}

const BIBTEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

/** A field value BibTeX reads back as the same text (braces balanced, specials escaped). */
export function bibtexValue(text: string): string {
  return (
    text
      .replace(/[\\{}&%$#_~^]/g, (c) => BIBTEX_SPECIAL[c]!)
      // eslint-disable-next-line no-control-regex -- control characters have no place in a reference
      .replace(/[\u0000-\u001f]+/g, ' ')
      .trim()
  );
}

const ascii = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const STOP = new Set([
  'a',
  'an',
  'the',
  'on',
  'of',
  'in',
  'and',
  'for',
  'to',
  'la',
  'le',
  'el',
  'der',
  'die',
]);

/** "Ines Duarte", 2024, "On Glass Beads" → duarte2024glass. */
export function citationKey(author: string, year: number | null, title: string): string {
  const firstAuthor = author.split(/\s+(?:and|&)\s+|;/)[0]?.trim() ?? '';
  const surname = firstAuthor.includes(',')
    ? firstAuthor.split(',')[0]!
    : (firstAuthor.split(/\s+/).at(-1) ?? '');
  const word =
    title
      .split(/\s+/)
      .map(ascii)
      .find((w) => w.length > 0 && !STOP.has(w)) ?? '';
  return `${ascii(surname) || 'anon'}${year ?? ''}${word}` || 'untitled';
}

function authors(author: string): string {
  return author
    .split(/\s*(?:;|&|\band\b)\s*/)
    .map((a) => a.trim())
    .filter(Boolean)
    .join(' and ');
}

/** The kaboodle's documents as BibTeX entries, in the kaboodle's order (items have no citation). */
export function kaboodleBibtex(kaboodleName: string, docs: readonly DocumentRow[]): string {
  const used = new Map<string, number>();
  const entries = docs.map((d) => {
    const base = citationKey(d.author, d.publication_year, d.title || d.file_name);
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    // duarte2024glass, duarte2024glassb, duarte2024glassc …
    const key = n === 0 ? base : `${base}${String.fromCharCode(97 + Math.min(n, 25))}`;
    const type = d.issue ? 'article' : d.journal_publisher ? 'book' : 'misc';
    const fields: [string, string][] = [
      ['title', d.title || d.file_name],
      ['author', authors(d.author)],
      ['year', d.publication_year === null ? '' : String(d.publication_year)],
      [type === 'article' ? 'journal' : type === 'book' ? 'publisher' : 'howpublished', d.journal_publisher],
      [type === 'article' ? 'number' : 'note', d.issue],
      ['abstract', d.summary],
      ['keywords', d.hashtags.map((h) => h.tag).join(', ')],
    ];
    const body = fields
      .filter(([, v]) => v.trim() !== '')
      .map(([k, v]) => `  ${k} = {${bibtexValue(v)}}`)
      .join(',\n');
    return `@${type}{${key},\n${body}\n}\n`;
  });
  const header = `% ${bibtexValue(kaboodleName)}: ${docs.length} document${docs.length === 1 ? '' : 's'}, exported from Kaboodle\n\n`;
  return header + entries.join('\n');
}
