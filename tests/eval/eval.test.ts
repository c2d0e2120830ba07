// Quality floors of the offline AI engine on the evaluation set (39 written documents, 9 of them
// short notes, lists and bylines; 31 queries; 10 generated photos). Floors sit a little below what was
// measured (docs/benchmarks/2026-11-22-processing-quality-and-speed.md), so a change that makes metadata,
// search or vision worse fails here.
import { beforeAll, describe, expect, it } from 'vitest';
import { runEvaluation, type EvalFigures } from './run-eval.ts';

let figures: EvalFigures;
beforeAll(async () => {
  figures = await runEvaluation();
}, 300_000);

const field = (list: EvalFigures['metadata'], name: string) => {
  const f = list.find((x) => x.field === name);
  if (!f) throw new Error(`no figure for ${name}`);
  return f.accuracy;
};

describe('evaluation set', () => {
  it('is big enough to mean something', () => {
    expect(figures.documents).toBeGreaterThanOrEqual(20);
    expect(figures.queries).toBeGreaterThanOrEqual(20);
    expect(figures.photos).toBeGreaterThanOrEqual(10);
  });

  it('reads document metadata at least as well as measured (per field)', () => {
    const floors: Record<string, number> = {
      title: 0.9,
      author: 0.85,
      publication_year: 0.9,
      journal_publisher: 0.8,
      category: 0.9,
      field: 0.8,
    };
    for (const [name, floor] of Object.entries(floors)) {
      expect(
        field(figures.metadata, name),
        `${name}: ${JSON.stringify(figures.metadata.find((f) => f.field === name)?.misses)}`,
      ).toBeGreaterThanOrEqual(floor);
    }
  });

  it('reads short documents too: metadata, a 1–2 sentence summary and scored hashtags', () => {
    expect(figures.shortDocuments).toBeGreaterThanOrEqual(6);
    const floors: Record<string, number> = {
      title: 0.85,
      author: 0.85,
      publication_year: 0.66,
      category: 0.85,
      field: 0.75,
    };
    for (const [name, floor] of Object.entries(floors)) {
      expect(
        field(figures.metadataShort, name),
        `${name}: ${JSON.stringify(figures.metadataShort.find((f) => f.field === name)?.misses)}`,
      ).toBeGreaterThanOrEqual(floor);
    }
    // Every short document gets a summary and tags: an empty one is what users saw before.
    expect(
      field(figures.shortText, 'summary'),
      JSON.stringify(figures.shortText[0]?.misses),
    ).toBeGreaterThanOrEqual(0.85);
    expect(field(figures.shortText, 'hashtags'), JSON.stringify(figures.shortText[1]?.misses)).toBe(1);
  });

  it('ranks relevant documents first: embedder, BM25 and hybrid above their floors', () => {
    const by = Object.fromEntries(figures.search.map((s) => [s.method, s]));
    expect(by.embedder!.mrr).toBeGreaterThanOrEqual(0.9);
    expect(by.embedder!.ndcg10).toBeGreaterThanOrEqual(0.88);
    expect(by.bm25!.mrr).toBeGreaterThanOrEqual(0.78);
    expect(by.bm25!.ndcg10).toBeGreaterThanOrEqual(0.75);
    expect(by.hybrid!.mrr).toBeGreaterThanOrEqual(0.9);
    expect(by.hybrid!.ndcg10).toBeGreaterThanOrEqual(0.88);
    // The point of the hybrid: it never does worse than keywords alone.
    expect(by.hybrid!.ndcg10).toBeGreaterThanOrEqual(by.bm25!.ndcg10);
  });

  it('catalogues the photos: category, main colour, barcodes and material', () => {
    expect(field(figures.vision, 'category')).toBeGreaterThanOrEqual(0.8);
    expect(field(figures.vision, 'main colour')).toBeGreaterThanOrEqual(0.8);
    expect(field(figures.vision, 'barcodes')).toBe(1);
    expect(field(figures.vision, 'material')).toBeGreaterThanOrEqual(0.66);
  });
});
