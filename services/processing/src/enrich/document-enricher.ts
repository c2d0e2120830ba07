// The DocumentEnricher port: extracted text (+ the file's own metadata) in, the document fields of
// docs/product.md#data out, each with a confidence and where it came from. Adapters: createOfflineEnricher
// (rules + extractive NLP, no network) and createOpenAiEnricher (chat completions, JSON output).
import { ProvenanceSource } from '@kaboodle/proto';
import type { ExtractedMetadata, ExtractedPage } from '../extract/extractor.ts';

export { ProvenanceSource };

export interface TagUse {
  tag: string;
  /** How many of the user's entries carry it (more-used tags are preferred). */
  count: number;
}

export interface EnrichInput {
  text: string;
  pages?: ExtractedPage[];
  metadata?: ExtractedMetadata;
  fileName?: string;
  /** The user's "customise AI instructions" text, verbatim. */
  instructions?: string;
  /** The user's tag vocabulary: reused before new tags are invented. */
  existingTags?: TagUse[];
  language?: string;
}

export interface EnrichOptions {
  signal?: AbortSignal;
}

/** kaboodle.common.v1.FieldProvenance. */
export interface FieldProvenance {
  confidence: number;
  source: ProvenanceSource;
  method: string;
  evidence: string;
}

export interface ScoredTag {
  tag: string;
  relevancy: number;
}

/** The enrichable part of kaboodle.common.v1.DocumentAnalysis (text and embedding are added by the analyzer). */
export interface DocumentEnrichment {
  title: string;
  author: string;
  category: string;
  field: string;
  publicationYear?: number;
  summary: string;
  thesis: string;
  issue: string;
  journalPublisher: string;
  influencedBy: string[];
  hashtags: ScoredTag[];
  /** Keyed by proto field name: title, author, category, field, publication_year, summary, thesis, issue, journal_publisher, influenced_by, hashtags. */
  provenance: Record<string, FieldProvenance>;
}

export interface DocumentEnricher {
  /** `local` or `openai`. */
  readonly provider: string;
  enrich(input: EnrichInput, options?: EnrichOptions): Promise<DocumentEnrichment>;
}

/** Proto field names of the enrichment, in display order. */
export const DOCUMENT_FIELDS = [
  'title',
  'author',
  'category',
  'field',
  'publication_year',
  'summary',
  'thesis',
  'issue',
  'journal_publisher',
  'influenced_by',
  'hashtags',
] as const;
export type DocumentField = (typeof DOCUMENT_FIELDS)[number];

export function emptyEnrichment(): DocumentEnrichment {
  return {
    title: '',
    author: '',
    category: '',
    field: '',
    summary: '',
    thesis: '',
    issue: '',
    journalPublisher: '',
    influencedBy: [],
    hashtags: [],
    provenance: {},
  };
}

export const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** A field's provenance: confidence in [0, 1] to two decimals, where it came from, and a short excerpt. */
export const provenance = (
  confidence: number,
  source: ProvenanceSource,
  method: string,
  evidence: string,
): FieldProvenance => ({
  confidence: round2(clamp01(confidence)),
  source,
  method,
  evidence: excerpt(evidence),
});

/** Evidence excerpts are short: they are shown next to the field. */
export function excerpt(s: string, max = 160): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
