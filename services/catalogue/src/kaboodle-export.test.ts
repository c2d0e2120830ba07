import { describe, expect, it } from 'vitest';
import type { DocumentRow } from './catalogue-model.ts';
import { bibtexValue, citationKey, kaboodleBibtex, kaboodleCsv } from './kaboodle-export.ts';
import type { MemberEntity } from './kaboodle.repository.ts';

const doc = (over: Partial<DocumentRow>): DocumentRow =>
  ({
    id: 'd1',
    title: 'On Glass Beads',
    author: 'Ines Duarte',
    publication_year: 2024,
    journal_publisher: '',
    issue: '',
    summary: '',
    hashtags: [],
    file_name: 'beads.pdf',
    ...over,
  }) as DocumentRow;

describe('kaboodle exports', () => {
  it('escapes what BibTeX would read as commands or groups', () => {
    expect(bibtexValue('Profit & Loss: 100% {draft} #2 a_b ~x^2 \\o')).toBe(
      'Profit \\& Loss: 100\\% \\{draft\\} \\#2 a\\_b \\textasciitilde{}x\\textasciicircum{}2 \\textbackslash{}o',
    );
    expect(bibtexValue('line\nbreak')).toBe('line break');
  });

  it('keys a citation by surname, year and first word, and keeps keys unique', () => {
    expect(citationKey('Ines Duarte', 2024, 'On Glass Beads')).toBe('duarte2024glass');
    expect(citationKey('Mensah, Kwame and Ana Ruiz', null, 'Stools')).toBe('mensahstools');
    expect(citationKey('', null, '')).toBe('anon');
    const out = kaboodleBibtex('Fair', [doc({}), doc({ id: 'd2' })]);
    expect(out).toContain('@misc{duarte2024glass,');
    expect(out).toContain('@misc{duarte2024glassb,');
  });

  it('types an entry by what is known: issue → article, publisher → book', () => {
    const out = kaboodleBibtex('Fair', [
      doc({ issue: 'Vol. 3', journal_publisher: 'Bead Journal', author: 'A. One; B. Two' }),
      doc({ journal_publisher: 'Cooperative Press', title: 'Ledger' }),
    ]);
    expect(out).toMatch(
      /@article\{one2024glass,\n {2}title = \{On Glass Beads\},\n {2}author = \{A\. One and B\. Two\}/,
    );
    expect(out).toContain('  journal = {Bead Journal}');
    expect(out).toContain('  number = {Vol. 3}');
    expect(out).toContain('@book{duarte2024ledger,');
    expect(out).toContain('  publisher = {Cooperative Press}');
  });

  it('writes CSV rows in the kaboodle order with notes, formulas defused', () => {
    const m = (title: string, note: string): MemberEntity =>
      ({
        type: 'document',
        id: title,
        title,
        subtitle: '',
        category: '',
        summary: '',
        year: null,
        hashtags: ['a', 'b'],
        retail_price: null,
        note,
        added_at: null,
        file_name: '',
        position: 0,
      }) as unknown as MemberEntity;
    const csv = kaboodleCsv([m('Second', '=HYPERLINK("x")'), m('First', 'plain, with comma')], true);
    const lines = csv.split('\r\n');
    expect(lines[0]!.startsWith('\uFEFFposition,type,id,title')).toBe(true);
    expect(lines[1]).toContain(`1,document,Second,Second`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[2]).toContain('"plain, with comma"');
    expect(lines[2]).toContain('a b');
  });
});
