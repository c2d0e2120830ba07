// The evaluation corpus: documents written for Kaboodle's evaluation (papers with title/author/
// journal lines, essays, legal memos, business plans, reports, a letter), each with the fields a
// careful person would fill in. Expected values are what the text states, nothing inferred.
// Each family lives in documents/; this list is every one of them, the order the eval reports use.
import { ESSAYS } from './documents/essays.ts';
import type { EvalDocument } from './documents/eval-document.ts';
import { HELD_OUT } from './documents/held-out.ts';
import { LEGAL } from './documents/legal.ts';
import { PAPERS } from './documents/papers.ts';
import { PLANS_AND_REPORTS } from './documents/plans-and-reports.ts';
import { SHORT } from './documents/short.ts';

export type { EvalDocument } from './documents/eval-document.ts';

export const EVAL_DOCUMENTS: EvalDocument[] = [
  ...PAPERS,
  ...ESSAYS,
  ...LEGAL,
  ...PLANS_AND_REPORTS,
  ...HELD_OUT,
  ...SHORT,
];
