// HTTP API of the ingestion service (spec §7): processing status and cancel. Every route is the
// signed-in owner's only; another user's file answers 404 exactly like a missing one.
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { Router } from 'express';
import { getUser, InputError, NotFoundError, requireUser } from '@kaboodle/platform';
import type { BlobStore, Database, TokenVerifier } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform/outbox/index.ts';
import { createEvent, Destination, encodeEvent, eventKey, Topics } from '@kaboodle/proto';
import type { FileRecord, FileRepository } from './file.repository.ts';
import { receiveUpload } from './receive-upload.ts';

const DESTINATIONS: Record<string, Destination> = {
  auto: Destination.AUTO,
  document: Destination.DOCUMENT,
  inventory: Destination.INVENTORY,
};
export const MAX_INSTRUCTIONS = 2000;

export const FILE_NOT_FOUND = 'File not found';

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
  };
}

export interface IngestionRouterDeps {
  db: Database;
  files: FileRepository;
  blobs: BlobStore;
  outbox: Outbox;
  verifier: TokenVerifier;
}

export function createIngestionRouter({ db, files, blobs, outbox, verifier }: IngestionRouterDeps): Router {
  const router = express.Router();
  const auth = requireUser(verifier);

  // POST /process (multipart: file, optional instructions, destination auto|document|inventory) and
  // POST /upload (multipart: file): stored, recorded and announced as file.uploaded in one transaction.
  router.post(['/process', '/upload'], auth, async (req, res) => {
    const owner = getUser(req).id;
    const fileId = randomUUID();
    const blobKey = `files/${owner}/${fileId}`;
    const upload = await receiveUpload(req, blobs, blobKey);
    const discard = () => blobs.delete(blobKey).catch(() => undefined);

    const instructions = (upload.fields.instructions ?? '').trim();
    const destination = (upload.fields.destination ?? 'auto').trim().toLowerCase() || 'auto';
    if (instructions.length > MAX_INSTRUCTIONS || !(destination in DESTINATIONS)) {
      await discard();
      throw new InputError(
        instructions.length > MAX_INSTRUCTIONS
          ? `AI instructions are limited to ${MAX_INSTRUCTIONS} characters`
          : `Unknown destination "${destination}": choose auto, document or inventory`,
      );
    }
    const force = req.query.force === 'true' || upload.fields.force === 'true';
    if (!force) {
      const existing = await files.findBySha(owner, upload.sha256);
      if (existing) {
        await discard();
        res.status(200).json({
          ...statusBody(existing),
          duplicate: true,
          message: `"${upload.name}" was already uploaded as "${existing.name}"; it was not processed again`,
        });
        return;
      }
    }

    const file = await db
      .transaction(async (tx) => {
        const record = await files.insert(tx, {
          id: fileId,
          ownerId: owner,
          name: upload.name,
          size: upload.size,
          contentType: upload.contentType,
          sha256: upload.sha256,
          blobKey,
        });
        const event = createEvent(Topics.fileUploaded, {
          ownerId: owner,
          file: {
            ownerId: owner,
            fileId,
            blobKey,
            contentType: upload.contentType,
            fileName: upload.name,
            sizeBytes: BigInt(upload.size),
            sha256: upload.sha256,
          },
          instructions,
          destination: DESTINATIONS[destination],
          attempt: 1,
        });
        await outbox.enqueue(tx, [
          {
            topic: Topics.fileUploaded,
            key: eventKey(Topics.fileUploaded, event),
            value: encodeEvent(Topics.fileUploaded, event),
          },
        ]);
        return record;
      })
      .catch(async (err: unknown) => {
        await discard();
        throw err;
      });
    res.status(202).json({ ...statusBody(file), duplicate: false, message: 'File queued for processing' });
  });

  router.get('/process/status/:id', auth, async (req, res) => {
    const file = await files.findForOwner(getUser(req).id, req.params.id as string);
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    res.json(statusBody(file));
  });

  router.post('/process/cancel/:id', auth, async (req, res) => {
    const file = await files.cancel(getUser(req).id, req.params.id as string);
    if (!file) throw new NotFoundError(FILE_NOT_FOUND);
    res.json({
      ...statusBody(file),
      message: file.status === 'cancelled' ? 'Processing cancelled' : `File is already ${file.status}`,
    });
  });

  return router;
}
