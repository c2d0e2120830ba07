// Author and year rules on the bylines people actually write: names only in `author` (no years,
// affiliations, roles or trailing punctuation), several authors split, the year kept for
// publication_year.
import { describe, expect, it } from 'vitest';
import {
  bylineNames,
  cleanAuthors,
  findAuthor,
  findTitle,
  findYear,
  headerLines,
  personNames,
} from './metadata-rules.ts';

describe('cleanAuthors', () => {
  it.each([
    ['Livia Marcellus, 1987', 'Livia Marcellus'],
    ['By Jonas Whitfield, 2019', 'Jonas Whitfield'],
    ['Marguerite Okafor, Coastal Power Institute, 2024', 'Marguerite Okafor'],
    ['Tomasz Nowak, Department of Geography, University of Gdańsk', 'Tomasz Nowak'],
    ['Jane A. Smith¹, Robert Jones*', 'Jane A. Smith, Robert Jones'],
    ['Grace Mwangi and Peter Otieno', 'Grace Mwangi, Peter Otieno'],
    ['Grace Mwangi & Peter Otieno.', 'Grace Mwangi, Peter Otieno'],
    ['Lukas Hoffmann, Anna Weber and Jonas Klein', 'Lukas Hoffmann, Anna Weber, Jonas Klein'],
    ['J. Smith; R. Jones', 'J. Smith, R. Jones'],
    ['Smith, J. and Jones, R.', 'J. Smith, R. Jones'],
    ['Dr. Ruth Adeyemi (Harbour Hospital), March 2021', 'Ruth Adeyemi'],
    ['Maria Lopez, Partner', 'Maria Lopez'],
    ['Ana María Ortiz, PhD', 'Ana María Ortiz'],
    ['Ludwig van Beethoven', 'Ludwig van Beethoven'],
    ['Søren Ødegaard | Aarhus University', 'Søren Ødegaard'],
    ['Morag Sinclair, Northern Maritime Society, 1994.', 'Morag Sinclair'],
  ])('%s → %s', (raw, clean) => {
    expect(cleanAuthors(raw)).toBe(clean);
  });

  it('keeps an organisation named as the author when no person is there', () => {
    expect(cleanAuthors('World Health Organization, 2020')).toBe('World Health Organization');
  });

  it('never returns a year, a digit or trailing punctuation', () => {
    for (const raw of [
      'Ada Lovelace, 1843.',
      'Ada Lovelace (1843)',
      'Ada Lovelace — 12 May 1843',
      'Ada Lovelace;',
    ]) {
      const a = cleanAuthors(raw);
      expect(a).toBe('Ada Lovelace');
    }
  });
});

describe('personNames and bylineNames', () => {
  it('reads nothing from prose, greetings or closings', () => {
    expect(personNames('the time we arrived, the kiln was cold')).toBe('');
    expect(bylineNames('Dear Mr. Tanaka,')).toBeNull();
    expect(bylineNames('Thanks,')).toBeNull();
    expect(bylineNames('Present: Ama, Kofi, Efua and Yaw.')).toBeNull();
    expect(bylineNames('Journal of Legal Informatics, Vol. 12, No. 3 (2019)')).toBeNull();
  });

  it('reads a byline with an affiliation and a year', () => {
    expect(bylineNames('Marguerite Okafor, Coastal Power Institute, 2024')).toBe('Marguerite Okafor');
  });
});

describe('findAuthor and findYear on short documents', () => {
  it('takes the names from a "By" line and the year beside them for publication_year', () => {
    const lines = headerLines(
      'The Engineering of Roman Aqueducts\nBy Livia Marcellus, 1987\n\nRoman engineers carried water.',
    );
    const author = findAuthor(lines, {}, 0);
    expect(author?.value).toBe('Livia Marcellus');
    expect(findYear(lines, {}, lines[1])?.value).toBe(1987);
  });

  it('prefers the year in the byline to the file’s creation date', () => {
    const lines = headerLines(
      'Tidal Energy Field Report\nMarguerite Okafor, Coastal Power Institute, 2024\nThis report measures turbines.',
    );
    const author = findAuthor(lines, {}, 0);
    expect(author?.value).toBe('Marguerite Okafor');
    const year = findYear(lines, { created: '2026-11-21T10:00:00Z' }, lines[1]);
    expect(year).toMatchObject({ value: 2024, method: 'rule: year in the byline' });
  });

  it('does not take a "From the…" sentence for an author', () => {
    const lines = headerLines('Kiln diary\nFrom the first firing the glaze crawled on every bowl.');
    expect(findAuthor(lines, {}, 0)).toBeNull();
  });

  it('reads a numeric date at the top as the year, and never a date line as the title', () => {
    const lines = headerLines('14/03/2024\nCall the landlord about the lease.');
    expect(findYear(lines, {})?.value).toBe(2024);
    expect(
      findTitle(
        headerLines('3 October 2025\nDr. Patel changed my medication.'),
        {},
        'blood-pressure-note.txt',
      )?.value,
    ).toBe('Blood pressure note');
  });

  it('takes a title from a file name only when the name says something', () => {
    const lines = headerLines('The starter doubled in six hours next to the radiator.');
    expect(findTitle(lines, {}, 'sourdough-note.txt')?.value).toBe('Sourdough note');
    for (const name of [
      'note.txt',
      'Untitled (2).txt',
      'New Text Document.txt',
      'IMG_2041.jpg',
      'document1.pdf',
    ])
      expect(findTitle(lines, {}, name), name).toBeNull();
  });
});

// The real set's misses (TeX package manuals): each rule in a layout nobody here wrote.
describe('title and author rules from the real-world set', () => {
  it('ends a title at its footnote mark and where the capitals change', () => {
    const marked = headerLines('The keyset package ∗\nkeyset\nHanna Adler\nv2.9 (2022/06/16)\nAbstract');
    expect(findTitle(marked, {})?.value).toBe('The keyset package');
    const card = headerLines(
      'Harbour Reference Card\nProgram structure/functions\nimport "x"\timport module',
    );
    expect(findTitle(card, {})?.value).toBe('Harbour Reference Card');
    // A Title Case continuation still joins.
    const two = headerLines('Regularized Cox Regression for\nCensored Survival Data\nAnn Tay\nAbstract');
    expect(findTitle(two, {})?.value).toBe('Regularized Cox Regression for Censored Survival Data');
  });

  it('takes a digit set on a plain word as a footnote mark, and keeps one that is part of a name', () => {
    const title = (first: string) => findTitle(headerLines(`${first}\nAnn Tay\nAbstract`), {})?.value;
    expect(title('The keyset package1')).toBe('The keyset package');
    // codes, versions and product names end on a digit of their own
    expect(title('Ledger of the Bead Cooperative cecbd9e5')).toBe('Ledger of the Bead Cooperative cecbd9e5');
    expect(title('Migrating a Network to IPv6')).toBe('Migrating a Network to IPv6');
    expect(title('Porting the Tools to Python3')).toBe('Porting the Tools to Python3');
    expect(title('Audio Players for mp3')).toBe('Audio Players for mp3');
  });

  it('joins a title printed round a dash on a line of its own', () => {
    const lines = headerLines(
      'fnkeys.sty\n—\nNumbering Footnote Keys∗\nUwe Lück†\nJanuary 19, 2023\nAbstract',
    );
    expect(findTitle(lines, {})?.value).toBe('fnkeys.sty — Numbering Footnote Keys');
  });

  it('reads the file author beside an e-mail address, and a one-word name in a caseless script', () => {
    const card = headerLines('The margin package\nR Schlicht\nw.m.l@example.org\n2022/06/23');
    expect(findAuthor(card, { author: 'R Schlicht <w.m.l@example.org>' }, 0)?.value).toBe('R Schlicht');
    // The PDF read the vowel sign before its consonant as U+FFFD: the name is printed all the same.
    const two = headerLines('The langs package\nAna García\nana@example.org\n\uFFFDनरंजन\nJanuary 4, 2023');
    expect(findAuthor(two, { author: 'Ana García, निरंजन' }, 0)?.value).toBe('Ana García, निरंजन');
  });
});
