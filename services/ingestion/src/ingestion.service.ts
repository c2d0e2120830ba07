// What ingestion does with files, apart from HTTP: record a stored upload or fetched URL and announce
// it (one transaction with its outbox event), cancel, delete, reprocess, and load or remove the sample
// library. Every call is the owner's only: another user's file is NotFoundError like a missing one.
// The routes parse the request and answer; the transactions and outbox calls live here.
import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ConflictError, NotFoundError } from '@kaboodle/platform';
import type { BlobStore, Database, Logger, Outbox } from '@kaboodle/platform';
import { fileCancelledEvent, fileDeletedEvent, fileUploadedEvent } from './file-events.ts';
import type { DestinationName, FileRecord, FileRepository, FileStatus } from './file.repository.ts';
import { sniffContentType } from './file-rules.ts';
import { fetchUrlIntoBlob } from './fetch-url.ts';
import type { FetchUrlOptions } from './fetch-url.ts';
import { sampleFiles } from './samples/sample-files.ts';

export const FILE_NOT_FOUND = 'File not found';
export const ALREADY_PROCESSING = 'File is already being processed';

export interface IngestionServiceDeps {
  db: Database;
  files: FileRepository;
  blobs: BlobStore;
  outbox: Outbox;
  logger: Logger;
  fetchOptions: FetchUrlOptions;
}

/** A file whose bytes are in the blob store under blobKey, as the upload or the fetch measured them. */
export interface StoredFile {
  fileId: string;
  blobKey: string;
  name: string;
  size: number;
  contentType: string;
  sniffedType: string;
  sha256: string;
}

export interface RecordOptions {
  instructions: string;
  destination: DestinationName;
  /** Process again even when the owner already has these bytes. */
  force: boolean;
  sourceUrl?: string;
}

/** Recorded and queued, or (without force) the owner's earlier copy of the same bytes. */
export type RecordOutcome =
  { duplicate: false; file: FileRecord } | { duplicate: true; file: FileRecord; name: string };

export type IngestionService = ReturnType<typeof createIngestionService>;

export function createIngestionService(deps: IngestionServiceDeps) {
  const { db, files, blobs, outbox, logger } = deps;

  const discard = (blobKey: string) => blobs.delete(blobKey).catch(() => undefined);
  const found = <T>(value: T | null | undefined): T => {
    if (value === null || value === undefined) throw new NotFoundError(FILE_NOT_FOUND);
    return value;
  };

  /** Delete a removed file's blob now; when that fails the sweep retries (blob_deletions keeps it). */
  async function deleteBlob(blobKey: string): Promise<void> {
    try {
      await blobs.delete(blobKey);
      await files.blobDeleted(blobKey);
    } catch (err) {
      logger.warn({ err, blobKey }, 'deleting a removed file’s blob failed; the sweep will retry');
      await files.blobDeleteFailed(blobKey, (err as Error)?.message ?? String(err)).catch(() => undefined);
    }
  }

  /** Record a stored file and announce it (one transaction), or report the owner's earlier copy. */
  async function record(owner: string, got: StoredFile, opts: RecordOptions): Promise<RecordOutcome> {
    if (!opts.force) {
      const existing = await files.findBySha(owner, got.sha256);
      if (existing) {
        await discard(got.blobKey);
        return { duplicate: true, file: existing, name: got.name };
      }
    }
    // A failed upload of the same bytes is not a duplicate: this one replaces it (a retry).
    let replaced: FileRecord[] = [];
    const file = await db
      .transaction(async (tx) => {
        replaced = await files.deleteFailedCopies(tx, owner, got.sha256);
        if (replaced.length) await outbox.enqueue(tx, replaced.map(fileDeletedEvent));
        const created = await files.insert(tx, {
          id: got.fileId,
          ownerId: owner,
          name: got.name,
          size: got.size,
          contentType: got.contentType,
          sniffedType: got.sniffedType,
          sha256: got.sha256,
          blobKey: got.blobKey,
          destination: opts.destination,
          instructions: opts.instructions,
          sourceUrl: opts.sourceUrl ?? null,
        });
        await outbox.enqueue(tx, [fileUploadedEvent(created)]);
        return created;
      })
      .catch(async (err: unknown) => {
        await discard(got.blobKey);
        throw err;
      });
    for (const old of replaced) await deleteBlob(old.blobKey);
    return { duplicate: false, file };
  }

  return {
    deleteBlob,
    record,
    /** Release the blob of an upload that will not be recorded (its form fields were refused). */
    discard,

    /** Where a new file of the owner's goes: its id and blob key. */
    newFile(owner: string): { fileId: string; blobKey: string } {
      const fileId = randomUUID();
      return { fileId, blobKey: `files/${owner}/${fileId}` };
    },

    /** Fetch a pasted URL into the blob store and record it; `gone` stops the fetch (client left). */
    async fetchAndRecord(
      owner: string,
      url: URL,
      opts: Omit<RecordOptions, 'sourceUrl'>,
      gone?: AbortSignal,
    ): Promise<RecordOutcome> {
      const fileId = randomUUID();
      const blobKey = `files/${owner}/${fileId}`;
      const fetched = await fetchUrlIntoBlob(url, blobs, blobKey, deps.fetchOptions, gone);
      return record(owner, { ...fetched, fileId, blobKey }, { ...opts, sourceUrl: url.href });
    },

    async get(owner: string, id: string): Promise<FileRecord> {
      return found(await files.findForOwner(owner, id));
    },

    list(owner: string, opts: { page: number; limit: number; status?: FileStatus | undefined }) {
      return files.listForOwner(owner, {
        page: opts.page,
        limit: opts.limit,
        ...(opts.status && { status: opts.status }),
      });
    },

    /** The file and a stream of its original bytes. */
    async content(owner: string, id: string) {
      const file = found(await files.findForOwner(owner, id));
      const { body } = await blobs.get(file.blobKey).catch((err: unknown) => {
        if (err instanceof NotFoundError) throw new NotFoundError(FILE_NOT_FOUND);
        throw err;
      });
      return { file, body };
    },

    /** Cancel queued or running work; `cancelled` says whether this call did (else the file as it is). */
    async cancel(owner: string, id: string): Promise<{ file: FileRecord; cancelled: boolean }> {
      const outcome = await db.transaction(async (tx) => {
        const result = await files.cancel(tx, owner, id);
        if (result?.cancelled) await outbox.enqueue(tx, [fileCancelledEvent(result.file)]);
        return result;
      });
      return found(outcome);
    },

    /** The record and the file.deleted event commit together; the blob goes after commit. */
    async delete(owner: string, id: string): Promise<FileRecord> {
      const file = found(
        await db.transaction(async (tx) => {
          const deleted = await files.deleteForOwner(tx, owner, id);
          if (deleted) await outbox.enqueue(tx, [fileDeletedEvent(deleted)]);
          return deleted;
        }),
      );
      await deleteBlob(file.blobKey);
      return file;
    },

    /** An ended file as a new attempt (file.uploaded again); ConflictError while it still runs. */
    async reprocess(
      owner: string,
      id: string,
      change: { instructions?: string | undefined; destination?: DestinationName | undefined },
    ): Promise<FileRecord> {
      const opts = {
        ...(change.instructions !== undefined && { instructions: change.instructions }),
        ...(change.destination !== undefined && { destination: change.destination }),
      };
      const file = found(
        await db.transaction(async (tx) => {
          const requeued = await files.requeue(tx, owner, id, opts);
          if (requeued && requeued !== 'running') await outbox.enqueue(tx, [fileUploadedEvent(requeued)]);
          return requeued;
        }),
      );
      if (file === 'running') throw new ConflictError(ALREADY_PROCESSING);
      return file;
    },

    async samplesLoaded(owner: string): Promise<number> {
      return (await files.listSamples(owner)).length;
    },

    /**
     * Store each sample the owner does not have yet exactly as an upload is stored (blob, then record
     * and file.uploaded in one transaction; marked sample). Loading twice adds nothing.
     */
    async loadSamples(owner: string): Promise<{ loaded: number; queued: FileRecord[] }> {
      const have = new Set((await files.listSamples(owner)).map((f) => f.name));
      const queued: FileRecord[] = [];
      for (const sample of await sampleFiles()) {
        if (have.has(sample.name)) continue;
        const id = randomUUID();
        const blobKey = `files/${owner}/${id}`;
        await blobs.put(blobKey, Readable.from([sample.bytes]), {
          size: sample.bytes.length,
          contentType: sample.contentType,
        });
        const created = await db
          .transaction(async (tx) => {
            const file = await files.insert(tx, {
              id,
              ownerId: owner,
              name: sample.name,
              size: sample.bytes.length,
              contentType: sample.contentType,
              sniffedType: sniffContentType(sample.bytes.subarray(0, 4096), sample.contentType),
              sha256: createHash('sha256').update(sample.bytes).digest('hex'),
              blobKey,
              destination: sample.destination,
              instructions: '',
              sample: true,
            });
            await outbox.enqueue(tx, [fileUploadedEvent(file)]);
            return file;
          })
          .catch(async (err: unknown) => {
            await discard(blobKey);
            throw err;
          });
        queued.push(created);
      }
      return { loaded: have.size + queued.length, queued };
    },

    /** Delete the owner's sample files like the Media Hub's Delete; how many went. */
    async removeSamples(owner: string): Promise<number> {
      const removed = await db.transaction(async (tx) => {
        const gone = await files.deleteSamples(tx, owner);
        if (gone.length) await outbox.enqueue(tx, gone.map(fileDeletedEvent));
        return gone;
      });
      for (const file of removed) await deleteBlob(file.blobKey);
      return removed.length;
    },
  };
}
