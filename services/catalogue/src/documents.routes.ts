// /api/documents*: the vault's list (sort, filter, X-Total-Count), keyword search, categories, streamed
// export, one document (read, correct, delete) and its original file. Every route is the signed-in
// owner's only; another user's id answers 404 exactly like a missing one. The fixed paths (search,
// categories, export) are registered before /:id so they are never read as ids.
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import express from 'express';
import type { Request, Response, Router } from 'express';
import { getUser, InputError, NotFoundError, requireUser } from '@kaboodle/platform';
import type { BlobStore, TokenVerifier } from '@kaboodle/platform';
import { documentJson } from './catalogue-model.ts';
import type { DocumentRow } from './catalogue-model.ts';
import type { CatalogueService } from './catalogue.service.ts';
import { contentDisposition, safeContentType } from './content-disposition.ts';
import { csvRow, UTF8_BOM } from './csv-writer.ts';
import type { DocumentFilter, DocumentRepository } from './document.repository.ts';
import {
  parseCategory,
  parseDocumentPatch,
  parseHashtagFilter,
  parsePage,
  parseQuery,
  parseSort,
  single,
} from './request-input.ts';

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

function filterOf(req: Request, queryRequired: boolean): DocumentFilter {
  const q = req.query as Record<string, unknown>;
  return {
    query: parseQuery(q, queryRequired),
    category: parseCategory(q),
    hashtag: parseHashtagFilter(q),
    ...parseSort(q),
  };
}

/** Write with back-pressure; false when the client has gone. */
async function write(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(chunk)) {
    await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  return !res.destroyed;
}

export function createDocumentsRouter(deps: DocumentsRouterDeps): Router {
  const { documents, service, blobs } = deps;
  const router = express.Router();
  const auth = requireUser(deps.verifier);

  async function listed(req: Request, res: Response, queryRequired: boolean): Promise<void> {
    const filter = filterOf(req, queryRequired);
    const page = parsePage(req.query as Record<string, unknown>);
    const { rows, total } = await documents.list(getUser(req).id, filter, page);
    res.set('X-Total-Count', String(total)).json(rows.map((r) => documentJson(r)));
  }

  router.get('/api/documents', auth, (req, res) => listed(req, res, false));
  router.get('/api/documents/search', auth, (req, res) => listed(req, res, true));

  router.get('/api/documents/categories', auth, async (req, res) => {
    res.json({ categories: await documents.categories(getUser(req).id) });
  });

  router.get('/api/documents/export', auth, async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const format = (single(q, 'format') ?? 'csv').trim().toLowerCase();
    if (format !== 'csv' && format !== 'json') throw new InputError('format must be csv or json');
    const bomRaw = (single(q, 'bom') ?? '0').trim().toLowerCase();
    if (!['0', '1', 'true', 'false', ''].includes(bomRaw)) throw new InputError('bom must be 1 or 0');
    const bom = bomRaw === '1' || bomRaw === 'true';
    const filter = filterOf(req, false);
    const owner = getUser(req).id;
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

  router.get('/api/documents/:id', auth, async (req, res) => {
    const doc = await documents.findForOwner(getUser(req).id, req.params.id as string);
    if (!doc) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    res.json(documentJson(doc, true));
  });

  router.patch('/api/documents/:id', auth, express.json(), async (req, res) => {
    const owner = getUser(req).id;
    // 404 before validation: another user's id tells nothing, not even which fields are wrong
    if (!(await documents.findForOwner(owner, req.params.id as string)))
      throw new NotFoundError(DOCUMENT_NOT_FOUND);
    const patch = parseDocumentPatch(req.body);
    const saved = await service.updateDocument(owner, req.params.id as string, patch);
    if (!saved) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    res.json(documentJson(saved, true));
  });

  router.delete('/api/documents/:id', auth, async (req, res) => {
    if (!(await service.deleteDocument(getUser(req).id, req.params.id as string))) {
      throw new NotFoundError(DOCUMENT_NOT_FOUND);
    }
    res.status(204).end();
  });

  router.get('/api/documents/:id/file', auth, async (req, res) => {
    const doc = await documents.findForOwner(getUser(req).id, req.params.id as string);
    if (!doc) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    await sendBlob(blobs, res, doc.blob_key, {
      contentType: doc.content_type,
      disposition: contentDisposition('attachment', doc.file_name),
      sandbox: true,
    });
  });

  return router;
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
