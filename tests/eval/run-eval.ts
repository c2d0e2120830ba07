// The evaluation: metadata accuracy per field of the offline enricher on the written corpus,
// semantic search quality (MRR, nDCG@10) of the offline embedder, BM25 and their hybrid (RRF),
// and the offline vision on the generated photos. Shared by services/processing/bench/eval.ts
// (prints the figures) and eval.test.ts (asserts floors).
import {
  createUseLiteEmbedder,
  cosine,
  documentHeadline,
  embedDocument,
  type TextEmbedder,
} from '@kaboodle/processing';
import { createOfflineEnricher } from '@kaboodle/processing';
import { createLocalExtractor } from '@kaboodle/processing';
import { createBarcodeLookup, createOfflineVision, createPooledImageMeasurer } from '@kaboodle/processing';
import { evalPhotos } from '../../services/processing/src/vision/test-fixtures/generate-photos.ts';
import { EVAL_DOCUMENTS } from './documents.ts';
import { EVAL_QUERIES } from './queries.ts';
import { createBm25Index } from './support/bm25.ts';
import {
  mean,
  median,
  ndcgAt,
  reciprocalRank,
  reciprocalRankFusion,
  sameAuthors,
  sameText,
} from './support/metrics.ts';

export interface FieldScore {
  field: string;
  correct: number;
  total: number;
  accuracy: number;
  misses: string[];
}

export interface SearchScore {
  method: 'embedder' | 'bm25' | 'hybrid';
  mrr: number;
  ndcg10: number;
}

export interface EvalFigures {
  documents: number;
  queries: number;
  photos: number;
  metadata: FieldScore[];
  /** The same fields on the documents written after the rules were frozen. */
  metadataHeldOut: FieldScore[];
  heldOutDocuments: number;
  /** The same fields on the short documents (a paragraph, a few lines, a list, a bare byline). */
  metadataShort: FieldScore[];
  /** Short documents: a 1–2 sentence summary naming the subject, at least three scored hashtags. */
  shortText: FieldScore[];
  shortDocuments: number;
  search: SearchScore[];
  vision: FieldScore[];
  enrichMsMedian: number;
  visionMsMedian: number;
}

function score(field: string, results: Array<{ ok: boolean; id: string; got: string }>): FieldScore {
  const correct = results.filter((r) => r.ok).length;
  return {
    field,
    correct,
    total: results.length,
    accuracy: results.length ? correct / results.length : 0,
    misses: results.filter((r) => !r.ok).map((r) => `${r.id}: ${JSON.stringify(r.got)}`),
  };
}

export async function runEvaluation(
  options: { photos?: boolean; embedder?: TextEmbedder } = {},
): Promise<EvalFigures> {
  const extractor = createLocalExtractor();
  const enricher = createOfflineEnricher();
  const embedder = options.embedder ?? createUseLiteEmbedder();
  try {
    // Metadata: every document through the real extractor (as the .txt a user uploads) and the enricher.
    const rows: Array<{ id: string; e: Awaited<ReturnType<typeof enricher.enrich>>; text: string }> = [];
    const enrichMs: number[] = [];
    for (const doc of EVAL_DOCUMENTS) {
      const extraction = await extractor.extract({ bytes: Buffer.from(doc.text), fileName: doc.fileName });
      const t = performance.now();
      const e = await enricher.enrich({
        text: extraction.text,
        metadata: extraction.metadata,
        fileName: doc.fileName,
      });
      enrichMs.push(performance.now() - t);
      rows.push({ id: doc.id, e, text: extraction.text });
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    const metadataFor = (docs: typeof EVAL_DOCUMENTS): FieldScore[] => {
      const each = <T>(f: (d: (typeof EVAL_DOCUMENTS)[number], e: (typeof rows)[number]['e']) => T) =>
        docs.map((d) => f(d, byId.get(d.id)!.e));
      return [
        score(
          'title',
          each((d, e) => ({ ok: sameText(e.title, d.expected.title), id: d.id, got: e.title })),
        ),
        score(
          'author',
          each((d, e) => ({ ok: sameAuthors(e.author, d.expected.authors), id: d.id, got: e.author })),
        ),
        score(
          'publication_year',
          docs
            .filter((d) => d.expected.year !== undefined)
            .map((d) => {
              const e = byId.get(d.id)!.e;
              return {
                ok: e.publicationYear === d.expected.year,
                id: d.id,
                got: String(e.publicationYear ?? ''),
              };
            }),
        ),
        score(
          'journal_publisher',
          docs
            .filter((d) => d.expected.journal)
            .map((d) => {
              const e = byId.get(d.id)!.e;
              return {
                ok: sameText(e.journalPublisher, d.expected.journal),
                id: d.id,
                got: e.journalPublisher,
              };
            }),
        ),
        score(
          'category',
          each((d, e) => ({ ok: e.category === d.expected.category, id: d.id, got: e.category })),
        ),
        score(
          'field',
          each((d, e) => ({ ok: e.field === d.expected.field, id: d.id, got: e.field })),
        ),
      ];
    };
    const metadata = metadataFor(EVAL_DOCUMENTS);
    const metadataHeldOut = metadataFor(EVAL_DOCUMENTS.filter((d) => d.heldOut));
    const shortDocs = EVAL_DOCUMENTS.filter((d) => d.short);
    const metadataShort = metadataFor(shortDocs);
    const shortText = [
      score(
        'summary',
        shortDocs.map((d) => {
          const e = byId.get(d.id)!.e;
          // One or two sentences (a list's summary is its heading and items, one sentence).
          const sentences = e.summary.split(/(?<=[.!?…])\s+(?=\p{Lu})/u).filter(Boolean).length;
          const ok =
            sentences >= 1 &&
            sentences <= 2 &&
            e.summary.toLowerCase().includes(d.short!.summaryIncludes.toLowerCase());
          return { ok, id: d.id, got: e.summary };
        }),
      ),
      score(
        'hashtags',
        shortDocs.map((d) => {
          const e = byId.get(d.id)!.e;
          const ok = e.hashtags.length >= 3 && e.hashtags.every((h) => h.relevancy > 0 && h.relevancy <= 1);
          return { ok, id: d.id, got: e.hashtags.map((h) => `${h.tag}:${h.relevancy}`).join(' ') };
        }),
      ),
    ];

    // Search: document vectors exactly as the analyzer makes them (passages + headline).
    const vectors = new Map<string, Float32Array>();
    for (const r of rows) {
      const headline = documentHeadline(r.e);
      vectors.set(r.id, (await embedDocument(embedder, r.text, { headline })).vector);
    }
    const bm25 = createBm25Index(rows.map((r) => ({ id: r.id, text: `${r.e.title} ${r.text}` })));
    const queryVectors = await embedder.embed(EVAL_QUERIES.map((q) => q.query));
    const rankings = { embedder: [] as string[][], bm25: [] as string[][], hybrid: [] as string[][] };
    EVAL_QUERIES.forEach((q, i) => {
      const qv = queryVectors[i]!;
      const byVector = [...vectors.entries()]
        .map(([id, v]) => ({ id, s: cosine(qv, v) }))
        .sort((a, b) => b.s - a.s)
        .map((x) => x.id);
      const byWords = bm25.search(q.query, 50).map((x) => x.id);
      rankings.embedder.push(byVector);
      rankings.bm25.push(byWords);
      rankings.hybrid.push(reciprocalRankFusion([byVector.slice(0, 20), byWords.slice(0, 20)]));
    });
    const search: SearchScore[] = (['embedder', 'bm25', 'hybrid'] as const).map((method) => ({
      method,
      mrr: mean(rankings[method].map((r, i) => reciprocalRank(r, EVAL_QUERIES[i]!.relevant))),
      ndcg10: mean(rankings[method].map((r, i) => ndcgAt(r, EVAL_QUERIES[i]!.relevant, 10))),
    }));

    // Vision: the photos through OCR (the extractor) and the offline vision in its worker thread.
    let vision: FieldScore[] = [];
    const visionMs: number[] = [];
    let photoCount = 0;
    if (options.photos !== false) {
      const photos = await evalPhotos();
      photoCount = photos.length;
      const measurer = createPooledImageMeasurer({ timeoutMs: 120_000 });
      const offlineVision = createOfflineVision({ measurer, barcodeLookup: createBarcodeLookup() });
      try {
        const found = [];
        for (const p of photos) {
          const t = performance.now();
          const ocr = await extractor.extract({ bytes: p.bytes, fileName: p.fileName });
          const v = await offlineVision.analyze({
            bytes: p.bytes,
            fileName: p.fileName,
            ocrText: ocr.text,
            ...(p.instructions ? { instructions: p.instructions } : {}),
          });
          visionMs.push(performance.now() - t);
          found.push({ p, v });
        }
        vision = [
          score(
            'category',
            found.map(({ p, v }) => ({
              ok: v.category === p.expected.category,
              id: p.name,
              got: v.category,
            })),
          ),
          score(
            'main colour',
            found.map(({ p, v }) => ({
              ok: p.expected.colors.includes(v.colors[0]?.name ?? ''),
              id: p.name,
              got: v.colors[0]?.name ?? '',
            })),
          ),
          score(
            'barcodes',
            found
              .filter(({ p }) => p.expected.barcodes)
              .map(({ p, v }) => ({
                ok: p.expected.barcodes!.every((b) => v.barcodes.some((x) => x.value === b)),
                id: p.name,
                got: v.barcodes.map((b) => b.value).join(' '),
              })),
          ),
          score(
            'material',
            found
              .filter(({ p }) => p.expected.material)
              .map(({ p, v }) => ({ ok: v.material === p.expected.material, id: p.name, got: v.material })),
          ),
        ];
      } finally {
        await offlineVision.close?.();
      }
    }
    return {
      documents: EVAL_DOCUMENTS.length,
      queries: EVAL_QUERIES.length,
      photos: photoCount,
      metadata,
      metadataHeldOut,
      heldOutDocuments: EVAL_DOCUMENTS.filter((d) => d.heldOut).length,
      metadataShort,
      shortText,
      shortDocuments: EVAL_DOCUMENTS.filter((d) => d.short).length,
      search,
      vision,
      enrichMsMedian: median(enrichMs),
      visionMsMedian: median(visionMs),
    };
  } finally {
    await extractor.close();
    if (!options.embedder) await embedder.close?.();
  }
}
