// Field (discipline) on real documents in the eval tier: every text document of the field set
// (licences, a constitution, standards, fortune-cookie files; ~3 MB of Debian packages) and the
// small PDF subset the real-documents test fetches. A wrong class is worse than Unclassified, so
// both are floored. The whole set, with the trade-off across thresholds, is in `make bench`.
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadFieldSet } from './field-set.ts';
import { TEXT_DOCUMENTS } from './fields.ts';
import { fieldOutcome, fieldRows, type FieldRow } from './run-fields.ts';

const PDF_SUBSET = [
  'aer',
  'zoo',
  'sandwich',
  'strucchange',
  'rcpp-jss',
  'rcpp-faq',
  'coxnet',
  'glmnet-relax',
  'vcd-strucplot',
];
const hasApt = spawnSync('apt-get', ['--version']).status === 0;

describe.skipIf(!hasApt)('field on real documents (text documents and a PDF subset)', () => {
  let rows: FieldRow[];
  let unavailable: string[];
  beforeAll(async () => {
    const set = await loadFieldSet({ ids: [...PDF_SUBSET, ...TEXT_DOCUMENTS.map((d) => d.id)] });
    unavailable = set.unavailable;
    rows = fieldRows(set.documents);
  }, 600_000);

  it('fetches every document', () => {
    expect(unavailable).toEqual([]);
    expect(rows.length).toBe(PDF_SUBSET.length + TEXT_DOCUMENTS.length);
  });

  it('gives a field a reader accepts most of the time, and a wrong one rarely', () => {
    const o = fieldOutcome(rows);
    expect(o.accuracy, o.misses.join('\n')).toBeGreaterThanOrEqual(0.8);
    expect(o.wrong, o.misses.join('\n')).toBeLessThanOrEqual(0.1);
  });

  it('leaves jokes about sports, pets and love Unclassified rather than guessing a discipline', () => {
    const jokes = rows.filter((r) => r.kind === 'jokes' && r.fields.length === 1 && r.fields[0] === '');
    expect(jokes.length).toBeGreaterThanOrEqual(8);
    expect(fieldOutcome(jokes).wrong, fieldOutcome(jokes).misses.join('\n')).toBeLessThanOrEqual(0.2);
  });
});
