// Floors on a small, fast part of the real-world set (R vignettes from five small Debian packages,
// about 9 MB to fetch): among them the formula-heavy vignettes whose NULs the catalogue refused,
// JSS reprints that name their venue, and title pages set in columns. The whole set is in
// `make bench` (services/processing/bench/eval.ts).
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateRealDocuments, type RealFigures } from './run-real.ts';

const SUBSET = [
  'aer',
  'zoo',
  'zoo-quickref',
  'zoo-read',
  'sandwich',
  'sandwich-oop',
  'sandwich-cl',
  'strucchange',
  'rcpp-jss',
  'rcpp-faq',
  'rcpp-introduction',
  'rcpp-libraries',
  'coxnet',
  'glmnet-relax',
  'vcd-strucplot',
];
// The documents come from Debian's archive through apt-get: machines without it cannot run this.
const hasApt = spawnSync('apt-get', ['--version']).status === 0;

describe.skipIf(!hasApt)('real-world documents (a subset from Debian packages)', () => {
  let figures: RealFigures;
  beforeAll(async () => {
    figures = await evaluateRealDocuments({ ids: SUBSET });
  }, 600_000);
  const field = (name: string) => figures.metadata.find((f) => f.field === name)!;

  it('fetches every document of the subset', () => {
    expect(figures.unavailable).toEqual([]);
    expect(figures.documents).toBe(SUBSET.length);
  });

  it('processes every one into a result the catalogue can store', () => {
    expect(field('processed and storable').misses).toEqual([]);
  });

  it('reads what the first page prints: title, authors, year and venue above their floors', () => {
    const floors: Record<string, number> = {
      title: 0.9,
      author: 0.9,
      publication_year: 0.9,
      journal_publisher: 0.8,
    };
    for (const [name, floor] of Object.entries(floors))
      expect(field(name).accuracy, `${name}: ${JSON.stringify(field(name).misses)}`).toBeGreaterThanOrEqual(
        floor,
      );
  });
});
