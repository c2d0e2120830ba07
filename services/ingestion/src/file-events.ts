// The events ingestion publishes (through its outbox), built from the file record so an upload, a
// reprocess and a stale re-dispatch announce a file exactly the same way.
import type { OutgoingEvent } from '@kaboodle/platform';
import {
  createEvent,
  Destination,
  encodeEvent,
  eventKey,
  FileState,
  ProcessingStage,
  Topics,
} from '@kaboodle/proto';
import type { DestinationName, FileRecord } from './file.repository.ts';

export const DESTINATIONS: Record<DestinationName, Destination> = {
  auto: Destination.AUTO,
  document: Destination.DOCUMENT,
  inventory: Destination.INVENTORY,
};

/** kaboodle.file.uploaded.v1 for the file's current attempt. */
export function fileUploadedEvent(file: FileRecord): OutgoingEvent {
  const event = createEvent(Topics.fileUploaded, {
    ownerId: file.ownerId,
    file: {
      ownerId: file.ownerId,
      fileId: file.id,
      blobKey: file.blobKey,
      contentType: file.contentType,
      fileName: file.name,
      sizeBytes: BigInt(file.size),
      sha256: file.sha256,
      sample: file.sample,
    },
    instructions: file.instructions,
    destination: DESTINATIONS[file.destination] ?? Destination.AUTO,
    sourceUrl: file.sourceUrl ?? '',
    attempt: file.attempt,
  });
  return {
    topic: Topics.fileUploaded,
    key: eventKey(Topics.fileUploaded, event),
    value: encodeEvent(Topics.fileUploaded, event),
  };
}

/** kaboodle.file.deleted.v1: the catalogue deletes whatever the file produced. */
export function fileDeletedEvent(file: FileRecord): OutgoingEvent {
  const event = createEvent(Topics.fileDeleted, { ownerId: file.ownerId, fileId: file.id });
  return {
    topic: Topics.fileDeleted,
    key: eventKey(Topics.fileDeleted, event),
    value: encodeEvent(Topics.fileDeleted, event),
  };
}

/**
 * The user cancelled the file's current attempt: the catalogue then drops that attempt's result
 * (whether it arrives later or already arrived), so a cancelled file never shows up in the library.
 */
export function fileCancelledEvent(file: FileRecord): OutgoingEvent {
  const event = createEvent(Topics.fileStatus, {
    ownerId: file.ownerId,
    fileId: file.id,
    status: FileState.CANCELLED,
    stage: ProcessingStage.DONE,
    progress: file.progress,
    attempt: file.attempt,
  });
  return {
    topic: Topics.fileStatus,
    key: eventKey(Topics.fileStatus, event),
    value: encodeEvent(Topics.fileStatus, event),
  };
}
