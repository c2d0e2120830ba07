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
      method: 'rule: journal/publisher line',
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

  it('prefers the file’s own metadata to rules', async () => {
    const r = await enricher.enrich({
      text: PAPER,
      metadata: {
        title: 'Clause Review with Transformers (camera-ready)',
        author: 'J. Smith; R. Jones',
        publisher: 'Legal Informatics Press',
      },
    });
    expect(r.title).toBe('Clause Review with Transformers (camera-ready)');
    expect(r.provenance.title).toMatchObject({ source: ProvenanceSource.FILE_METADATA, confidence: 0.9 });
    expect(r.author).toBe('J. Smith, R. Jones');
    expect(r.journalPublisher).toBe('Legal Informatics Press');
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
