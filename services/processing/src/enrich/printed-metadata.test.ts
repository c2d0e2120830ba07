// The rules the real-world set (tests/eval/real) asked for, each on the line shapes it found:
// printed evidence over file metadata, venues without a word list, names in columns.
import { describe, expect, it } from 'vitest';
import { joinSpacingAccents } from '../extract/pdf-extractor.ts';
import { createOfflineEnricher } from './offline-enricher.ts';

const enricher = createOfflineEnricher();
const enrich = (text: string, metadata = {}) => enricher.enrich({ text, metadata, fileName: 'paper.pdf' });

describe('printed evidence over file metadata', () => {
  it('takes the year printed with an unlisted venue, not the year the file was saved', async () => {
    const r = await enrich(
      'Tidal Commons and the Fishing Village\nAnn Kerr and Tom Vail\nHarbour Studies Review, 2014\n\nWe study how the shore was shared.',
      { created: '2026-03-01T09:00:00Z' },
    );
    expect(r.publicationYear).toBe(2014);
    expect(r.journalPublisher).toBe('Harbour Studies Review');
    expect(r.title).toBe('Tidal Commons and the Fishing Village');
  });

  it('never takes a tool’s title ("float.dvi") or an unprinted working title over the page', async () => {
    const page =
      'Censored Quantile Regression Redux\nRoger Koenker\nUniversity of Illinois\n\nAbstract\nWe revisit.';
    expect((await enrich(page, { title: 'float.dvi' })).title).toBe('Censored Quantile Regression Redux');
    expect((await enrich(page, { title: 'C:/USERS/RK/0.dvi' })).title).toBe(
      'Censored Quantile Regression Redux',
    );
    expect((await enrich(page, { title: 'crq draft 3' })).title).toBe('Censored Quantile Regression Redux');
  });

  it('reads the first date under the title; a "typeset on" date only when nothing else is printed', async () => {
    const top = 'Design Issues in Matrix package Development\nMartin Maechler and Douglas Bates\n';
    const r = await enrich(`${top}Spring 2008; Aug 2022 (typeset on November 10, 2022)\n\nAbstract\nNotes.`, {
      created: '2023-01-01T00:00:00Z',
    });
    expect(r.publicationYear).toBe(2008);
    const only = await enrich(`${top}This version was compiled on January 11, 2022\n\nText.`, {
      created: '2023-01-01T00:00:00Z',
    });
    expect(only.publicationYear).toBe(2022);
    // A copyright range is that edition's: its last year.
    expect((await enrich(`${top}\nCopyright © 1999–2021 R Core Team\n\nText.`)).publicationYear).toBe(2021);
  });
});

describe('venues without a word list', () => {
  it.each([
    [
      'Archives of Forensic Psychology\n2014, Vol. 2, No. 1, 256–260\nA Study of Memory\nJohn Smith\n',
      'Archives of Forensic Psychology',
    ],
    [
      'Proc. of the 9th Int. Conference on Digital Audio Effects (DAFx-06), Montreal, Canada, September 18-20, 2006\nTemplates for One Author\nAlfred Alabama\n',
      'Proc. of the 9th Int. Conference on Digital Audio Effects (DAFx-06)',
    ],
    ['Ecology and Society 25(3): 14 (2020)\nUrban Bees\nCamille Laurent\n', 'Ecology and Society'],
    [
      'Object-Oriented Computation of Sandwich Estimators\nAchim Zeileis\nAbstract\nThis is a modified version of Zeileis (2006), published in the Journal of Statis-\ntical Software.\n',
      'Journal of Statistical Software',
    ],
    [
      'The Name of the Title Is Hope\nBen Trovato\nACM Reference Format:\nBen Trovato. 2018. The Name of the Title Is Hope. J. ACM 37, 4, Article 111 (August 2018), 10 pages.\n',
      'J. ACM',
    ],
  ])('%#: %j', async (text, venue) => {
    expect((await enrich(`${text}\nBody text of the paper follows here.`)).journalPublisher).toBe(venue);
  });
});

describe('names as the page sets them', () => {
  it('keeps names apart in columns and skips the affiliation row below them', async () => {
    const r = await enrich(
      'Diagnostic Checking in Regression Relationships\nAchim Zeileis\tTorsten Hothorn\nUniversität Innsbruck\tUniversität Zürich\n\nAbstract\nTests.',
    );
    expect(r.author).toBe('Achim Zeileis, Torsten Hothorn');
  });

  it('reads one name a line with affiliations between them, and an organisation as co-author', async () => {
    const r = await enrich(
      'Fitting Linear Mixed-Effects Models Using lme4\nDouglas Bates\nUniversity of Wisconsin-Madison\nMartin Mächler\nETH Zurich\nAbstract\nText.',
    );
    expect(r.author).toBe('Douglas Bates, Martin Mächler');
    const manual = await enrich(
      'R FAQ\nFrequently Asked Questions on R\nVersion 2022-09-08\nKurt Hornik\nand the R Core Team\n\nText.',
    );
    expect(manual.author).toBe('Kurt Hornik, R Core Team');
    expect(manual.publicationYear).toBe(2022);
  });

  it('joins TeX’s spacing accents back onto their letters', () => {
    expect(joinSpacingAccents('Martin M¨achler, Universit¨at, c´omo, The m ˘etrix package')).toBe(
      'Martin Mächler, Universität, cómo, The mĕtrix package',
    );
  });
});
