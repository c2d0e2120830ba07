// Search quality through the real embedded index: the evaluation corpus (tests/eval) goes through the
// offline extractor, enricher and embedder exactly as uploads do, into LanceDB as catalogue entities;
// the queries then run through the search service as keyword (BM25), vector (kNN) and hybrid (the
// API's `semantic`), side by side, with the hybrid fusion alternatives.
// Run: node services/search/bench/eval.bench.ts [--json]
/* eslint-disable no-console -- a command-line report: printing is its output */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { create, DocumentSchema } from '@kaboodle/proto';
import { createUseLiteEmbedder, embedDocument } from '@kaboodle/processing/embed/index.ts';
import { createOfflineEnricher } from '@kaboodle/processing/enrich/index.ts';
import { createLocalExtractor } from '@kaboodle/processing/extract/local-extractor.ts';
import { EVAL_DOCUMENTS } from '../../../tests/eval/documents.ts';
import { EVAL_QUERIES } from '../../../tests/eval/queries.ts';
import { mean, ndcgAt, reciprocalRank } from '../../../tests/eval/support/metrics.ts';
import { createLanceDbSearchIndex } from '../src/index/lancedb-search-index.ts';
import { documentToIndexed } from '../src/indexed-entity.ts';
import { createQueryEmbedder } from '../src/query-embedder.ts';
import type { SearchType } from '../src/search-request.ts';
import { createSearchService, DEFAULT_FUSION } from '../src/search.service.ts';
import type { HybridFusion } from '../src/search.service.ts';

const OWNER = 'eval-owner';
const json = process.argv.includes('--json');
const dir = mkdtempSync(path.join(tmpdir(), 'kaboodle-search-eval-'));
const extractor = createLocalExtractor();
const enricher = createOfflineEnricher();
const embedder = createUseLiteEmbedder();

try {
  // The documents as the analyzer makes them: text, enrichment, passages and a headline-weighted vector.
  const started = performance.now();
  const entities = [];
  for (const doc of EVAL_DOCUMENTS) {
    const extraction = await extractor.extract({ bytes: Buffer.from(doc.text), fileName: doc.fileName });
    const e = await enricher.enrich({
      text: extraction.text,
      metadata: extraction.metadata,
      fileName: doc.fileName,
    });
    const headline = [e.title, e.summary, e.hashtags.map((h) => h.tag.replace(/-/g, ' ')).join(', ')]
      .filter(Boolean)
      .join('. ');
    const embedded = await embedDocument(embedder, extraction.text, { headline });
    const proto = create(DocumentSchema, {
      id: doc.id,
      ownerId: OWNER,
      version: 1n,
      sourceFile: { ownerId: OWNER, fileId: doc.id, fileName: doc.fileName },
      analysis: {
        title: e.title,
        author: e.author,
        category: e.category,
        field: e.field,
        summary: e.summary,
        thesis: e.thesis,
        issue: e.issue,
        journalPublisher: e.journalPublisher,
        influencedBy: e.influencedBy,
        hashtags: e.hashtags,
        text: { text: extraction.text },
        embedding: { values: Array.from(embedded.vector), dimensions: embedded.dimensions },
        passages: embedded.passages.map((p) => ({
          text: p.text,
          start: p.start,
          end: p.end,
          vector: Array.from(p.vector),
        })),
      },
    });
    entities.push(documentToIndexed(proto, embedder.dimensions));
  }
  const prepared = performance.now() - started;

  const index = createLanceDbSearchIndex({ dir, dimensions: embedder.dimensions });
  await index.open();
  await index.upsert(entities);
  const queries = createQueryEmbedder({ embed: (t) => embedder.embed(t), cacheSize: 1000 });
  const logger = pino({ level: 'silent' });
  const serviceWith = (fusion: HybridFusion) =>
    createSearchService({ index: () => index, embedder: queries, logger, fusion });

  // The three API modes through the search service (what POST /api/search runs), then the fusion
  // alternatives side by side so the default's choice is visible.
  const variants: Array<{ label: string; searchType: SearchType; fusion: HybridFusion; product?: boolean }> =
    [
      { label: 'keyword (BM25)', searchType: 'keyword', fusion: DEFAULT_FUSION, product: true },
      { label: 'vector (kNN)', searchType: 'vector', fusion: DEFAULT_FUSION, product: true },
      {
        label: `hybrid (weighted ${(DEFAULT_FUSION as { vectorWeight: number }).vectorWeight}, default)`,
        searchType: 'hybrid',
        fusion: DEFAULT_FUSION,
        product: true,
      },
      { label: "hybrid (the adapter's RRF, k=60)", searchType: 'hybrid', fusion: { method: 'rrf' } },
      ...[0.5, 0.7, 0.8, 0.9].map((w) => ({
        label: `hybrid (weighted ${w})`,
        searchType: 'hybrid' as const,
        fusion: { method: 'weighted' as const, vectorWeight: w },
      })),
    ];
  const figures = [];
  for (const v of variants) {
    const service = serviceWith(v.fusion);
    const rr: number[] = [];
    const ndcg: number[] = [];
    for (const q of EVAL_QUERIES) {
      const { value: hits } = await service.search(OWNER, {
        query: q.query,
        searchType: v.searchType,
        limit: 50,
        types: [],
      });
      const ranking = hits.map((h) => h.id);
      rr.push(reciprocalRank(ranking, q.relevant));
      ndcg.push(ndcgAt(ranking, q.relevant, 10));
    }
    figures.push({
      method: v.label,
      searchType: v.searchType,
      product: v.product === true,
      mrr: mean(rr),
      ndcg10: mean(ndcg),
    });
  }
  await index.close();

  // "Hybrid must not lose to either alone on average": the mean of MRR and nDCG@10 of the default.
  const avg = (f: { mrr: number; ndcg10: number }) => (f.mrr + f.ndcg10) / 2;
  const hybrid = figures.find((f) => f.product && f.searchType === 'hybrid')!;
  const others = figures.filter((f) => f.product && f.searchType !== 'hybrid');
  const hybridHolds = others.every((o) => avg(hybrid) >= avg(o) - 1e-9);
  if (json) {
    console.log(
      JSON.stringify(
        { documents: entities.length, queries: EVAL_QUERIES.length, figures, hybridHolds },
        null,
        2,
      ),
    );
  } else {
    console.log(
      `Corpus: ${entities.length} documents, ${EVAL_QUERIES.length} queries (prepared in ${(prepared / 1000).toFixed(1)} s: extract, enrich, embed)`,
    );
    const row = (f: { method: string; mrr: number; ndcg10: number }) =>
      console.log(`  ${f.method.padEnd(46)} ${f.mrr.toFixed(3)}   ${f.ndcg10.toFixed(3)}`);
    console.log('\nPOST /api/search modes, embedded index (LanceDB)   MRR     nDCG@10');
    figures.filter((f) => f.product).forEach(row);
    console.log('\nHybrid alternatives (SEARCH_HYBRID_FUSION, SEARCH_HYBRID_VECTOR_WEIGHT)');
    figures.filter((f) => !f.product).forEach(row);
    console.log(
      hybridHolds
        ? '\nHybrid does not lose to either method alone on average (mean of MRR and nDCG@10).'
        : '\n!! Hybrid loses to a single method on average: tune SEARCH_HYBRID_VECTOR_WEIGHT (or the fusion).',
    );
  }
  if (!hybridHolds) process.exitCode = 1;
} finally {
  await embedder.close?.();
  await extractor.close?.();
  rmSync(dir, { recursive: true, force: true });
}
