// The offline enricher on documents written for the test: a paper with a journal line, a legal
// memo, a business plan; metadata first, rules next, user instructions steering.
import { describe, expect, it } from 'vitest';
import { DOCUMENT_FIELDS, ProvenanceSource } from './document-enricher.ts';
import { createOfflineEnricher } from './offline-enricher.ts';

const PAPER = `Transformer Models for Contract Clause Review
Jane A. Smith and Robert Jones
Journal of Legal Informatics, Vol. 12, No. 3 (2019), pp. 45-67
doi:10.1234/jli.2019.045

Abstract
Reviewing commercial contracts is slow and costly for law firms. The central problem is that clause review depends on scarce attorney time. We argue that transformer models can reduce contract review time without lowering accuracy. Building on Vaswani and Devlin, we fine-tune a model on 12,000 annotated contract clauses. Results show a 40% reduction in review time on indemnification and termination clauses.

Introduction
Contract review remains a bottleneck in legal practice (Katz, 2014). Prior work on legal text classification (Chalkidis et al. 2020) focused on statutes. Little is known about clause-level review in commercial contracts. Machine learning models for contract review promise speed, but attorneys must trust the clause flags.

References
Chalkidis, I., et al. (2020). LEGAL-BERT.
Devlin, J., et al. (2019). BERT.
Vaswani, A., et al. (2017). Attention is all you need.
`;

const MEMO = `MEMORANDUM
PRIVILEGED AND CONFIDENTIAL
To: Maria Lopez, Partner
From: David Chen
Date: March 14, 2022
Re: Enforceability of the non-compete clause in the Harlow employment agreement

Question Presented: Whether a two-year non-compete covering the entire state is enforceable against a junior engineer under state law.

Short Answer: Probably not, because courts in this state reject restrictive covenants broader than needed to protect legitimate business interests.

Discussion
The court in Reed v. Alvarez held that a statewide restriction on a junior employee was unreasonable. The employer must show a legitimate business interest such as trade secrets. Here the engineer had no access to customer lists. A court would likely narrow or strike the clause.
`;

describe('offline enricher', () => {
  const enricher = createOfflineEnricher();

  it('reads title, authors, year and journal from the first page of a paper, with provenance', async () => {
    const r = await enricher.enrich({ text: PAPER, metadata: {}, fileName: 'paper.pdf' });
    expect(r.title).toBe('Transformer Models for Contract Clause Review');
    expect(r.author).toBe('Jane A. Smith, Robert Jones');
    expect(r.publicationYear).toBe(2019);
    expect(r.journalPublisher).toBe('Journal of Legal Informatics');
    expect(r.category).toBe('Research Paper');
    expect(r.field).toBe('Law');
    expect(r.thesis).toMatch(/We argue that transformer models/);
    expect(r.issue).toMatch(/problem|Little is known/);
    expect(r.influencedBy).toEqual(expect.arrayContaining(['Vaswani', 'Devlin', 'Chalkidis']));
    expect(r.summary.length).toBeGreaterThan(40);
    expect(r.provenance.journal_publisher).toMatchObject({
      method: 'rule: venue line (volume, year or dates)',
      source: ProvenanceSource.TEXT_ANALYSIS,
    });
    // Every field with a value says how sure it is and where it came from.
    for (const f of DOCUMENT_FIELDS) {
      const p = r.provenance[f];
      expect(p, f).toBeDefined();
      expect(p!.confidence).toBeGreaterThan(0);
      expect(p!.confidence).toBeLessThanOrEqual(1);
      expect(p!.method).not.toBe('');
    }
    for (const h of r.hashtags) {
      expect(h.tag).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(h.relevancy).toBeGreaterThanOrEqual(0);
      expect(h.relevancy).toBeLessThanOrEqual(1);
    }
  });

  it('prefers what the page prints to the file’s own metadata, and uses metadata the page confirms', async () => {
    // A working title and a tool's publisher field that the page does not print lose to the page.
    const r = await enricher.enrich({
      text: PAPER,
      metadata: {
        title: 'Clause Review with Transformers (camera-ready)',
        author: 'J. Smith; R. Jones',
        publisher: 'Legal Informatics Press',
        created: '2026-02-01T10:00:00Z',
      },
    });
    expect(r.title).toBe('Transformer Models for Contract Clause Review');
    expect(r.provenance.title).toMatchObject({ method: 'rule: title on the first page' });
    expect(r.author).toBe('J. Smith, R. Jones');
    expect(r.journalPublisher).toBe('Journal of Legal Informatics');
    expect(r.publicationYear).toBe(2019);
    // The file's title is taken when the page prints it.
    const printed = await enricher.enrich({
      text: PAPER,
      metadata: { title: 'Transformer models for contract clause review' },
    });
    expect(printed.provenance.title).toMatchObject({
      source: ProvenanceSource.FILE_METADATA,
      confidence: 0.9,
    });
  });

  it('reads a legal memo: Re line as title, From as author, labelled question and answer', async () => {
    const r = await enricher.enrich({ text: MEMO, metadata: {} });
    expect(r.title).toBe('Enforceability of the non-compete clause in the Harlow employment agreement');
    expect(r.author).toBe('David Chen');
    expect(r.publicationYear).toBe(2022);
    expect(r.category).toBe('Legal Memo');
    expect(r.field).toBe('Law');
    expect(r.issue).toMatch(/^Whether a two-year non-compete/);
    expect(r.thesis).toMatch(/^Probably not/);
    expect(r.provenance.issue).toMatchObject({ method: 'rule: labelled section' });
  });

  it('reuses the user’s existing tags before inventing new ones', async () => {
    const r = await enricher.enrich({
      text: PAPER,
      existingTags: [
        { tag: 'machine-learning', count: 9 },
        { tag: 'contracts', count: 4 },
        { tag: 'gardening', count: 30 },
      ],
    });
    const tags = r.hashtags.map((h) => h.tag);
    expect(tags).toContain('machine-learning');
    expect(tags).toContain('contracts');
    expect(tags).not.toContain('contract');
    expect(tags).not.toContain('gardening');
  });

  it('follows explicit instructions: requested tags first, category and year overridden', async () => {
    const r = await enricher.enrich({
      text: MEMO,
      instructions: 'tags: employment, non-compete\ncategory: Client Advice\nyear: 2023',
    });
    expect(r.hashtags.slice(0, 2)).toEqual([
      { tag: 'employment', relevancy: 1 },
      { tag: 'non-compete', relevancy: 1 },
    ]);
    expect(r.category).toBe('Client Advice');
    expect(r.provenance.category!.source).toBe(ProvenanceSource.INSTRUCTIONS);
    expect(r.publicationYear).toBe(2023);
  });

  it('returns empty fields for an empty text instead of inventing them', async () => {
    const r = await enricher.enrich({ text: '   ' });
    expect(r.title).toBe('');
    expect(r.hashtags).toEqual([]);
    expect(r.provenance).toEqual({});
  });
});

// The three documents of the vault's browser test, as the extractor hands them over: short texts
// whose top lines are all there is, so nothing may be thrown away as "header".
describe('offline enricher on short documents', () => {
  const enricher = createOfflineEnricher();
  const AQUEDUCTS = `The Engineering of Roman Aqueducts
By Livia Marcellus, 1987

Roman engineers carried water to cities over stone arches and underground channels.
The Pont du Gard drops only 25 centimetres over its length, a gradient surveyed with the chorobates.
Lead pipes and settling tanks distributed the water to fountains, baths and private houses.
`;
  const BEES = `Urban Beekeeping on Rooftops
By Jonas Whitfield, 2019

Honey bee colonies thrive on city rooftops when forage is diverse and water is close by.
Beekeepers inspect the hives every nine days in spring to prevent swarming, and record queen cells.
A strong colony produces twenty kilograms of honey in a good summer; wax and pollen are harvested too.
Pollinators such as bees matter for urban gardens, orchards and allotments.
`;
  // A one-page PDF's text: no blank line between the byline and the prose.
  const TIDAL = `Tidal Energy Field Report
Marguerite Okafor, Coastal Power Institute, 2024
This report measures tidal stream turbines installed in the Pentland Firth.
Turbine arrays deliver predictable electricity from ocean tides with a capacity factor of 41 percent.
Maintenance costs fell by a third after switching to subsea connectors.`;

  it('gives a short note a summary from its prose, a field, a category and scored hashtags', async () => {
    const r = await enricher.enrich({ text: AQUEDUCTS, fileName: 'roman-aqueducts.txt' });
    expect(r.summary).toMatch(/^Roman engineers carried water|Pont du Gard|Lead pipes/);
    expect(r.summary.split(/(?<=\.)\s+/).length).toBeLessThanOrEqual(2);
    expect(r.field).toBe('Engineering');
    expect(r.category).toBe('Article');
    expect(r.hashtags.length).toBeGreaterThanOrEqual(3);
    for (const h of r.hashtags) {
      expect(h.relevancy).toBeGreaterThan(0);
      expect(h.relevancy).toBeLessThanOrEqual(1);
    }
    expect(r.provenance.summary?.method).toBe('wink-nlp textrank');
  });

  it('keeps the year out of the author and puts it in publication_year', async () => {
    const a = await enricher.enrich({ text: AQUEDUCTS, fileName: 'roman-aqueducts.txt' });
    expect(a.author).toBe('Livia Marcellus');
    expect(a.publicationYear).toBe(1987);
    const b = await enricher.enrich({ text: BEES, fileName: 'urban-beekeeping.txt' });
    expect(b.author).toBe('Jonas Whitfield');
    expect(b.publicationYear).toBe(2019);
    expect(b.field).toBe('Biology');
    expect(b.summary).not.toBe('');
    expect(b.hashtags.map((h) => h.tag)).toContain('urban-beekeeping');
  });

  it('reads a one-page PDF: the report word in the title decides the category, the byline year beats the file date', async () => {
    const r = await enricher.enrich({
      text: TIDAL,
      pages: [{ n: 1, text: TIDAL, ocr: false }],
      metadata: {
        title: 'Tidal Energy Field Report',
        author: 'Marguerite Okafor',
        created: '2026-11-21T09:00:00Z',
      },
      fileName: 'tidal-report.pdf',
    });
    expect(r.category).toBe('Report');
    expect(r.publicationYear).toBe(2024);
    expect(r.summary).toMatch(/tidal stream turbines/);
    expect(r.summary).not.toMatch(/Okafor|Institute/);
    expect(r.hashtags.length).toBeGreaterThanOrEqual(3);
  });

  it('summarises a list by its heading and first items and files it as a List', async () => {
    const r = await enricher.enrich({
      text: 'Packing list for the Oslo marathon\n- running shoes and two pairs of socks\n- energy gels\n- race number and safety pins\n- warm jacket',
      fileName: 'packing.txt',
    });
    expect(r.category).toBe('List');
    expect(r.summary).toBe(
      'Packing list for the Oslo marathon: running shoes and two pairs of socks; energy gels; race number and safety pins; warm jacket.',
    );
    expect(r.thesis).toBe('');
  });

  it('says what a bare title and byline is, without inventing prose', async () => {
    const r = await enricher.enrich({
      text: 'A Short History of Lighthouse Keepers\nBy Morag Sinclair, Northern Maritime Society, 1994.',
      fileName: 'lighthouse.txt',
    });
    expect(r.summary).toBe('A Short History of Lighthouse Keepers, by Morag Sinclair (1994).');
    expect(r.provenance.summary).toMatchObject({
      method: 'rule: title and byline (no prose)',
      confidence: 0.2,
    });
    expect(r.author).toBe('Morag Sinclair');
    expect(r.field).toBe('History');
  });

  it('leaves the field empty when a note names no discipline', async () => {
    const r = await enricher.enrich({
      text: 'Bike maintenance\nThe rear brake pads are worn down to the metal and squeal on every hill.\nReplace the pads before the trip.',
      fileName: 'bike.txt',
    });
    expect(r.field).toBe('');
    expect(r.category).toBe('Note');
    expect(r.summary).toMatch(/brake pads/);
  });

  it('titles an untitled note in a generically named file by its first sentence', async () => {
    const r = await enricher.enrich({
      text: 'The sourdough starter doubled in six hours once I moved the jar next to the radiator. Feed it at 8 pm with rye flour.',
      fileName: 'note.txt',
    });
    expect(r.title).toBe('The sourdough starter doubled in six hours once I moved the jar next to the…');
    expect(r.provenance.title).toMatchObject({ method: 'rule: first sentence', confidence: 0.2 });
    expect(r.category).toBe('Note');
    expect(r.field).toBe('Food & Cooking');
  });

  it('heads a list by its one-word first line and tags its one-word items', async () => {
    const r = await enricher.enrich({
      text: 'Groceries\r\n- milk\r\n- eggs\r\n- bread\r\n- apples\r\n',
      fileName: 'list.txt',
    });
    expect(r.title).toBe('Groceries');
    expect(r.category).toBe('List');
    expect(r.summary).toBe('Groceries: milk; eggs; bread; apples.');
    expect(r.hashtags.map((h) => h.tag)).toEqual(expect.arrayContaining(['milk', 'bread']));
  });

  it('keeps a one-line note whole when its title comes from the file name', async () => {
    const text =
      'Meeting with Anna Ruiz and Tom Berg about the kiln repair. We need new elements before the March firing.';
    const r = await enricher.enrich({ text, fileName: 'meeting.txt' });
    expect(r.title).toBe('Meeting');
    expect(r.summary).toBe(text);
    expect(r.hashtags.map((h) => h.tag)).toContain('kiln-repair');
    expect(r.author).toBe('');
  });
});

describe('offline enricher on a receipt and a note', () => {
  const enricher = createOfflineEnricher();
  const receipt = `HARBOUR CRAFT MARKET
Stall 14 - Quayside, Gdansk
12/05/2024 14:32
2 x Hand-thrown mug        48.00
1 x Linen tea towel        12.50
TOTAL                      60.50
Paid by card. Thank you for shopping local!`;

  it('says who sold what, for how much and when; argues nothing; spells tags as the text does', async () => {
    const e = await enricher.enrich({ text: receipt, fileName: 'receipt.txt' });
    expect(e.summary).toBe(
      'Receipt from Harbour Craft Market, 12/05/2024: 2 x Hand-thrown mug, 1 x Linen tea towel; total 60.50, paid by card.',
    );
    expect(e.thesis).toBe('');
    expect(e.issue).toBe('');
    expect(e.category).toBe('Receipt');
    expect(e.field).toBe('');
    expect(e.hashtags.map((h) => h.tag)).toContain('harbour-craft-market');
    expect(e.hashtags.map((h) => h.tag).join(' ')).not.toMatch(/harbor/);
  });

  it('gives a note a thesis only where it argues, never its summary again', async () => {
    const facts = await enricher.enrich({
      text: 'Market notes\nThe harbour craft market moves to the old fish hall in June. Stallholders book by 15 May.',
      fileName: 'notes.txt',
    });
    expect(facts.summary).not.toBe('');
    expect(facts.thesis).toBe('');
    const argued = await enricher.enrich({
      text: 'Market notes\nThe harbour craft market moves to the old fish hall in June.\nI think we should take a bigger stall, because the mugs sold out twice last year.',
      fileName: 'notes.txt',
    });
    expect(argued.thesis).toMatch(/^I think we should take a bigger stall/);
    expect(argued.thesis).not.toBe(argued.summary);
  });
});
