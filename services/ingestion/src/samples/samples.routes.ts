// The sample library's handlers: loading stores each sample file the user does not have yet exactly
// as an upload is stored (blob, record and file.uploaded in one transaction; marked sample), so the
// real pipeline reads, enriches and files them; removing deletes them like the Media Hub's Delete.
import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ApiRouter, BlobStore, Database } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import { fileDeletedEvent, fileUploadedEvent } from '../file-events.ts';
import type { FileRecord, FileRepository } from '../file.repository.ts';
import { sniffContentType } from '../file-rules.ts';
import { statusBody } from '../ingestion.routes.ts';
import { sampleFiles } from './sample-files.ts';
import { SAMPLE_LIBRARY } from './sample-library.ts';
import { getSamples, loadSamples, removeSamples } from './samples.api.ts';

export interface SampleRoutesDeps {
  db: Database;
  files: FileRepository;
  blobs: BlobStore;
  outbox: Outbox;
  deleteBlob(blobKey: string): Promise<void>;
}

export function registerSampleRoutes(api: ApiRouter, deps: SampleRoutesDeps): void {
  const { db, files, blobs, outbox } = deps;
  const available = SAMPLE_LIBRARY.length;

  api.handle(getSamples, async ({ user, reply }) => {
    reply(200, { loaded: (await files.listSamples(user.id)).length, available });
  });

  api.handle(loadSamples, async ({ user, reply }) => {
    const have = new Set((await files.listSamples(user.id)).map((f) => f.name));
    const queued: FileRecord[] = [];
    for (const sample of await sampleFiles()) {
      if (have.has(sample.name)) continue; // loading twice adds nothing
      const id = randomUUID();
      const blobKey = `files/${user.id}/${id}`;
      await blobs.put(blobKey, Readable.from([sample.bytes]), {
        size: sample.bytes.length,
        contentType: sample.contentType,
      });
      const created = await db
        .transaction(async (tx) => {
          const file = await files.insert(tx, {
            id,
            ownerId: user.id,
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
          await blobs.delete(blobKey).catch(() => undefined);
          throw err;
        });
      queued.push(created);
    }
    reply(202, { loaded: have.size + queued.length, available, files: queued.map(statusBody) });
  });

  api.handle(removeSamples, async ({ user, reply }) => {
    const removed = await db.transaction(async (tx) => {
      const gone = await files.deleteSamples(tx, user.id);
      if (gone.length) await outbox.enqueue(tx, gone.map(fileDeletedEvent));
      return gone;
    });
    for (const file of removed) await deps.deleteBlob(file.blobKey);
    reply(200, { deleted: removed.length });
  });
}
