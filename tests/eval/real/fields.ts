// Field (discipline) labels for real documents nobody on the team wrote: the PDFs of the real-world
// set (documents.ts) and text documents of other kinds from Debian packages (licences, a
// constitution, coding standards, a changelog, and the fortune-cookie collections, whose jokes are
// about a topic without being a work of any discipline). Each label lists the fields a person would
// accept after reading the document; '' means "Unclassified" is acceptable too, and a list of only
// [''] means no field fits (a letter, jokes about pets): any class there is a wrong class.
// Labels were set from the documents' text (their first pages and a skim), not from the classifier.
// Documents are split in two halves by a hash of their id: thresholds are chosen on "tune" and
// reported on "report" (tests/eval/real/run-fields.ts).
import { createHash } from 'node:crypto';
import type { PackagedFile } from './fetch.ts';

export const CS = 'Computer Science';
export const STATS = 'Statistics';

/** Accepted fields of each PDF of documents.ts, by id; ids not listed are Computer Science manuals. */
// prettier-ignore
export const PDF_FIELDS: Record<string, string[]> = {
  // R vignettes and papers: statistics, some in econometrics, ecology, biostatistics or numerics.
  aer: ['Economics', STATS], expm: ['Mathematics', STATS], coxnet: [STATS], glmnet: [STATS], 'glmnet-family': [STATS], 'glmnet-relax': [STATS],
  'lme4-plsvgls': [STATS], 'lme4-theory': [STATS], 'lme4-lmer': [STATS], lmtest: [STATS, 'Economics'],
  'matrix-comparisons': [STATS, 'Mathematics', CS], 'matrix-design': [CS, 'Mathematics'], 'matrix-intro2': ['Mathematics', CS, STATS], 'matrix-intro': ['Mathematics', CS, STATS], 'matrix-sparse': [STATS, 'Mathematics'],
  mvtnorm: [STATS], 'party-mob': [STATS], party: [STATS], 'partykit-constparty': [STATS], 'partykit-ctree': [STATS], 'partykit-mob': [STATS], partykit: [STATS, CS],
  'pscl-countreg': [STATS], 'quantreg-crq': [STATS], 'quantreg-rq': [STATS],
  'rcpp-faq': [CS], 'rcpp-attributes': [CS], 'rcpp-extending': [CS], 'rcpp-introduction': [CS], 'rcpp-jss': [CS], 'rcpp-libraries': [CS], 'rcpp-modules': [CS], 'rcpp-package': [CS], 'rcpp-quickref': [CS], 'rcpp-sugar': [CS],
  'sandwich-cl': [STATS, 'Economics'], 'sandwich-oop': [STATS, 'Economics'], sandwich: [STATS, 'Economics'],
  'sp-csdacm': [STATS, CS], 'sp-intro': [STATS, CS], 'sp-over': [STATS, CS], strucchange: [STATS, 'Economics'],
  'survival-adjcurve': [STATS, 'Medicine'], 'survival-approximate': [STATS], 'survival-compete': [STATS, 'Medicine'], 'survival-concordance': [STATS], 'survival-discrim': [STATS, 'Medicine'],
  'survival-population': [STATS, 'Medicine'], 'survival-splines': [STATS], survival: [STATS, 'Medicine'], 'survival-tiedtimes': [STATS, CS], 'survival-timedep': [STATS, 'Medicine'], 'survival-validate': [STATS, CS],
  'vcd-shadings': [STATS], 'vcd-strucplot': [STATS],
  'vegan-decision': [STATS, CS, 'Environmental Science', 'Biology'], 'vegan-diversity': ['Biology', 'Environmental Science', STATS], 'vegan-intro': [STATS, 'Biology', 'Environmental Science'], 'vegan-partitioning': [STATS, 'Biology', 'Environmental Science'],
  'xtable-other': [CS, STATS], 'xtable-list': [CS, STATS], 'xtable-gallery': [CS, STATS],
  'zoo-design': [CS, STATS], 'zoo-faq': [CS, STATS], 'zoo-quickref': [CS, STATS], 'zoo-read': [CS, STATS], zoo: [STATS, CS],
  'r-faq': [CS, STATS], 'r-intro': [STATS, CS],
  // LaTeX packages for the humanities: manuals of software, about a discipline's typesetting.
  poetrytex: [CS, 'Literature', ''], juraabbrev: [CS, 'Law', ''], covington: [CS, ''], nnext: [CS, ''], jura: [CS, 'Law', ''], jurarsp: [CS, 'Law', ''], lexikon: [CS, ''], adtrees: [CS, ''], qtree: [CS, ''],
  phonrule: [CS, ''], langnames: [CS, ''], poemscol: [CS, 'Literature', ''], screenplay: [CS, 'Literature', ''], metrix: [CS, 'Literature', ''], dramatist: [CS, 'Literature', ''], 'bibleref-mouth': [CS, ''],
  // Journal and university templates: instructions to authors, placeholder text (the Antwerp thesis
  // and letter are filled with generated Kant), a venue's subject.
  afpsample: [CS, ''], 'dafx-p001': [CS, 'Engineering', ''], cmpj: [CS, 'Physics', ''], prtec: [CS, 'Engineering', ''], gaceta: [CS, 'Mathematics', ''], nwejm: [CS, 'Mathematics', ''],
  acmsmall: [CS, ''], aastex: [CS, 'Physics', ''], emisa: [CS, ''], resphilosophica: [CS, 'Philosophy', ''], jacow: [CS, 'Physics', ''], ascelike: [CS, 'Engineering', ''],
  'uantwerpen-phd2': ['Engineering', 'Mathematics', 'Philosophy', ''], 'uantwerpen-phd1': ['Engineering', 'Mathematics', 'Philosophy', ''], 'uantwerpen-letter': ['', 'Philosophy'],
};

export interface TextDocument extends PackagedFile {
  id: string;
  licence: string;
  kind: 'licence' | 'constitution' | 'standards' | 'changelog' | 'jokes' | 'how-to';
  fields: string[];
}

const base = {
  package: 'base-files',
  version: '12.4+deb12u15',
  licence: 'the licences themselves (verbatim copying permitted)',
};
const docDebian = { package: 'doc-debian', version: '11.3+nmu1', licence: 'GPL-2+ / Open Publication' };
const gnu = {
  package: 'gnu-standards',
  version: '2022.03.23-0.1',
  licence: 'GFDL (verbatim copying permitted)',
};
const fortunes = { package: 'fortunes', version: '1:1.99.1-7.3', licence: 'BSD-3-clause (collection)' };
const joke = (name: string, sha256: string, fields: string[]): TextDocument => ({
  ...fortunes,
  id: `fortunes-${name}`,
  path: `/usr/share/games/fortunes/${name}`,
  sha256,
  kind: 'jokes',
  fields,
});

// prettier-ignore
export const TEXT_DOCUMENTS: TextDocument[] = [
  { ...base, id: 'licence-apache', path: '/usr/share/common-licenses/Apache-2.0', sha256: 'cfc7749b96f63bd3', kind: 'licence', fields: ['Law'] },
  { ...base, id: 'licence-gpl3', path: '/usr/share/common-licenses/GPL-3', sha256: '3972dc9744f6499f', kind: 'licence', fields: ['Law'] },
  { ...base, id: 'licence-mpl2', path: '/usr/share/common-licenses/MPL-2.0', sha256: 'fab3dd6bdab226f1', kind: 'licence', fields: ['Law'] },
  { ...base, id: 'licence-artistic', path: '/usr/share/common-licenses/Artistic', sha256: 'b7fd9b73ea996020', kind: 'licence', fields: ['Law'] },
  { ...base, id: 'licence-bsd', path: '/usr/share/common-licenses/BSD', sha256: '5d588eb3b157d521', kind: 'licence', fields: ['Law'] },
  { ...base, id: 'licence-cc0', path: '/usr/share/common-licenses/CC0-1.0', sha256: 'a2010f343487d3f7', kind: 'licence', fields: ['Law'] },
  { ...base, id: 'licence-gfdl', path: '/usr/share/common-licenses/GFDL-1.3', sha256: '110535522396708c', kind: 'licence', fields: ['Law'] },
  { ...base, id: 'licence-lgpl21', path: '/usr/share/common-licenses/LGPL-2.1', sha256: 'dc626520dcd53a22', kind: 'licence', fields: ['Law'] },
  { ...docDebian, id: 'debian-constitution', path: '/usr/share/doc/debian/constitution.txt.gz', sha256: '4f5d32885b4ff752', kind: 'constitution', fields: ['Law', 'Political Science', ''] },
  { ...docDebian, id: 'debian-social-contract', path: '/usr/share/doc/debian/social-contract.txt.gz', sha256: 'ef49af44b5767db8', kind: 'constitution', fields: [CS, ''] },
  { ...docDebian, id: 'debian-manifesto', path: '/usr/share/doc/debian/debian-manifesto.gz', sha256: '96149ffbfd73424c', kind: 'how-to', fields: [CS, ''] },
  { ...docDebian, id: 'debian-bug-reporting', path: '/usr/share/doc/debian/bug-reporting.txt.gz', sha256: '5cad355b9c4f6f42', kind: 'how-to', fields: [CS] },
  { ...gnu, id: 'gnu-standards', path: '/usr/share/doc/gnu-standards/standards.text.gz', sha256: 'b2f48f400034e0f0', kind: 'standards', fields: [CS] },
  { ...gnu, id: 'gnu-maintain', path: '/usr/share/doc/gnu-standards/maintain.text.gz', sha256: '1dcfe0c95d0bc786', kind: 'standards', fields: [CS] },
  { ...fortunes, id: 'fortunes-changelog', path: '/usr/share/doc/fortunes/changelog.gz', sha256: 'b5c085fb87f1c73b', kind: 'changelog', fields: [CS, ''] },
  joke('law', 'f04141f94e788b78', ['Law', '']),
  joke('medicine', '18b8c7b098e64902', ['Medicine', '']),
  joke('food', '78077a65b9288df7', ['Food & Cooking', '']),
  joke('computers', 'a86be224d9f733b8', [CS, '']),
  joke('linux', '85b0e5eadf7adeea', [CS, '']),
  joke('politics', 'b56ca45a046edd5c', ['Political Science', '']),
  joke('education', 'ba13321d6d6beb7a', ['Education', '']),
  joke('songs-poems', 'eb714d297b468da9', ['Literature', '']),
  joke('science', '7ab350b142ee6c70', ['']),
  joke('sports', 'b71dd524d7bca888', ['']),
  joke('pets', '084472564bc55df5', ['']),
  joke('love', '4d4fb7c540e5500e', ['']),
  joke('wisdom', '9b0bd6b9331a68c9', ['']),
  joke('drugs', 'a5a59ee8b0e1fd30', ['']),
  joke('art', '600b8197bc994fd4', ['']),
  joke('work', 'ad8a0e104160e2c4', ['']),
  joke('men-women', '8fc4eb68a8d16826', ['']),
  joke('startrek', '7b2e4c235b99452b', ['']),
];

export const fieldHalf = (id: string): 'tune' | 'report' =>
  createHash('sha256').update(`field:${id}`).digest()[0]! % 2 === 0 ? 'tune' : 'report';
