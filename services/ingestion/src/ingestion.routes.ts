// HTTP API of the ingestion service (spec §7 and the Media Hub): uploads and pasted URLs, status,
// cancel, the file list, the original bytes, delete and reprocess. Every route is the signed-in
// owner's only; another user's file answers 404 exactly like a missing one.
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { Request, Response, Router } from 'express';
import {
  ClientAbortError,
  ConflictError,
  getUser,
  InputError,
  NotFoundError,
  requireUser,
} from '@kaboodle/platform';
import type { BlobStore, Database, Logger, TokenVerifier } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform/outbox/index.ts';
import { fileCancelledEvent, fileDeletedEvent, fileUploadedEvent } from './file-events.ts';
import { FILE_STATUSES } from './file.repository.ts';
import type { DestinationName, FileRecord, FileRepository, FileStatus } from './file.repository.ts';
import { fetchUrlIntoBlob, parseFetchUrl } from './fetch-url.ts';
import type { FetchUrlOptions } from './fetch-url.ts';
import { receiveUpload } from './receive-upload.ts';

export const MAX_INSTRUCTIONS = 2000;
export const FILE_NOT_FOUND = 'File not found';
export const ALREADY_PROCESSING = 'File is already being processed';
const DESTINATION_NAMES: readonly DestinationName[] = ['auto', 'document', 'inventory'];

function resultOf(file: FileRecord) {
  if (!file.resultType || !file.resultId) return null;
  return {
    type: file.resultType,
    id: file.resultId,
    url:
      file.resultType === 'document'
        ? `/documents?open=${encodeURIComponent(file.resultId)}`
        : `/inventory/${encodeURIComponent(file.resultId)}`,
  };
}

export function statusBody(file: FileRecord) {
  return {
    id: file.id,
    file_id: file.id,
    name: file.name,
    size: file.size,
    content_type: file.contentType,
    status: file.status,
    stage: file.stage,
    progress: file.progress,
    error: file.error,
    created_at: file.createdAt.toISOString(),
    updated_at: file.updatedAt.toISOString(),
    attempt: file.attempt,
    destination: file.destination,
    instructions: file.instructions,
    source_url: file.sourceUrl,
    result: resultOf(file),
  };
}

/** instructions and destination as sent (form fields or JSON), checked with clear messages. */
function readOptions(raw: { instructions?: unknown; destination?: unknown }): {
  instructions: string | undefined;
  destination: DestinationName | undefined;
} {
  if (raw.instructions !== undefined && raw.instructions !== null && typeof raw.instructions !== 'string') {
    throw new InputError('AI instructions must be text');
  }
  const instructions = typeof raw.instructions === 'string' ? raw.instructions.trim() : undefined;
  if (instructions !== undefined && instructions.length > MAX_INSTRUCTIONS) {
    throw new InputError(`AI instructions are limited to ${MAX_INSTRUCTIONS} characters`);
  }
  let destination: DestinationName | undefined;
  if (raw.destination !== undefined && raw.destination !== null && raw.destination !== '') {
    const d = String(raw.destination).trim().toLowerCase();
    if (!(DESTINATION_NAMES as readonly string[]).includes(d)) {
      throw new InputError(
        `Unknown destination "${String(raw.destination)}": choose auto, document or inventory`,
      );
    }
    destination = d as DestinationName;
  }
  return { instructions, destination };
}

/** A positive whole number from the query string, or the default; a clear 400 otherwise. */
function queryInt(req: Request, name: string, def: number, min: number, max: number): number {
  const raw = req.query[name];
  if (raw === undefined || raw === '') return def;
  const text = Array.isArray(raw) ? String(raw[0]) : String(raw);
  if (!/^\d{1,9}$/.test(text))
    throw new InputError(`${name} must be a whole number between ${min} and ${max}`);
  const n = Number(text);
  if (n < min || n > max) throw new InputError(`${name} must be a whole number between ${min} and ${max}`);
  return n;
}

/** Served inline (previews) only for types a browser shows safely; everything else downloads. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'application/pdf', 'text/plain']);

/** Content-Disposition with an ASCII fallback and the exact name per RFC 5987/6266. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii =
    name
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["\\]/g, '_')
      .replace(/[\r\n]/g, '') || 'file';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export interface IngestionRouterDeps {
  db: Database;
  files: FileRepository;
  blobs: BlobStore;
  outbox: Outbox;
  verifier: TokenVerifier;
  logger: Logger;
  fetchOptions: FetchUrlOptions;
  /** Delete a blob now; on failure it stays in blob_deletions for the sweep. */
  deleteBlob(blobKey: string): Promise<void>;
}

interface Received {
  name: string;
  size: number;
  contentType: string;
  sniffedType: string;
  sha256: string;
}

export function createIngestionRouter(deps: IngestionRouterDeps): Router {
  const { db, files, blobs, outbox, verifier } = deps;
  const router = express.Router();
  const auth = requireUser(verifier);

  /** Record a stored file and announce it (one transaction), or report the owner's earlier copy. */
  async function record(
    res: Response,
    owner: string,
    fileId: string,
    blobKey: string,
    got: Received,
    opts: { instructions: string; destination: DestinationName; force: boolean; sourceUrl?: string },
  ): Promise<void> {
    const discard = () => blobs.delete(blobKey).catch(() => undefined);
    if (!opts.force) {
      const existing = await files.findBySha(owner, got.sha256);
      if (existing) {
        await discard();
        res.status(200).json({
          ...statusBody(existing),
          duplicate: true,
          message: `"${got.name}" was already uploaded as "${existing.name}"; it was not processed again`,
        });
        return;
      }
    }
    const file = await db
      .transaction(async (tx) => {
        const created = await files.insert(tx, {
          id: fileId,
          ownerId: owner,
          name: got.name,
          size: got.size,
          contentType: got.contentType,
          sniffedType: got.sniffedType,
          sha256: got.sha256,
          blobKey,
          destination: opts.destination,
          instructions: opts.instructions,
          sourceUrl: opts.sourceUrl ?? null,
        });
        await outbox.enqueue(tx, [fileUploadedEvent(created)]);
        return created;
      })
      .catch(async (err: unknown) => {
        await discard();
        throw err;
      });
    res.status(202).json({ ...statusBody(file), duplicate: false, message: 'File queued for processing' });
  }

  // POST /process: multipart (file, instructions, destination, force) or JSON {url, instructions?,
  // destination?, force?} fetched server-side. POST /upload: multipart `file`.
  router.post(['/process', '/upload'], auth, async (req, res) => {
    const owner = getUser(req).id;
    const fileId = randomUUID();
    const blobKey = `files/${owner}/${fileId}`;

    if (req.path === '/process' && req.is('application/json')) {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (typeof body !== 'object' || Array.isArray(body)) throw new InputError('Send a JSON object');
      const url = parseFetchUrl(body.url);
      const opts = readOptions(body);
      // A client that leaves mid-fetch stops the fetch (socket, agent, partial blob released).
      const gone = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished)
          gone.abort(new ClientAbortError('the client closed the connection during the fetch'));
      });
      const fetched = await fetchUrlIntoBlob(url, blobs, blobKey, deps.fetchOptions, gone.signal);
      await record(res, owner, fileId, blobKey, fetched, {
        instructions: opts.instructions ?? '',
        destination: opts.destination ?? 'auto',
        force: body.force === true || body.force === 'true' || req.query.force === 'true',
        sourceUrl: url.href,
      });
      return;
    }

    const upload = await receiveUpload(req, blobs, blobKey);
    let opts: ReturnType<typeof readOptions>;
    try {
      opts = readOptions(upload.fields);
    } catch (err) {
      await blobs.delete(blobKey).catch(() => undefined);
      throw err;
    }
    await record(res, owner, fileId, blobKey, upload, {
      instructions: opts.instructions ?? '',
      destination: opts.destination ?? 'auto',
      force: req.query.force === 'true' || upload.fields.force === 'true',
    });
  });

  router.get('/process/status/:id', auth, async (req, res) => {
    const file = await files.findForOwner(getUser(req).id, req.params.id as string);
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    res.json(statusBody(file));
  });

  router.post('/process/cancel/:id', auth, async (req, res) => {
    const outcome = await db.transaction(async (tx) => {
      const result = await files.cancel(tx, getUser(req).id, req.params.id as string);
      if (result?.cancelled) await outbox.enqueue(tx, [fileCancelledEvent(result.file)]);
      return result;
    });
    if (!outcome) throw new NotFoundError(FILE_NOT_FOUND);
    const file = outcome.file;
    res.json({
      ...statusBody(file),
      message: file.status === 'cancelled' ? 'Processing cancelled' : `File is already ${file.status}`,
    });
  });

  // Media Hub: the owner's files, newest first.
  router.get('/process/files', auth, async (req, res) => {
    const page = queryInt(req, 'page', 1, 1, 1_000_000);
    const limit = queryInt(req, 'limit', 20, 1, 100);
    const rawStatus = req.query.status;
    let status: FileStatus | undefined;
    if (rawStatus !== undefined && rawStatus !== '') {
      if (typeof rawStatus !== 'string' || !(FILE_STATUSES as readonly string[]).includes(rawStatus)) {
        throw new InputError(`status must be one of ${FILE_STATUSES.join(', ')}`);
      }
      status = rawStatus as FileStatus;
    }
    const { files: list, total } = await files.listForOwner(getUser(req).id, { page, limit, status });
    res.json({ files: list.map(statusBody), total });
  });

  // The original bytes, for previews (inline) and downloads (?download=1).
  router.get('/process/files/:id/content', auth, async (req, res) => {
    const file = await files.findForOwner(getUser(req).id, req.params.id as string);
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    const { body } = await blobs.get(file.blobKey).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new NotFoundError(FILE_NOT_FOUND);
      throw err;
    });
    const type = file.sniffedType ?? 'application/octet-stream';
    const download = req.query.download === '1' || req.query.download === 'true';
    const inline = !download && INLINE_TYPES.has(type);
    res.status(200).set({
      'Content-Type': type.startsWith('text/') ? `${type}; charset=utf-8` : type,
      'Content-Length': String(file.size),
      'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', file.name),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      ...(type.startsWith('image/') ? {} : { 'Content-Security-Policy': 'sandbox' }),
    });
    body.on('error', (err) => res.destroy(err));
    body.pipe(res);
  });

  // Delete: the record and the file.deleted event commit together; the blob goes after commit.
  router.delete('/process/files/:id', auth, async (req, res) => {
    const owner = getUser(req).id;
    const file = await db.transaction(async (tx) => {
      const deleted = await files.deleteForOwner(tx, owner, req.params.id as string);
      if (deleted) await outbox.enqueue(tx, [fileDeletedEvent(deleted)]);
      return deleted;
    });
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    await deps.deleteBlob(file.blobKey);
    res.json({ id: file.id, deleted: true });
  });

  // Reprocess an ended file as a new attempt (file.uploaded again).
  router.post('/process/files/:id/reprocess', auth, async (req, res) => {
    const owner = getUser(req).id;
    const body = req.is('application/json') ? ((req.body ?? {}) as Record<string, unknown>) : {};
    if (typeof body !== 'object' || Array.isArray(body)) throw new InputError('Send a JSON object');
    const opts = readOptions(body);
    const file = await db.transaction(async (tx) => {
      const requeued = await files.requeue(tx, owner, req.params.id as string, opts);
      if (requeued && requeued !== 'running') await outbox.enqueue(tx, [fileUploadedEvent(requeued)]);
      return requeued;
    });
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    if (file === 'running') throw new ConflictError(ALREADY_PROCESSING);
    res.status(202).json({ ...statusBody(file), message: 'File queued for processing' });
  });

  return router;
}
