// HTTP API of the ingestion service (docs/product.md#calls and the Media Hub): uploads and pasted URLs,
// status, cancel, the file list, the original bytes, delete and reprocess (and the sample library, samples/).
// Every route is the signed-in owner's only; another user's file answers 404 exactly like a missing one.
import type { Request, Response } from 'express';
import * as z from 'zod';
import { ClientAbortError, contentDisposition, createApiRouter, validateInput } from '@kaboodle/platform';
import type { ApiRouter, BlobStore, TokenVerifier } from '@kaboodle/platform';
import type { FileRecord, FileStatus } from './file.repository.ts';
import { parseFetchUrl } from './fetch-url.ts';
import { receiveUpload } from './receive-upload.ts';
import type { IngestionService, RecordOutcome } from './ingestion.service.ts';
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
export { ALREADY_PROCESSING, FILE_NOT_FOUND } from './ingestion.service.ts';

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
  service: IngestionService;
  /** Uploads stream straight into it (receiveUpload) before the service records them. */
  blobs: BlobStore;
  verifier: TokenVerifier;
}

/** 200 with the earlier copy for a duplicate, else 202 queued. */
function answerRecorded(res: Response, outcome: RecordOutcome): void {
  if (outcome.duplicate) {
    const { file, name } = outcome;
    res.status(200).json({
      ...statusBody(file),
      duplicate: true,
      message: `"${name}" was already uploaded as "${file.name}"; it was not processed again`,
    });
    return;
  }
  res
    .status(202)
    .json({ ...statusBody(outcome.file), duplicate: false, message: 'File queued for processing' });
}

export function createIngestionRouter(deps: IngestionRouterDeps): ApiRouter {
  const { service, blobs, verifier } = deps;
  const api = createApiRouter({ verifier });
  // Before /process/files/{id}…: a fixed path, so it is never read as an id.
  registerSampleRoutes(api, service);

  /** A multipart upload (POST /process and /upload): streamed into the blob store, then recorded. */
  async function receiveAndRecord(req: Request, res: Response, owner: string, forceQuery: boolean) {
    const { fileId, blobKey } = service.newFile(owner);
    const upload = await receiveUpload(req, blobs, blobKey);
    let fields: z.output<typeof uploadFields>;
    try {
      fields = validateInput(uploadFields, upload.fields, 'body');
    } catch (err) {
      await service.discard(blobKey);
      throw err;
    }
    const outcome = await service.record(
      owner,
      { ...upload, fileId, blobKey },
      {
        instructions: fields.instructions ?? '',
        destination: fields.destination ?? 'auto',
        force: forceQuery || fields.force === 'true',
      },
    );
    answerRecorded(res, outcome);
  }

  // POST /process: multipart (file, instructions, destination, force) or JSON {url, instructions?,
  // destination?, force?} fetched server-side.
  api.handle(processFile, async ({ req, res, query, body, user }) => {
    if (!body) {
      await receiveAndRecord(req, res, user.id, query.force === true);
      return;
    }
    const url = parseFetchUrl(body.url);
    // A client that leaves mid-fetch stops the fetch (socket, agent, partial blob released).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished)
        gone.abort(new ClientAbortError('the client closed the connection during the fetch'));
    });
    const outcome = await service.fetchAndRecord(
      user.id,
      url,
      {
        instructions: body.instructions ?? '',
        destination: body.destination ?? 'auto',
        force: body.force === true || query.force === true,
      },
      gone.signal,
    );
    answerRecorded(res, outcome);
  });

  api.handle(uploadFile, async ({ req, res, query, user }) => {
    await receiveAndRecord(req, res, user.id, query.force === true);
  });

  api.handle(getFileStatus, async ({ params, user, reply }) => {
    reply(200, statusBody(await service.get(user.id, params.id)));
  });

  api.handle(cancelFile, async ({ params, user, reply }) => {
    const { file } = await service.cancel(user.id, params.id);
    reply(200, {
      ...statusBody(file),
      message: file.status === 'cancelled' ? 'Processing cancelled' : `File is already ${file.status}`,
    });
  });

  // Media Hub: the owner's files, newest first.
  api.handle(listFiles, async ({ query, user, reply }) => {
    const { files: list, total } = await service.list(user.id, {
      page: query.page,
      limit: query.limit,
      status: query.status as FileStatus | undefined,
    });
    reply(200, { files: list.map(statusBody), total });
  });

  // The original bytes, for previews (inline) and downloads (?download=1).
  api.handle(getFileContent, async ({ params, query, res, user }) => {
    const { file, body } = await service.content(user.id, params.id);
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
    const file = await service.delete(user.id, params.id);
    reply(200, { id: file.id, deleted: true });
  });

  // Reprocess an ended file as a new attempt (file.uploaded again).
  api.handle(reprocessFile, async ({ params, body, user, reply }) => {
    const file = await service.reprocess(user.id, params.id, {
      instructions: body?.instructions,
      destination: body?.destination,
    });
    reply(202, { ...statusBody(file), message: 'File queued for processing' });
  });

  return api;
}
