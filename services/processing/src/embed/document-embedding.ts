// A document's vectors: its passages (chunks, for passage search and "Relevant Excerpt") and one
// document vector, the normalised mean of the passage vectors with the headline (title, summary,
// tags) counted twice, since that is what a searcher most often describes.
import { chunkText, type ChunkOptions, type TextChunk } from './chunk-text.ts';
import { meanVector, type EmbedOptions, type EmbeddingSpace, type TextEmbedder } from './text-embedder.ts';

export interface EmbeddedPassage extends TextChunk {
  vector: Float32Array;
}

export interface DocumentEmbedding extends EmbeddingSpace {
  vector: Float32Array;
  passages: EmbeddedPassage[];
}

export interface EmbedDocumentOptions extends EmbedOptions, ChunkOptions {
  /** Title, summary and tags: embedded as one extra passage weighted `headlineWeight`. */
  headline?: string;
  /** Default 2. */
  headlineWeight?: number;
  /** Passages embedded at most (default 64); past it, chunks are picked evenly across the text. */
  maxPassages?: number;
}

export async function embedDocument(
  embedder: TextEmbedder,
  text: string,
  options: EmbedDocumentOptions = {},
): Promise<DocumentEmbedding> {
  const maxPassages = options.maxPassages ?? 64;
  let chunks = chunkText(text, options);
  if (chunks.length > maxPassages) {
    const step = chunks.length / maxPassages;
    chunks = Array.from({ length: maxPassages }, (_, i) => chunks[Math.floor(i * step)]!);
  }
  const headline = options.headline?.trim() ?? '';
  const inputs = [...chunks.map((c) => c.text), ...(headline ? [headline] : [])];
  if (inputs.length === 0) throw new Error('embedDocument: the text is empty');
  const vectors = await embedder.embed(inputs, options.signal ? { signal: options.signal } : {});
  const weights = inputs.map((_, i) =>
    headline && i === inputs.length - 1 ? (options.headlineWeight ?? 2) : 1,
  );
  const passages = chunks.map((c, i) => ({ ...c, vector: vectors[i]! }));
  return {
    provider: embedder.provider,
    model: embedder.model,
    dimensions: vectors[0]?.length ?? embedder.dimensions,
    vector: meanVector(vectors, weights),
    passages,
  };
}
