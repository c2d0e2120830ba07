// HTTP API of the ingestion service (docs/product.md#calls and the Media Hub): uploads and pasted URLs,
// status, cancel, the file list, the original bytes, delete and reprocess (and the sample library, samples/).
// Every route is the signed-in owner's only; another user's file answers 404 exactly like a missing one.
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import * as z from 'zod';
import {
  ClientAbortError,
  ConflictError,
  contentDisposition,
  createApiRouter,
  NotFoundError,
  validateInput,
} from '@kaboodle/platform';
import type { ApiRouter, BlobStore, Database, Logger, TokenVerifier } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import { fileCancelledEvent, fileDeletedEvent, fileUploadedEvent } from './file-events.ts';
import type { DestinationName, FileRecord, FileRepository, FileStatus } from './file.repository.ts';
import { fetchUrlIntoBlob, parseFetchUrl } from './fetch-url.ts';
import type { FetchUrlOptions } from './fetch-url.ts';
import { receiveUpload } from './receive-upload.ts';
import { registerSampleRoutes } from './samples/samples.routes.ts';
import {
  cancelFile,
  deleteFile,
  destinationField,
  getFileContent,
  getFileStatus,
  instructionsField,
  listFiles,
  processFile,
  reprocessFile,
  uploadFile,
} from './ingestion.api.ts';

export { MAX_INSTRUCTIONS } from './ingestion.api.ts';
export const FILE_NOT_FOUND = 'File not found';
export const ALREADY_PROCESSING = 'File is already being processed';

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
    sample: file.sample,
  };
}

/** The form fields of a multipart upload, checked with the same rules as the JSON body. */
const uploadFields = z.object({
  instructions: instructionsField.optional(),
  destination: destinationField.optional(),
  force: z.string().optional(),
});

/** Served inline (previews) only for types a browser shows safely; everything else downloads. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'application/pdf', 'text/plain']);

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

export function createIngestionRouter(deps: IngestionRouterDeps): ApiRouter {
  const { db, files, blobs, outbox, verifier } = deps;
  const api = createApiRouter({ verifier });
  // Before /process/files/{id}…: a fixed path, so it is never read as an id.
  registerSampleRoutes(api, deps);

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
    // A failed upload of the same bytes is not a duplicate: this one replaces it (a retry).
    let replaced: FileRecord[] = [];
    const file = await db
      .transaction(async (tx) => {
        replaced = await files.deleteFailedCopies(tx, owner, got.sha256);
        if (replaced.length) await outbox.enqueue(tx, replaced.map(fileDeletedEvent));
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
    for (const old of replaced) await deps.deleteBlob(old.blobKey);
    res.status(202).json({ ...statusBody(file), duplicate: false, message: 'File queued for processing' });
  }

  /** A multipart upload (POST /process and /upload): streamed into the blob store, then recorded. */
  async function receiveAndRecord(req: Request, res: Response, owner: string, forceQuery: boolean) {
    const fileId = randomUUID();
    const blobKey = `files/${owner}/${fileId}`;
    const upload = await receiveUpload(req, blobs, blobKey);
    let fields: z.output<typeof uploadFields>;
    try {
      fields = validateInput(uploadFields, upload.fields, 'body');
    } catch (err) {
      await blobs.delete(blobKey).catch(() => undefined);
      throw err;
    }
    await record(res, owner, fileId, blobKey, upload, {
      instructions: fields.instructions ?? '',
      destination: fields.destination ?? 'auto',
      force: forceQuery || fields.force === 'true',
    });
  }

  // POST /process: multipart (file, instructions, destination, force) or JSON {url, instructions?,
  // destination?, force?} fetched server-side.
  api.handle(processFile, async ({ req, res, query, body, user }) => {
    if (!body) {
      await receiveAndRecord(req, res, user.id, query.force === true);
      return;
    }
    const fileId = randomUUID();
    const blobKey = `files/${user.id}/${fileId}`;
    const url = parseFetchUrl(body.url);
    // A client that leaves mid-fetch stops the fetch (socket, agent, partial blob released).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished)
        gone.abort(new ClientAbortError('the client closed the connection during the fetch'));
    });
    const fetched = await fetchUrlIntoBlob(url, blobs, blobKey, deps.fetchOptions, gone.signal);
    await record(res, user.id, fileId, blobKey, fetched, {
      instructions: body.instructions ?? '',
      destination: body.destination ?? 'auto',
      force: body.force === true || query.force === true,
      sourceUrl: url.href,
    });
  });

  api.handle(uploadFile, async ({ req, res, query, user }) => {
    await receiveAndRecord(req, res, user.id, query.force === true);
  });

  api.handle(getFileStatus, async ({ params, user, reply }) => {
    const file = await files.findForOwner(user.id, params.id);
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    reply(200, statusBody(file));
  });

  api.handle(cancelFile, async ({ params, user, reply }) => {
    const outcome = await db.transaction(async (tx) => {
      const result = await files.cancel(tx, user.id, params.id);
      if (result?.cancelled) await outbox.enqueue(tx, [fileCancelledEvent(result.file)]);
      return result;
    });
    if (!outcome) throw new NotFoundError(FILE_NOT_FOUND);
    const file = outcome.file;
    reply(200, {
      ...statusBody(file),
      message: file.status === 'cancelled' ? 'Processing cancelled' : `File is already ${file.status}`,
    });
  });

  // Media Hub: the owner's files, newest first.
  api.handle(listFiles, async ({ query, user, reply }) => {
    const { files: list, total } = await files.listForOwner(user.id, {
      page: query.page,
      limit: query.limit,
      status: query.status as FileStatus | undefined,
    });
    reply(200, { files: list.map(statusBody), total });
  });

  // The original bytes, for previews (inline) and downloads (?download=1).
  api.handle(getFileContent, async ({ params, query, res, user }) => {
    const file = await files.findForOwner(user.id, params.id);
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    const { body } = await blobs.get(file.blobKey).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new NotFoundError(FILE_NOT_FOUND);
      throw err;
    });
    const type = file.sniffedType ?? 'application/octet-stream';
    const download = query.download === '1' || query.download === 'true';
    const inline = !download && INLINE_TYPES.has(type);
    res.status(200).set({
      'Content-Type': type.startsWith('text/') ? `${type}; charset=utf-8` : type,
      'Content-Length': String(file.size),
      'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', file.name),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      ...(type.startsWith('image/') ? {} : { 'Content-Security-Policy': 'sandbox' }),
    });
    // A reader that fails mid-file ends the response; a client that leaves closes the reader.
    body.on('error', (err) => res.destroy(err));
    res.once('close', () => body.destroy());
    body.pipe(res);
  });

  // Delete: the record and the file.deleted event commit together; the blob goes after commit.
  api.handle(deleteFile, async ({ params, user, reply }) => {
    const file = await db.transaction(async (tx) => {
      const deleted = await files.deleteForOwner(tx, user.id, params.id);
      if (deleted) await outbox.enqueue(tx, [fileDeletedEvent(deleted)]);
      return deleted;
    });
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    await deps.deleteBlob(file.blobKey);
    reply(200, { id: file.id, deleted: true });
  });

  // Reprocess an ended file as a new attempt (file.uploaded again).
  api.handle(reprocessFile, async ({ params, body, user, reply }) => {
    const opts = { instructions: body?.instructions, destination: body?.destination };
    const file = await db.transaction(async (tx) => {
      const requeued = await files.requeue(tx, user.id, params.id, opts);
      if (requeued && requeued !== 'running') await outbox.enqueue(tx, [fileUploadedEvent(requeued)]);
      return requeued;
    });
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    if (file === 'running') throw new ConflictError(ALREADY_PROCESSING);
    reply(202, { ...statusBody(file), message: 'File queued for processing' });
  });

  return api;
}
