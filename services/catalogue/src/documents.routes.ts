// /api/documents* (declared in documents.api.ts): the vault's list (sort, filter, X-Total-Count), keyword
// search, categories, streamed export, one document (read, correct, delete) and its original file.
// Every route is the signed-in owner's only; another user's id answers 404 exactly like a missing one.
// The fixed paths (search, categories, export) are bound before /{id} so they are never read as ids.
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { RequestHandler, Response } from 'express';
import { contentDisposition, createApiRouter, getUser, NotFoundError } from '@kaboodle/platform';
import type { ApiRouter, BlobStore, TokenVerifier } from '@kaboodle/platform';
import { documentDetailJson, documentJson } from './catalogue-model.ts';
import type { DocumentRow } from './catalogue-model.ts';
import type { CatalogueService } from './catalogue.service.ts';
import { safeContentType } from './content-types.ts';
import { csvRow, UTF8_BOM } from './csv-writer.ts';
import type { DocumentRepository } from './document.repository.ts';
import {
  deleteDocument,
  documentFilterOf,
  exportDocuments,
  getDocument,
  getDocumentFile,
  listDocumentCategories,
  listDocuments,
  searchDocumentsByKeyword,
  updateDocument,
} from './documents.api.ts';

export const DOCUMENT_NOT_FOUND = 'Document not found';
export const FILE_GONE = 'The original file is no longer stored';
/** Rows per keyset query while exporting: memory stays one batch. */
const EXPORT_BATCH = 500;

export interface DocumentsRouterDeps {
  documents: DocumentRepository;
  service: CatalogueService;
  blobs: BlobStore;
  verifier: TokenVerifier;
  exportMaxRows: number;
}

/** Export columns: the vault table's, plus where the document came from. */
const CSV_COLUMNS = [
  'id',
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
  'file_name',
  'created_at',
  'updated_at',
] as const;

const csvValues = (d: DocumentRow): unknown[] =>
  CSV_COLUMNS.map((c) =>
    c === 'influenced_by'
      ? d.influenced_by.join('; ')
      : c === 'hashtags'
        ? d.hashtags.map((h) => h.tag).join('; ')
        : d[c],
  );

/** Write with back-pressure; false when the client has gone. */
async function write(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(chunk)) {
    await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  return !res.destroyed;
}

export function createDocumentsRouter(deps: DocumentsRouterDeps): ApiRouter {
  const { documents, service, blobs } = deps;
  const api = createApiRouter({ verifier: deps.verifier });

  api.handle(listDocuments, async ({ query, res, user, reply }) => {
    const { page, limit } = query;
    const { rows, total } = await documents.list(user.id, documentFilterOf(query), { page, limit });
    res.set('X-Total-Count', String(total));
    reply(
      200,
      rows.map((r) => documentJson(r)),
    );
  });

  api.handle(searchDocumentsByKeyword, async ({ query, res, user, reply }) => {
    const { page, limit } = query;
    const { rows, total } = await documents.list(user.id, documentFilterOf(query), { page, limit });
    res.set('X-Total-Count', String(total));
    reply(
      200,
      rows.map((r) => documentJson(r)),
    );
  });

  api.handle(listDocumentCategories, async ({ user, reply }) => {
    reply(200, { categories: await documents.categories(user.id) });
  });

  api.handle(exportDocuments, async ({ query, res, user }) => {
    const { format, bom } = query;
    const filter = documentFilterOf(query);
    const owner = user.id;
    const { total } = await documents.list(owner, filter, { page: 1, limit: 1 });
    const date = new Date().toISOString().slice(0, 10);
    res.status(200).set({
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Disposition': contentDisposition('attachment', `kaboodle-documents-${date}.${format}`),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'X-Total-Count': String(total),
      ...(total > deps.exportMaxRows ? { 'X-Export-Truncated': String(deps.exportMaxRows) } : {}),
    });
    let open = await write(res, `${bom ? UTF8_BOM : ''}${format === 'csv' ? csvRow(CSV_COLUMNS) : '['}`);
    let first = true;
    for await (const row of documents.iterate(owner, filter, EXPORT_BATCH, deps.exportMaxRows)) {
      if (!open) return; // the client went away: stop reading
      const chunk =
        format === 'csv'
          ? csvRow(csvValues(row))
          : `${first ? '\n' : ',\n'}${JSON.stringify(documentJson(row))}`;
      first = false;
      open = await write(res, chunk);
    }
    res.end(format === 'json' ? `${first ? '' : '\n'}]\n` : undefined);
  });

  api.handle(getDocument, async ({ params, user, reply }) => {
    const doc = await documents.findForOwner(user.id, params.id);
    if (!doc) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    reply(200, documentDetailJson(doc));
  });

  // 404 before the body is read: another user's id tells nothing, not even which fields are wrong.
  const ownDocument: RequestHandler = async (req, _res, next) => {
    if (!(await documents.findForOwner(getUser(req).id, String(req.params.id))))
      throw new NotFoundError(DOCUMENT_NOT_FOUND);
    next();
  };

  api.handle(
    updateDocument,
    async ({ params, body, user, reply }) => {
      const saved = await service.updateDocument(user.id, params.id, body);
      if (!saved) throw new NotFoundError(DOCUMENT_NOT_FOUND);
      reply(200, documentDetailJson(saved));
    },
    { before: [ownDocument] },
  );

  api.handle(deleteDocument, async ({ params, res, user }) => {
    if (!(await service.deleteDocument(user.id, params.id))) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    res.status(204).end();
  });

  api.handle(getDocumentFile, async ({ params, res, user }) => {
    const doc = await documents.findForOwner(user.id, params.id);
    if (!doc) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    await sendBlob(blobs, res, doc.blob_key, {
      contentType: doc.content_type,
      disposition: contentDisposition('attachment', doc.file_name),
      sandbox: true,
    });
  });

  return api;
}

/** Stream a stored file to the client; a missing blob is a 404 with a plain reason. */
export async function sendBlob(
  blobs: BlobStore,
  res: Response,
  key: string,
  o: { contentType: string; disposition: string; sandbox: boolean },
): Promise<void> {
  if (!key) throw new NotFoundError(FILE_GONE);
  let blob: Awaited<ReturnType<BlobStore['get']>>;
  try {
    blob = await blobs.get(key);
  } catch (err) {
    if (err instanceof NotFoundError) throw new NotFoundError(FILE_GONE);
    throw err;
  }
  res.status(200).set({
    'Content-Type': safeContentType(o.contentType || blob.info.contentType),
    'Content-Length': String(blob.info.size),
    'Content-Disposition': o.disposition,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-cache',
    ...(o.sandbox ? { 'Content-Security-Policy': 'sandbox' } : {}),
  });
  try {
    await pipeline(blob.body, res);
  } catch (err) {
    if (!res.destroyed) throw err; // a client that hangs up mid-download is not our fault
  }
}
