// HTTP API of the ingestion service (spec §7): processing status and cancel. Every route is the
// signed-in owner's only; another user's file answers 404 exactly like a missing one.
import express from 'express';
import type { Router } from 'express';
import { getUser, NotFoundError, requireUser } from '@kaboodle/platform';
import type { TokenVerifier } from '@kaboodle/platform';
import type { FileRecord, FileRepository } from './file.repository.ts';

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

export function createIngestionRouter({
  files,
  verifier,
}: {
  files: FileRepository;
  verifier: TokenVerifier;
}): Router {
  const router = express.Router();
  const auth = requireUser(verifier);

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
