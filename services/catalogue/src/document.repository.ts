// Documents, always read and written for one owner (another user's id is indistinguishable from none).
// The stored analysis stays as processing sent it; the plain columns hold it merged with the user's
// corrections, recomputed on every write, so lists, sorting and the keyword filter read columns only.
import { jsonb, runAll, runFirst, sql } from '@kaboodle/platform';
import type { Queryable, Selectable } from '@kaboodle/platform';
import type { DocumentAnalysis } from '@kaboodle/proto';
import {
  correctedDocumentAnalysis,
  documentFieldsFromAnalysis,
  documentSearchText,
  encodeDocumentAnalysis,
  mergeFields,
  provenanceToJson,
} from './catalogue-model.ts';
import type { DocumentFields, DocumentRow } from './catalogue-model.ts';
import { catalogueSql } from './db-schema.ts';
import type { Documents } from './db-schema.gen.ts';
import { isEntityId, keysetAfter } from './entity-query.ts';
import type { Order, Page, SortSpec } from './entity-query.ts';

export const DOCUMENT_SORTS = {
  title: { expr: 'lower(title)', cast: 'text' },
  author: { expr: 'lower(author)', cast: 'text' },
  category: { expr: 'lower(category)', cast: 'text' },
  field: { expr: 'lower(field)', cast: 'text' },
  publication_year: { expr: 'COALESCE(publication_year, 0)', cast: 'integer' },
  journal_publisher: { expr: 'lower(journal_publisher)', cast: 'text' },
  created_at: { expr: 'created_at', cast: 'timestamptz' },
  updated_at: { expr: 'updated_at', cast: 'timestamptz' },
} satisfies Record<string, SortSpec>;
export type DocumentSort = keyof typeof DOCUMENT_SORTS;

export interface DocumentFilter {
  /** Case-insensitive substring of any field value (already trimmed). */
  query?: string | undefined;
  /** Exact category. */
  category?: string | undefined;
  /** Normalised tag (lower case, no '#'). */
  hashtag?: string | undefined;
  sort: DocumentSort;
  order: Order;
}

/** Where a document came from (the uploaded file). */
export interface SourceFile {
  fileId: string;
  fileName: string;
  contentType: string;
  size: number;
  blobKey: string;
  sha256: string;
  /** From the first-run sample library (FileRef.sample). */
  sample?: boolean;
}

// Lists never need the analysis bytes, the full text or provenance.
const LIST_COLUMNS = [
  'id',
  'owner_id',
  'source_file_id',
  'source_attempt',
  'file_name',
  'content_type',
  'size',
  'blob_key',
  'sha256',
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
  'corrected_fields',
  'sample',
  'version',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof DocumentRecord)[];

type DocumentRecord = Selectable<Documents>;
/** A row as a list reads it; the columns lists skip are optional (full reads have them). */
type DocumentRead = Pick<DocumentRecord, (typeof LIST_COLUMNS)[number]> & Partial<DocumentRecord>;

function toRow(r: DocumentRead): DocumentRow {
  return {
    id: r.id,
    owner_id: r.owner_id,
    source_file_id: r.source_file_id,
    source_attempt: r.source_attempt,
    file_name: r.file_name,
    content_type: r.content_type,
    size: r.size,
    blob_key: r.blob_key,
    sha256: r.sha256,
    title: r.title,
    author: r.author,
    category: r.category,
    field: r.field,
    publication_year: r.publication_year,
    summary: r.summary,
    thesis: r.thesis,
    issue: r.issue,
    journal_publisher: r.journal_publisher,
    influenced_by: r.influenced_by,
    hashtags: r.hashtags,
    extracted_text: r.extracted_text ?? '',
    page_count: r.page_count ?? 0,
    language: r.language ?? '',
    provenance: r.provenance ?? {},
    analysis: r.analysis ?? null,
    corrections: r.corrections ?? {},
    corrected_fields: r.corrected_fields,
    sample: r.sample,
    version: r.version,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

const q0 = catalogueSql;

/** The owner's rows matching the filter (the list, the count and the export share it). */
function filtered(ownerId: string, f: Omit<DocumentFilter, 'sort' | 'order'>) {
  let query = q0.selectFrom('documents').where('owner_id', '=', ownerId);
  if (f.query) query = query.where(sql<boolean>`strpos(search_text, lower(${f.query})) > 0`);
  if (f.category !== undefined) query = query.where('category', '=', f.category);
  if (f.hashtag) query = query.where(sql<boolean>`hashtags @> ${jsonb([{ tag: f.hashtag }])}`);
  return query;
}

export interface SaveDocument {
  id: string;
  ownerId: string;
  source: SourceFile;
  attempt: number;
  analysis: DocumentAnalysis;
  corrections: Partial<DocumentFields>;
  correctedFields: string[];
}

export function createDocumentRepository(db: Queryable) {
  return {
    async findForOwner(ownerId: string, id: string, q: Queryable = db): Promise<DocumentRow | null> {
      if (!isEntityId(id)) return null;
      const row = await runFirst(
        q,
        q0.selectFrom('documents').selectAll().where('id', '=', id).where('owner_id', '=', ownerId),
      );
      return row ? toRow(row) : null;
    },

    /** Any owner's (consumers checking the id space, gRPC full rebuilds). Locks the row in a transaction. */
    async findById(q: Queryable, id: string, forUpdate = false): Promise<DocumentRow | null> {
      const query = q0.selectFrom('documents').selectAll().where('id', '=', id);
      const row = await runFirst(q, forUpdate ? query.forUpdate() : query);
      return row ? toRow(row) : null;
    },

    /**
     * Insert or replace a document: columns merged from analysis and corrections, a fresh version.
     * Refuses (null) to touch a row of another owner.
     */
    async save(q: Queryable, d: SaveDocument): Promise<DocumentRow | null> {
      const ai = documentFieldsFromAnalysis(d.analysis);
      const f = mergeFields(ai, d.corrections);
      const provenance = provenanceToJson(correctedDocumentAnalysis(d.analysis, d.corrections).provenance);
      const text = d.analysis.text;
      const row = await runFirst(
        q,
        q0
          .insertInto('documents')
          .values({
            id: d.id,
            owner_id: d.ownerId,
            source_file_id: d.source.fileId,
            source_attempt: d.attempt,
            file_name: d.source.fileName,
            content_type: d.source.contentType,
            size: d.source.size,
            blob_key: d.source.blobKey,
            sha256: d.source.sha256,
            title: f.title,
            author: f.author,
            category: f.category,
            field: f.field,
            publication_year: f.publication_year,
            summary: f.summary,
            thesis: f.thesis,
            issue: f.issue,
            journal_publisher: f.journal_publisher,
            influenced_by: jsonb(f.influenced_by),
            hashtags: jsonb(f.hashtags),
            extracted_text: text?.text ?? '',
            page_count: text?.pageCount ?? 0,
            language: text?.language ?? '',
            provenance: jsonb(provenance),
            analysis: Buffer.from(encodeDocumentAnalysis(d.analysis)),
            corrections: jsonb<Record<string, unknown>>(d.corrections),
            corrected_fields: jsonb(d.correctedFields),
            search_text: sql<string>`lower(${documentSearchText(f, d.source.fileName)})`,
            sample: d.source.sample === true,
            version: sql<number>`nextval('entity_version_seq')`,
          })
          .onConflict((oc) =>
            oc
              .column('id')
              .doUpdateSet((eb) => ({
                source_file_id: eb.ref('excluded.source_file_id'),
                source_attempt: eb.ref('excluded.source_attempt'),
                file_name: eb.ref('excluded.file_name'),
                content_type: eb.ref('excluded.content_type'),
                size: eb.ref('excluded.size'),
                blob_key: eb.ref('excluded.blob_key'),
                sha256: eb.ref('excluded.sha256'),
                title: eb.ref('excluded.title'),
                author: eb.ref('excluded.author'),
                category: eb.ref('excluded.category'),
                field: eb.ref('excluded.field'),
                publication_year: eb.ref('excluded.publication_year'),
                summary: eb.ref('excluded.summary'),
                thesis: eb.ref('excluded.thesis'),
                issue: eb.ref('excluded.issue'),
                journal_publisher: eb.ref('excluded.journal_publisher'),
                influenced_by: eb.ref('excluded.influenced_by'),
                hashtags: eb.ref('excluded.hashtags'),
                extracted_text: eb.ref('excluded.extracted_text'),
                page_count: eb.ref('excluded.page_count'),
                language: eb.ref('excluded.language'),
                provenance: eb.ref('excluded.provenance'),
                analysis: eb.ref('excluded.analysis'),
                corrections: eb.ref('excluded.corrections'),
                corrected_fields: eb.ref('excluded.corrected_fields'),
                search_text: eb.ref('excluded.search_text'),
                sample: eb.ref('excluded.sample'),
                version: eb.ref('excluded.version'),
                updated_at: sql<Date>`now()`,
              }))
              .where('documents.owner_id', '=', (eb) => eb.ref('excluded.owner_id')),
          )
          .returningAll(),
      );
      return row ? toRow(row) : null;
    },

    /** Delete the owner's document; the deleted row (for the event), or null when there was none. */
    async delete(q: Queryable, ownerId: string, id: string): Promise<DocumentRow | null> {
      if (!isEntityId(id)) return null;
      const row = await runFirst(
        q,
        q0.deleteFrom('documents').where('id', '=', id).where('owner_id', '=', ownerId).returningAll(),
      );
      return row ? toRow(row) : null;
    },

    async list(
      ownerId: string,
      f: DocumentFilter,
      page: Page,
    ): Promise<{ rows: DocumentRow[]; total: number }> {
      const sort = DOCUMENT_SORTS[f.sort];
      const rows = await runAll(
        db,
        filtered(ownerId, f)
          .select(LIST_COLUMNS)
          .orderBy(sql.raw(sort.expr), f.order)
          .orderBy('id', f.order)
          .limit(page.limit)
          .offset((page.page - 1) * page.limit),
      );
      const count = await runFirst(
        db,
        filtered(ownerId, f).select((eb) => eb.fn.countAll<number>().as('n')),
      );
      return { rows: rows.map(toRow), total: count?.n ?? 0 };
    },

    /** The whole filtered set in order, batch by batch (keyset paging: memory stays one batch). */
    async *iterate(
      ownerId: string,
      f: DocumentFilter,
      batchSize: number,
      max: number,
    ): AsyncGenerator<DocumentRow> {
      const sort = DOCUMENT_SORTS[f.sort];
      let after: { key: string; id: string } | undefined;
      let sent = 0;
      while (sent < max) {
        let query = filtered(ownerId, f)
          .select(LIST_COLUMNS)
          .select(sql<string>`(${sql.raw(sort.expr)})::text`.as('sort_key'))
          .orderBy(sql.raw(sort.expr), f.order)
          .orderBy('id', f.order)
          .limit(Math.min(batchSize, max - sent));
        if (after) query = query.where(keysetAfter(sort, f.order, after.key, after.id));
        const rows = await runAll(db, query);
        for (const r of rows) yield toRow(r);
        sent += rows.length;
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) return;
        after = { key: last.sort_key, id: last.id };
      }
    },

    async categories(ownerId: string): Promise<{ name: string; count: number }[]> {
      return runAll(
        db,
        q0
          .selectFrom('documents')
          .select((eb) => ['category as name', eb.fn.countAll<number>().as('count')])
          .where('owner_id', '=', ownerId)
          .where('category', '<>', '')
          .groupBy('category')
          .orderBy(sql`lower(category)`)
          .orderBy('category'),
      );
    },

    async count(ownerId: string): Promise<number> {
      const row = await runFirst(
        db,
        filtered(ownerId, {}).select((eb) => eb.fn.countAll<number>().as('n')),
      );
      return row?.n ?? 0;
    },

    /** Full rows by id (gRPC ListForIndex loads a batch after choosing it by version). */
    async findMany(ids: string[]): Promise<DocumentRow[]> {
      if (ids.length === 0) return [];
      const rows = await runAll(
        db,
        q0
          .selectFrom('documents')
          .selectAll()
          .where('id', '=', sql<string>`ANY(${ids}::uuid[])`),
      );
      return rows.map(toRow);
    },
  };
}

export type DocumentRepository = ReturnType<typeof createDocumentRepository>;
