// Retrieval sets through the product's own path: documents go through the offline extractor,
// enricher and embedder as uploads do, into the embedded LanceDB index as catalogue entities; each
// query then gets the index's keyword (BM25) and vector (kNN) lists, with their raw scores, deep
// enough (100) for any fusion to be computed from them. Shared by the search bench and the eval tier.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create, DocumentSchema } from '@kaboodle/proto';
import { documentHeadline, embedDocument, type TextEmbedder } from '@kaboodle/processing';
import { createOfflineEnricher } from '@kaboodle/processing';
import { createLocalExtractor } from '@kaboodle/processing';
import { createLanceDbSearchIndex } from '@kaboodle/search';
import type { SearchHit, SearchIndex } from '@kaboodle/search';
import { documentToIndexed } from '@kaboodle/search';

export interface RetrievalDocument {
  id: string;
  fileName: string;
  text: string;
}
export interface RetrievalQuery {
  query: string;
  /** Empty for a query that nothing in the set answers (an unrelated query). */
  relevant: Record<string, number>;
  half?: 'tune' | 'report';
}
export interface CollectedQuery extends RetrievalQuery {
  /** Documents in the set (the owner's library size). */
  corpusSize: number;
  vector: Float32Array;
  byWords: SearchHit[];
  byVector: SearchHit[];
}
export interface CollectedSet {
  name: string;
  documents: number;
  queries: CollectedQuery[];
  /** The open index and owner, for running the search service itself on the same data. */
  index: SearchIndex;
  owner: string;
  prepareSeconds: number;
  close(): Promise<void>;
}

/** Queries about nothing any set holds: a match percentage must stay low for them. */
export const UNRELATED_QUERIES = [
  'quantum chromodynamics lattice gauge theory',
  'recipe for chocolate chip cookies',
  'medieval cathedral stained glass windows',
  'world cup football final penalty shootout',
  'migration routes of humpback whales',
  'baroque opera sopranos',
  'how to train a puppy to sit',
  'volcanic eruptions in Iceland',
  'knitting patterns for wool socks',
  'building the pyramids of ancient Egypt',
  'best ski resorts in the Alps',
  'Shakespeare sonnets about love',
  'growing tomatoes on a balcony',
  'the rules of cricket',
  'jazz saxophone improvisation',
  'wedding dress alterations',
];
/** The first half fits the calibration; the second is only reported. */
export const unrelatedHalf = (i: number): 'tune' | 'report' => (i % 2 === 0 ? 'tune' : 'report');

export async function collectSet(
  name: string,
  docs: RetrievalDocument[],
  queries: RetrievalQuery[],
  embedder: TextEmbedder,
  depth = 100,
): Promise<CollectedSet> {
  const started = performance.now();
  const owner = `eval-${name}`;
  const extractor = createLocalExtractor();
  const enricher = createOfflineEnricher();
  const entities = [];
  try {
    for (const doc of docs) {
      const x = await extractor.extract({ bytes: Buffer.from(doc.text), fileName: doc.fileName });
      const e = await enricher.enrich({ text: x.text, metadata: x.metadata, fileName: doc.fileName });
      const embedded = await embedDocument(embedder, x.text, { headline: documentHeadline(e) });
      const proto = create(DocumentSchema, {
        id: doc.id,
        ownerId: owner,
        version: 1n,
        sourceFile: { ownerId: owner, fileId: doc.id, fileName: doc.fileName },
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
          text: { text: x.text },
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
  } finally {
    await extractor.close();
  }
  const dir = mkdtempSync(path.join(tmpdir(), `kaboodle-retrieval-${name}-`));
  const index = createLanceDbSearchIndex({ dir, dimensions: embedder.dimensions });
  await index.open();
  for (let i = 0; i < entities.length; i += 200) await index.upsert(entities.slice(i, i + 200));
  const vectors = await embedder.embed(queries.map((q) => q.query));
  const collected: CollectedQuery[] = [];
  for (const [i, q] of queries.entries()) {
    const base = { ownerId: owner, text: q.query, entityTypes: ['document' as const], limit: depth };
    const byWords = await index.search({ ...base, mode: 'keyword' });
    const byVector = await index.search({ ...base, mode: 'semantic', vector: vectors[i]! });
    collected.push({ ...q, corpusSize: entities.length, vector: vectors[i]!, byWords, byVector });
  }
  return {
    name,
    documents: entities.length,
    queries: collected,
    index,
    owner,
    prepareSeconds: (performance.now() - started) / 1000,
    async close() {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
