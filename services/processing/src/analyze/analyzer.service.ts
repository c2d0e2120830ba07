// Analyze: one stored file (or its bytes) → a document or an inventory item, shaped like
// kaboodle.common.v1.DocumentAnalysis / InventoryAnalysis. Used by both the gRPC Analyze call and
// the file.uploaded consumer, so the two can never disagree. The steps: read (≤ 20 MB), decide the
// destination by content, extract text (OCR for photos), enrich or look, then embed.
import type { BlobStore, Logger } from '@kaboodle/platform';
import { InputError, timeStage } from '@kaboodle/platform';
import { TextExtractionMethod } from '@kaboodle/proto';
import type { DocumentAnalysis, InventoryAnalysis, MessageInitShape } from '@kaboodle/proto';
import type { DocumentAnalysisSchema, InventoryAnalysisSchema } from '@kaboodle/proto';
import { documentHeadline, embedDocument, type EmbeddedPassage, type TextEmbedder } from '../embed/index.ts';
import type { DocumentEnricher, TagUse } from '../enrich/index.ts';
import { reconcileTags } from '../enrich/index.ts';
import { detectContentType } from '../extract/detect-type.ts';
import { ExtractionError, REASONS, type ExtractionResult, type Extractor } from '../extract/extractor.ts';
import { DEFAULT_EXTRACTION_LIMITS } from '../limits/limits.ts';
import { ImageRejectedError, type InventoryVision } from '../vision/index.ts';

export type Destination = 'auto' | 'document' | 'inventory';

export interface AnalyzeInput {
  /** Where the file is in the blob store (needs `blobs`), or... */
  blobKey?: string;
  /** ...its bytes. */
  bytes?: Uint8Array;
  fileName: string;
  /** The MIME type claimed on upload; compared with the content by the extractor. */
  contentType?: string;
  /** The user's "customise AI instructions" text, verbatim. */
  instructions?: string;
  /** Default `auto`: photos become inventory items, everything else documents. */
  destination?: Destination;
  /** The user's tags with their use counts: reused before new tags are made. */
  existingTags?: TagUse[];
  /** Set when the file was fetched from a pasted URL: web pages are then allowed (main article text). */
  sourceUrl?: string;
}

export interface AnalyzeOptions {
  signal?: AbortSignal;
}

export type DocumentAnalysisInit = MessageInitShape<typeof DocumentAnalysisSchema>;
export type InventoryAnalysisInit = MessageInitShape<typeof InventoryAnalysisSchema>;

export type AnalyzeResult =
  | {
      kind: 'document';
      document: DocumentAnalysisInit;
      /** Passage vectors (also in `document.passages`, as proto). */
      passages: EmbeddedPassage[];
      warnings: string[];
      durationMs: number;
    }
  | { kind: 'inventory_item'; inventoryItem: InventoryAnalysisInit; warnings: string[]; durationMs: number };

export interface Analyzer {
  analyze(input: AnalyzeInput, options?: AnalyzeOptions): Promise<AnalyzeResult>;
}

export interface AnalyzerDeps {
  extractor: Extractor;
  embedder: TextEmbedder;
  enricher: DocumentEnricher;
  vision: InventoryVision;
  /** Needed when inputs name a blob key. */
  blobs?: BlobStore;
  logger?: Logger;
  /** Largest file read (default the 20 MB product limit). */
  maxBytes?: number;
}

const METHOD: Record<string, TextExtractionMethod> = {
  pdf: TextExtractionMethod.PDF,
  docx: TextExtractionMethod.DOCX,
  doc: TextExtractionMethod.DOC,
  txt: TextExtractionMethod.PLAIN,
  html: TextExtractionMethod.HTML,
  image: TextExtractionMethod.OCR,
};

export function createAnalyzer(deps: AnalyzerDeps): Analyzer {
  const maxBytes = deps.maxBytes ?? DEFAULT_EXTRACTION_LIMITS.maxBytes;

  async function readInput(input: AnalyzeInput, signal?: AbortSignal): Promise<Uint8Array> {
    if (input.bytes) {
      if (input.bytes.length > maxBytes)
        throw new ExtractionError('too_large', REASONS.tooLarge(input.bytes.length, maxBytes));
      return input.bytes;
    }
    if (!input.blobKey) throw new InputError('A file to analyse is required (blob key or bytes).');
    if (!deps.blobs) throw new Error('analyzing a stored file: the analyzer has no blob store');
    const { info, body } = await deps.blobs.get(input.blobKey);
    if (info.size > maxBytes) {
      body.destroy();
      throw new ExtractionError('too_large', REASONS.tooLarge(info.size, maxBytes));
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      total += chunk.length;
      // The stat may lie (a store without sizes): stop reading past the limit, never buffer it all.
      if (total > maxBytes) {
        body.destroy();
        throw new ExtractionError('too_large', REASONS.tooLarge(total, maxBytes));
      }
      chunks.push(chunk);
    }
    return new Uint8Array(Buffer.concat(chunks, total));
  }

  async function analyze(input: AnalyzeInput, options: AnalyzeOptions = {}): Promise<AnalyzeResult> {
    const started = performance.now();
    const { signal } = options;
    if (!input.fileName?.trim()) throw new InputError('File name is required');
    // Each stage is timed for kaboodle_processing_stage_duration_seconds{stage}.
    const bytes = await timeStage('fetch', () => readInput(input, signal));
    if (bytes.length === 0) throw new ExtractionError('empty', REASONS.empty);
    const isImage = detectContentType(bytes).kind === 'image';
    const destination = input.destination ?? 'auto';
    if (destination === 'inventory' && !isImage) {
      throw new ExtractionError(
        'unsupported',
        'Only photos (JPEG or PNG) can become inventory items; choose Document or Auto for this file.',
      );
    }
    const asInventory = destination === 'inventory' || (destination === 'auto' && isImage);

    const extraction = await timeStage('extract', () =>
      deps.extractor.extract(
        {
          bytes,
          fileName: input.fileName,
          ...(input.contentType ? { declaredType: input.contentType } : {}),
          ...(input.sourceUrl ? { source: 'url' as const, url: input.sourceUrl } : {}),
        },
        signal ? { signal } : {},
      ),
    );
    signal?.throwIfAborted();
    return asInventory
      ? analyzeItem(input, bytes, extraction, started, signal)
      : analyzeDocument(input, extraction, started, signal);
  }

  async function analyzeDocument(
    input: AnalyzeInput,
    extraction: ExtractionResult,
    started: number,
    signal?: AbortSignal,
  ): Promise<AnalyzeResult> {
    // A document is read, summarised and embedded from its words: without any, it cannot be one.
    // (The extractor lets photos through textless, since an item needs no text.)
    if (!/[\p{L}\p{N}]/u.test(extraction.text)) {
      throw new ExtractionError(
        'empty',
        extraction.kind === 'image' ? REASONS.noTextInPhoto : REASONS.noText,
      );
    }
    const e = await timeStage('enrich', () =>
      deps.enricher.enrich(
        {
          text: extraction.text,
          ...(extraction.pages ? { pages: extraction.pages } : {}),
          metadata: extraction.metadata,
          fileName: input.fileName,
          ...(input.instructions ? { instructions: input.instructions } : {}),
          ...(input.existingTags ? { existingTags: input.existingTags } : {}),
          ...(extraction.language ? { language: extraction.language } : {}),
        },
        signal ? { signal } : {},
      ),
    );
    const headline = documentHeadline(e);
    const emb = await timeStage('embed', () =>
      embedDocument(deps.embedder, extraction.text, {
        headline,
        ...(signal ? { signal } : {}),
      }),
    );
    const allOcr =
      extraction.kind === 'pdf' && extraction.pages?.length && extraction.pages.every((p) => p.ocr);
    const document: DocumentAnalysisInit = {
      title: e.title,
      author: e.author,
      category: e.category,
      field: e.field,
      ...(e.publicationYear !== undefined ? { publicationYear: e.publicationYear } : {}),
      summary: e.summary,
      thesis: e.thesis,
      issue: e.issue,
      journalPublisher: e.journalPublisher,
      influencedBy: e.influencedBy,
      hashtags: e.hashtags,
      provenance: e.provenance,
      text: {
        text: extraction.text,
        method: allOcr
          ? TextExtractionMethod.OCR
          : (METHOD[extraction.kind] ?? TextExtractionMethod.UNSPECIFIED),
        pageCount: extraction.pages?.length ?? extraction.metadata.pageCount ?? 0,
        language: extraction.language ?? '',
        truncated: extraction.warnings.some((w) => /text was cut/i.test(w)),
      },
      embedding: {
        values: Array.from(emb.vector),
        provider: emb.provider,
        model: emb.model,
        dimensions: emb.dimensions,
      },
      passages: emb.passages.map((p) => ({
        text: p.text,
        start: p.start,
        end: p.end,
        vector: Array.from(p.vector),
      })),
    };
    return {
      kind: 'document',
      document,
      passages: emb.passages,
      warnings: extraction.warnings,
      durationMs: Math.round(performance.now() - started),
    };
  }

  async function analyzeItem(
    input: AnalyzeInput,
    bytes: Uint8Array,
    extraction: ExtractionResult,
    started: number,
    signal?: AbortSignal,
  ): Promise<AnalyzeResult> {
    let v;
    try {
      v = await timeStage('vision', () =>
        deps.vision.analyze(
          {
            bytes,
            fileName: input.fileName,
            ...(input.instructions ? { instructions: input.instructions } : {}),
            ...(extraction.text.trim() ? { ocrText: extraction.text } : {}),
          },
          signal ? { signal } : {},
        ),
      );
    } catch (err) {
      // One failure vocabulary for callers: a picture we will not analyse reads like any bad file.
      if (err instanceof ImageRejectedError) {
        throw new ExtractionError(
          /pixels|memory/.test(err.message)
            ? 'too_large'
            : /longer than/.test(err.message)
              ? 'timeout'
              : 'corrupt',
          err.message,
          { cause: err },
        );
      }
      throw err;
    }
    const hashtags = reconcileTags(v.hashtags, input.existingTags, { max: 8, minRelevancy: 0 }).map(
      ({ tag, relevancy }) => ({ tag, relevancy }),
    );
    const embedText = [v.name, v.description, v.category, v.material, hashtags.map((h) => h.tag).join(' ')]
      .filter(Boolean)
      .join('. ');
    const [vector] = await timeStage('embed', () =>
      deps.embedder.embed([embedText], signal ? { signal } : {}),
    );
    const inventoryItem: InventoryAnalysisInit = {
      name: v.name,
      description: v.description,
      category: v.category,
      material: v.material,
      colors: v.colors,
      ...(v.dimensions ? { dimensions: v.dimensions } : {}),
      objects: v.objects.map((o) => ({ label: o.label, score: o.score, ...(o.box ? { box: o.box } : {}) })),
      barcodes: v.barcodes.map((b) => ({
        format: b.format,
        value: b.value,
        ...(b.lookup ? { lookup: b.lookup } : {}),
      })),
      originSource: v.originSource,
      ...(v.retailPrice ? { retailPrice: { ...v.retailPrice, units: BigInt(v.retailPrice.units) } } : {}),
      ...(v.importCost ? { importCost: { ...v.importCost, units: BigInt(v.importCost.units) } } : {}),
      hashtags,
      provenance: v.provenance,
      text: {
        text: extraction.text,
        method: TextExtractionMethod.OCR,
        pageCount: 0,
        language: extraction.language ?? '',
        truncated: false,
      },
      embedding: {
        values: Array.from(vector!),
        provider: deps.embedder.provider,
        model: deps.embedder.model,
        dimensions: vector!.length,
      },
      ...(v.image
        ? {
            imageEmbedding: {
              values: Array.from(v.image.embedding),
              provider: 'local',
              model: v.image.model,
              dimensions: v.image.embedding.length,
            },
            imageWidth: v.image.width,
            imageHeight: v.image.height,
          }
        : {}),
    };
    return {
      kind: 'inventory_item',
      inventoryItem,
      warnings: extraction.warnings,
      durationMs: Math.round(performance.now() - started),
    };
  }

  return { analyze };
}

export type { DocumentAnalysis, InventoryAnalysis };
