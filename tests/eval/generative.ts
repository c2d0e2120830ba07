// Offline rules and an OpenAI-compatible model side by side on the same documents: per-field
// accuracy for what has ground truth (title, author, year, venue, category, field), and the
// shape rules every enricher must keep (a summary; a thesis that is not the summary again). The
// bench prints both columns when KABOODLE_EVAL_OPENAI_URL names a real endpoint; the eval tier
// runs it against the loopback stand-in (no hosted model is reachable from these machines).
import { createOfflineEnricher, createOpenAiEnricher } from '@kaboodle/processing';
import type { DocumentEnricher, DocumentEnrichment } from '@kaboodle/processing';
import { createOpenAiClient } from '@kaboodle/processing';
import { EVAL_DOCUMENTS } from './documents.ts';
import { sameAuthors, sameText } from './support/metrics.ts';

export interface ColumnFigures {
  label: string;
  fields: Array<{ field: string; correct: number; total: number; misses: string[] }>;
  /** Documents whose enrichment failed outright (the model's fallback should make this 0). */
  failed: string[];
}

type Check = (d: (typeof EVAL_DOCUMENTS)[number], e: DocumentEnrichment) => boolean | undefined;

const CHECKS: Record<string, Check> = {
  title: (d, e) => sameText(e.title, d.expected.title),
  author: (d, e) => sameAuthors(e.author, d.expected.authors),
  publication_year: (d, e) =>
    d.expected.year === undefined ? undefined : e.publicationYear === d.expected.year,
  journal_publisher: (d, e) =>
    d.expected.journal ? sameText(e.journalPublisher, d.expected.journal) : undefined,
  category: (d, e) => e.category === d.expected.category,
  field: (d, e) => e.field === (d.expected.field ?? ''),
  'summary given': (_d, e) => e.summary.trim().length > 0,
  'thesis not the summary': (_d, e) => e.thesis === '' || e.thesis.trim() !== e.summary.trim(),
};

export async function enricherColumn(label: string, enricher: DocumentEnricher): Promise<ColumnFigures> {
  const results: Array<{ d: (typeof EVAL_DOCUMENTS)[number]; e?: DocumentEnrichment }> = [];
  const failed: string[] = [];
  for (const d of EVAL_DOCUMENTS) {
    try {
      results.push({ d, e: await enricher.enrich({ text: d.text, fileName: d.fileName }) });
    } catch (err) {
      failed.push(`${d.id}: ${err instanceof Error ? err.message : String(err)}`);
      results.push({ d });
    }
  }
  const fields = Object.entries(CHECKS).map(([field, check]) => {
    let correct = 0;
    let total = 0;
    const misses: string[] = [];
    for (const { d, e } of results) {
      const ok = e ? check(d, e) : false;
      if (ok === undefined) continue;
      total++;
      if (ok) correct++;
      else misses.push(d.id);
    }
    return { field, correct, total, misses };
  });
  return { label, fields, failed };
}

/** The two columns: offline rules, and the model at `baseURL` with the rules as its fallback. */
export async function compareWithModel(endpoint: {
  baseURL: string;
  model: string;
  apiKey?: string;
}): Promise<[ColumnFigures, ColumnFigures]> {
  const offline = createOfflineEnricher();
  const client = createOpenAiClient({
    OPENAI_BASE_URL: endpoint.baseURL,
    OPENAI_API_KEY: endpoint.apiKey,
    OPENAI_TIMEOUT: 120_000,
  });
  const model = createOpenAiEnricher({ client, model: endpoint.model, baseline: offline });
  return [
    await enricherColumn('offline rules', offline),
    await enricherColumn(`model ${endpoint.model}`, model),
  ];
}
