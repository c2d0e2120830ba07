// Generative enrichment through any OpenAI-compatible chat endpoint with JSON output. The user's
// instructions go to the model verbatim; the user's tag vocabulary and the offline findings (file
// metadata, rule hits) go along as hints, and the answer is validated and normalised here, never
// trusted as-is.
import type OpenAI from 'openai';
import { num, parseJsonObject, str, strList } from '../providers/openai-client.ts';
import {
  clamp01,
  DOCUMENT_FIELDS,
  emptyEnrichment,
  excerpt,
  ProvenanceSource,
  type DocumentEnricher,
  type DocumentEnrichment,
  type EnrichInput,
  type EnrichOptions,
} from './document-enricher.ts';
import { cleanAuthors } from './metadata-rules.ts';
import { reconcileTags, round2 } from './tag-vocabulary.ts';

export interface OpenAiEnricherOptions {
  client: OpenAI;
  model: string;
  /** Characters of document text sent (default 24 000, ~6k tokens). */
  maxChars?: number;
  /** Fields found offline, sent as hints and used where the model leaves a field empty. */
  baseline?: DocumentEnricher;
}

const SYSTEM = `You catalogue documents for a research workspace. Read the document and answer with ONE JSON object:
{"title": string, "author": string (all authors, comma separated), "publication_year": number|null,
 "journal_publisher": string, "category": string (kind of document, e.g. Research Paper, Essay, Legal Memo, Business Plan, Report, Contract, Letter, Article, Other),
 "field": string (discipline, e.g. Law, Computer Science, Economics), "summary": string (2-3 sentences),
 "thesis": string (the main claim, one sentence), "issue": string (the problem or question addressed, one sentence),
 "influenced_by": string[] (people or works the document builds on),
 "hashtags": [{"tag": string (lower-case kebab), "relevancy": number in [0,1]}] (3-8, reuse the user's existing tags when they fit),
 "confidence": {field name: number in [0,1]}}
Use "" or null when the document does not say. Do not invent authors or years.`;

export function createOpenAiEnricher(options: OpenAiEnricherOptions): DocumentEnricher {
  const maxChars = options.maxChars ?? 24_000;
  return {
    provider: 'openai',
    async enrich(input: EnrichInput, opts: EnrichOptions = {}): Promise<DocumentEnrichment> {
      const baseline = options.baseline ? await options.baseline.enrich(input, opts) : null;
      const hints = baseline
        ? Object.fromEntries(
            DOCUMENT_FIELDS.filter((f) =>
              ['title', 'author', 'publication_year', 'journal_publisher'].includes(f),
            )
              .map((f) => [f, valueOf(baseline, f)])
              .filter(([, v]) => v !== '' && v !== undefined),
          )
        : {};
      const vocabulary = (input.existingTags ?? [])
        .slice()
        .sort((a, b) => b.count - a.count)
        .slice(0, 100)
        .map((t) => t.tag);
      const user = [
        input.instructions?.trim() ? `User instructions (follow them):\n${input.instructions}` : '',
        vocabulary.length ? `The user's existing tags: ${vocabulary.join(', ')}` : '',
        Object.keys(hints).length
          ? `Found in the file's metadata and first page: ${JSON.stringify(hints)}`
          : '',
        input.fileName ? `File name: ${input.fileName}` : '',
        `Document text:\n${input.text.slice(0, maxChars)}`,
      ]
        .filter(Boolean)
        .join('\n\n');
      let json: Record<string, unknown>;
      try {
        const completion = await options.client.chat.completions.create(
          {
            model: options.model,
            response_format: { type: 'json_object' },
            temperature: 0.2,
            messages: [
              { role: 'system', content: SYSTEM },
              { role: 'user', content: user },
            ],
          },
          opts.signal ? { signal: opts.signal } : {},
        );
        json = parseJsonObject(completion.choices[0]?.message?.content);
      } catch (err) {
        // The endpoint failed after the SDK's retries, or answered no JSON: the offline rules'
        // result stands (its provenance says where each field came from). A cancelled job stops.
        if (!baseline || opts.signal?.aborted) throw err;
        return baseline;
      }
      return toEnrichment(json, options.model, input, baseline);
    },
  };
}

function valueOf(e: DocumentEnrichment, field: string): unknown {
  switch (field) {
    case 'publication_year':
      return e.publicationYear;
    case 'journal_publisher':
      return e.journalPublisher;
    case 'influenced_by':
      return e.influencedBy;
    default:
      return (e as unknown as Record<string, unknown>)[field];
  }
}

function toEnrichment(
  json: Record<string, unknown>,
  model: string,
  input: EnrichInput,
  baseline: DocumentEnrichment | null,
): DocumentEnrichment {
  const out = emptyEnrichment();
  const conf = (json.confidence && typeof json.confidence === 'object' ? json.confidence : {}) as Record<
    string,
    unknown
  >;
  const set = (field: string, present: boolean, evidence: string) => {
    if (!present) return;
    out.provenance[field] = {
      confidence: round2(clamp01(num(conf[field]) ?? 0.75)),
      source: ProvenanceSource.REMOTE_MODEL,
      method: model,
      evidence: excerpt(evidence),
    };
  };
  out.title = str(json.title);
  set('title', !!out.title, out.title);
  // Same contract as offline: names only (a model may add "(2019)" or an affiliation).
  out.author = cleanAuthors(str(json.author));
  set('author', !!out.author, out.author);
  const year = num(json.publication_year);
  if (
    year !== undefined &&
    Number.isInteger(year) &&
    year >= 1500 &&
    year <= new Date().getUTCFullYear() + 1
  ) {
    out.publicationYear = year;
    set('publication_year', true, String(year));
  }
  out.journalPublisher = str(json.journal_publisher);
  set('journal_publisher', !!out.journalPublisher, out.journalPublisher);
  out.category = str(json.category);
  set('category', !!out.category, out.category);
  out.field = str(json.field);
  set('field', !!out.field, out.field);
  out.summary = str(json.summary);
  set('summary', !!out.summary, out.summary);
  out.thesis = str(json.thesis);
  set('thesis', !!out.thesis, out.thesis);
  out.issue = str(json.issue);
  set('issue', !!out.issue, out.issue);
  out.influencedBy = strList(json.influenced_by).slice(0, 10);
  set('influenced_by', out.influencedBy.length > 0, out.influencedBy.join(', '));
  const rawTags = Array.isArray(json.hashtags) ? json.hashtags : [];
  const tags = rawTags
    .map((t) =>
      typeof t === 'string'
        ? { tag: t, relevancy: 0.7 }
        : {
            tag: str((t as Record<string, unknown>)?.tag),
            relevancy: clamp01(num((t as Record<string, unknown>)?.relevancy) ?? 0.7),
          },
    )
    .filter((t) => t.tag);
  out.hashtags = reconcileTags(tags, input.existingTags, { max: 10, minRelevancy: 0 }).map(
    ({ tag, relevancy }) => ({ tag, relevancy }),
  );
  set('hashtags', out.hashtags.length > 0, out.hashtags.map((t) => t.tag).join(', '));
  // The model may leave out what the file's metadata or rules stated plainly: keep those.
  if (baseline) {
    for (const f of DOCUMENT_FIELDS) {
      if (out.provenance[f] || !baseline.provenance[f]) continue;
      const v = valueOf(baseline, f);
      if (v === '' || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
      switch (f) {
        case 'publication_year':
          out.publicationYear = baseline.publicationYear;
          break;
        case 'journal_publisher':
          out.journalPublisher = baseline.journalPublisher;
          break;
        case 'influenced_by':
          out.influencedBy = baseline.influencedBy;
          break;
        case 'hashtags':
          out.hashtags = baseline.hashtags;
          break;
        default:
          (out as unknown as Record<string, unknown>)[f] = v;
      }
      out.provenance[f] = baseline.provenance[f]!;
    }
  }
  // A thesis that only repeats the summary says nothing more (the model's summary may be the very
  // sentence the rules took as the thesis).
  if (out.thesis && out.thesis.trim() === out.summary.trim()) {
    out.thesis = '';
    delete out.provenance.thesis;
  }
  return out;
}
