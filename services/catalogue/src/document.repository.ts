// Documents, always read and written for one owner (another user's id is indistinguishable from none).
// The stored analysis stays as processing sent it; the plain columns hold it merged with the user's
// corrections, recomputed on every write, so lists, sorting and the keyword filter read columns only.
import type { Queryable } from '@kaboodle/platform';
import type { DocumentAnalysis } from '@kaboodle/proto';
import {
  correctedDocumentAnalysis,
  documentFieldsFromAnalysis,
  documentSearchText,
  encodeDocumentAnalysis,
  mergeFields,
  provenanceToJson,
} from './catalogue-model.ts';
import type { DocumentFields, DocumentRow, Tag } from './catalogue-model.ts';
import { isEntityId, json, keysetAfter, orderBy, Params, toNumber, toNumberOrNull } from './entity-query.ts';
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
const LIST_COLUMNS = `id, owner_id, source_file_id, source_attempt, file_name, content_type, size, blob_key, sha256,
  title, author, category, field, publication_year, summary, thesis, issue, journal_publisher, influenced_by,
  hashtags, corrected_fields, sample, version, created_at, updated_at`;

interface RawRow extends Record<string, unknown> {
  sort_key?: string;
}

function toRow(r: RawRow): DocumentRow {
  return {
    id: r.id as string,
    owner_id: r.owner_id as string,
    source_file_id: (r.source_file_id as string | null) ?? null,
    source_attempt: toNumber(r.source_attempt ?? 0),
    file_name: (r.file_name as string) ?? '',
    content_type: (r.content_type as string) ?? '',
    size: toNumber(r.size ?? 0),
    blob_key: (r.blob_key as string) ?? '',
    sha256: (r.sha256 as string) ?? '',
    title: r.title as string,
    author: r.author as string,
    category: r.category as string,
    field: r.field as string,
    publication_year: toNumberOrNull(r.publication_year),
    summary: r.summary as string,
    thesis: r.thesis as string,
    issue: r.issue as string,
    journal_publisher: r.journal_publisher as string,
    influenced_by: json<string[]>(r.influenced_by, []),
    hashtags: json<Tag[]>(r.hashtags, []),
    extracted_text: (r.extracted_text as string) ?? '',
    page_count: toNumber(r.page_count ?? 0),
    language: (r.language as string) ?? '',
    provenance: json(r.provenance, {}),
    analysis: (r.analysis as Uint8Array | null) ?? null,
    corrections: json<Record<string, unknown>>(r.corrections, {}),
    corrected_fields: json<string[]>(r.corrected_fields, []),
    sample: r.sample === true,
    version: toNumber(r.version),
    created_at: r.created_at as Date,
    updated_at: r.updated_at as Date,
  };
}

function where(p: Params, ownerId: string, f: Omit<DocumentFilter, 'sort' | 'order'>): string {
  const parts = [`owner_id = ${p.add(ownerId)}`];
  if (f.query) parts.push(`strpos(search_text, lower(${p.add(f.query)})) > 0`);
  if (f.category !== undefined) parts.push(`category = ${p.add(f.category)}`);
  if (f.hashtag) parts.push(`hashtags @> ${p.add(JSON.stringify([{ tag: f.hashtag }]))}::jsonb`);
  return parts.join(' AND ');
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
      const { rows } = await q.query<RawRow>('SELECT * FROM documents WHERE id = $1 AND owner_id = $2', [
        id,
        ownerId,
      ]);
      return rows[0] ? toRow(rows[0]) : null;
    },

    /** Any owner's (consumers checking the id space, gRPC full rebuilds). Locks the row in a transaction. */
    async findById(q: Queryable, id: string, forUpdate = false): Promise<DocumentRow | null> {
      const { rows } = await q.query<RawRow>(
        `SELECT * FROM documents WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
        [id],
      );
      return rows[0] ? toRow(rows[0]) : null;
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
      const values: unknown[] = [
        d.id,
        d.ownerId,
        d.source.fileId,
        d.attempt,
        d.source.fileName,
        d.source.contentType,
        d.source.size,
        d.source.blobKey,
        d.source.sha256,
        f.title,
        f.author,
        f.category,
        f.field,
        f.publication_year,
        f.summary,
        f.thesis,
        f.issue,
        f.journal_publisher,
        JSON.stringify(f.influenced_by),
        JSON.stringify(f.hashtags),
        text?.text ?? '',
        text?.pageCount ?? 0,
        text?.language ?? '',
        JSON.stringify(provenance),
        Buffer.from(encodeDocumentAnalysis(d.analysis)),
        JSON.stringify(d.corrections),
        JSON.stringify(d.correctedFields),
        documentSearchText(f, d.source.fileName),
        d.source.sample === true,
      ];
      const placeholders = values.map((_, i) => {
        const n = `$${i + 1}`;
        return [18, 19, 23, 25, 26].includes(i) ? `${n}::jsonb` : i === 27 ? `lower(${n})` : n;
      });
      const columns = `id, owner_id, source_file_id, source_attempt, file_name, content_type, size, blob_key, sha256,
        title, author, category, field, publication_year, summary, thesis, issue, journal_publisher, influenced_by,
        hashtags, extracted_text, page_count, language, provenance, analysis, corrections, corrected_fields, search_text,
        sample`;
      const updates = columns
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== 'id' && c !== 'owner_id')
        .map((c) => `${c} = EXCLUDED.${c}`)
        .join(', ');
      const { rows } = await q.query<RawRow>(
        `INSERT INTO documents (${columns}, version)
         VALUES (${placeholders.join(', ')}, nextval('entity_version_seq'))
         ON CONFLICT (id) DO UPDATE SET ${updates}, version = EXCLUDED.version, updated_at = now()
           WHERE documents.owner_id = EXCLUDED.owner_id
         RETURNING *`,
        values,
      );
      return rows[0] ? toRow(rows[0]) : null;
    },

    /** Delete the owner's document; the deleted row (for the event), or null when there was none. */
    async delete(q: Queryable, ownerId: string, id: string): Promise<DocumentRow | null> {
      if (!isEntityId(id)) return null;
      const { rows } = await q.query<RawRow>(
        'DELETE FROM documents WHERE id = $1 AND owner_id = $2 RETURNING *',
        [id, ownerId],
      );
      return rows[0] ? toRow(rows[0]) : null;
    },

    async list(
      ownerId: string,
      f: DocumentFilter,
      page: Page,
    ): Promise<{ rows: DocumentRow[]; total: number }> {
      const sort = DOCUMENT_SORTS[f.sort];
      const p = new Params();
      const w = where(p, ownerId, f);
      const countParams = [...p.values];
      const { rows } = await db.query<RawRow>(
        `SELECT ${LIST_COLUMNS} FROM documents WHERE ${w} ${orderBy(sort, f.order)}
         LIMIT ${p.add(page.limit)} OFFSET ${p.add((page.page - 1) * page.limit)}`,
        p.values,
      );
      const count = await db.query<{ n: unknown }>(
        `SELECT count(*) AS n FROM documents WHERE ${w}`,
        countParams,
      );
      return { rows: rows.map(toRow), total: toNumber(count.rows[0]?.n ?? 0) };
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
        const p = new Params();
        let w = where(p, ownerId, f);
        if (after) w += ` AND ${keysetAfter(p, sort, f.order, after.key, after.id)}`;
        const { rows } = await db.query<RawRow>(
          `SELECT ${LIST_COLUMNS}, (${sort.expr})::text AS sort_key FROM documents WHERE ${w}
           ${orderBy(sort, f.order)} LIMIT ${p.add(Math.min(batchSize, max - sent))}`,
          p.values,
        );
        for (const r of rows) yield toRow(r);
        sent += rows.length;
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) return;
        after = { key: last.sort_key as string, id: last.id as string };
      }
    },

    async categories(ownerId: string): Promise<{ name: string; count: number }[]> {
      const { rows } = await db.query<{ name: string; count: unknown }>(
        `SELECT category AS name, count(*) AS count FROM documents
          WHERE owner_id = $1 AND category <> '' GROUP BY category ORDER BY lower(category), category`,
        [ownerId],
      );
      return rows.map((r) => ({ name: r.name, count: toNumber(r.count) }));
    },

    async count(ownerId: string): Promise<number> {
      const { rows } = await db.query<{ n: unknown }>(
        'SELECT count(*) AS n FROM documents WHERE owner_id = $1',
        [ownerId],
      );
      return toNumber(rows[0]?.n ?? 0);
    },

    /** Full rows by id (gRPC ListForIndex loads a batch after choosing it by version). */
    async findMany(ids: string[]): Promise<DocumentRow[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.query<RawRow>('SELECT * FROM documents WHERE id = ANY($1::uuid[])', [ids]);
      return rows.map(toRow);
    },
  };
}

export type DocumentRepository = ReturnType<typeof createDocumentRepository>;
