// Builders for the unit tests: file.processed / file.uploaded / file.status / file.deleted events as
// processing and ingestion send them, and a catalogue wired on PGlite and the in-process bus.
import { randomUUID } from 'node:crypto';
import { createMemoryEventBus } from '@kaboodle/platform';
import { createPgliteDatabase } from '@kaboodle/platform';
import { createOutbox } from '@kaboodle/platform';
import type { Database, EventBus, IncomingEvent } from '@kaboodle/platform';
import {
  createEvent,
  encodeEvent,
  FileState,
  ProcessingStage,
  ProvenanceSource,
  Topics,
} from '@kaboodle/proto';
import type { EventInit, TopicName } from '@kaboodle/proto';
import { createActivityRepository } from './activity.repository.ts';
import { createCatalogueReader } from './catalogue-reader.ts';
import { createCatalogueService } from './catalogue.service.ts';
import { createDocumentRepository } from './document.repository.ts';
import { createInventoryRepository } from './inventory.repository.ts';
import { createInsightsRepository } from './insights.repository.ts';
import { createKaboodleRepository } from './kaboodle.repository.ts';
import { createKaboodleService } from './kaboodle.service.ts';
import type { LibrarySearchHandle } from './library-search.port.ts';
import { migrations } from './migrations.ts';

export function fileRef(
  ownerId: string,
  fileId = randomUUID(),
  name = 'paper.pdf',
  contentType = 'application/pdf',
) {
  return {
    ownerId,
    fileId,
    blobKey: `files/${ownerId}/${fileId}`,
    contentType,
    fileName: name,
    sizeBytes: 1234n,
    sha256: 'ab'.repeat(32),
  };
}

export function documentAnalysis(over: Partial<{ title: string; category: string; year: number }> = {}) {
  return {
    title: over.title ?? 'On Glass Beads',
    author: 'Ines Duarte',
    category: over.category ?? 'History',
    field: 'Material culture',
    publicationYear: over.year ?? 2024,
    summary: 'A ledger of beads traded.',
    thesis: 'Beads were money.',
    issue: 'Vol. 3',
    journalPublisher: 'Cooperative Press',
    influencedBy: ['Braudel'],
    hashtags: [
      { tag: 'beads', relevancy: 0.9 },
      { tag: 'trade', relevancy: 0.5 },
    ],
    provenance: {
      title: { confidence: 0.8, source: ProvenanceSource.FILE_METADATA, method: 'unpdf', evidence: '' },
    },
    text: { text: 'Full text of the ledger.', pageCount: 2, language: 'en' },
    embedding: { values: [0.1, 0.2, 0.3], provider: 'local', model: 'use-lite', dimensions: 3 },
    passages: [{ text: 'Full text', start: 0, end: 9, vector: [0.1, 0.2, 0.3] }],
  };
}

export function inventoryAnalysis(name = 'Blue bowl') {
  return {
    name,
    description: 'A hand-thrown bowl',
    category: 'Bowls',
    material: 'ceramic',
    colors: [{ name: 'blue', hex: '#0000ff', share: 0.7 }],
    dimensions: { text: '20 x 8 cm' },
    objects: [{ label: 'bowl', score: 0.91 }],
    hashtags: [{ tag: 'bowl', relevancy: 1 }],
    embedding: { values: [0.3, 0.2, 0.1], provider: 'local', model: 'use-lite', dimensions: 3 },
  };
}

let seq = 0;
export function incoming<T extends TopicName>(topic: T, init: EventInit<T>, attempt = 1): IncomingEvent {
  const event = createEvent(topic, init);
  return {
    topic,
    key: 'k',
    value: encodeEvent(topic, event),
    headers: {},
    id: (event as { eventId: string }).eventId || `e${++seq}`,
    attempt,
  };
}

export const processed = (
  ownerId: string,
  file: ReturnType<typeof fileRef>,
  attempt: number,
  result: EventInit<typeof Topics.fileProcessed>['result'],
  eventId?: string,
) => incoming(Topics.fileProcessed, { ownerId, file, attempt, result, ...(eventId ? { eventId } : {}) });

export const uploaded = (ownerId: string, file: ReturnType<typeof fileRef>, attempt = 1) =>
  incoming(Topics.fileUploaded, { ownerId, file, attempt });

export const failed = (ownerId: string, fileId: string, attempt = 1, error = 'Unsupported file') =>
  incoming(Topics.fileStatus, {
    ownerId,
    fileId,
    attempt,
    status: FileState.FAILED,
    stage: ProcessingStage.DONE,
    progress: 100,
    error,
  });

export const cancelled = (ownerId: string, fileId: string, attempt = 1) =>
  incoming(Topics.fileStatus, {
    ownerId,
    fileId,
    attempt,
    status: FileState.CANCELLED,
    stage: ProcessingStage.DONE,
    progress: 10,
  });

export const deleted = (ownerId: string, fileId: string) => incoming(Topics.fileDeleted, { ownerId, fileId });

export interface Harness {
  db: Database;
  bus: EventBus;
  documents: ReturnType<typeof createDocumentRepository>;
  inventory: ReturnType<typeof createInventoryRepository>;
  activity: ReturnType<typeof createActivityRepository>;
  service: ReturnType<typeof createCatalogueService>;
  reader: ReturnType<typeof createCatalogueReader>;
  outbox: ReturnType<typeof createOutbox>;
  kaboodleRows: ReturnType<typeof createKaboodleRepository>;
  kaboodles: ReturnType<typeof createKaboodleService>;
  insights: ReturnType<typeof createInsightsRepository>;
  close(): Promise<void>;
}

export async function createHarness(search: LibrarySearchHandle = () => undefined): Promise<Harness> {
  const db = createPgliteDatabase({ dataDir: `memory://catalogue-${randomUUID()}`, schema: 'catalogue' });
  const bus = createMemoryEventBus();
  const outbox = createOutbox({ db, bus });
  await db.migrate([...migrations, ...outbox.migrations]);
  const documents = createDocumentRepository(db);
  const inventory = createInventoryRepository(db);
  const activity = createActivityRepository(db);
  const kaboodleRows = createKaboodleRepository(db);
  const kaboodles = createKaboodleService({ db, kaboodles: kaboodleRows, activity, outbox, search });
  const service = createCatalogueService({
    db,
    documents,
    inventory,
    activity,
    outbox,
    onEntityDeleted: (tx, ownerId, ref) => kaboodles.entityRemoved(tx, ownerId, ref),
  });
  const reader = createCatalogueReader({ db, documents, inventory, kaboodles: kaboodleRows });
  return {
    kaboodleRows,
    kaboodles,
    insights: createInsightsRepository(db),
    db,
    bus,
    documents,
    inventory,
    activity,
    service,
    reader,
    outbox,
    async close() {
      await outbox.stop();
      await bus.close();
      await db.close();
    },
  };
}

/** The events waiting in the outbox, decoded by topic (what the relay will publish). */
export async function pendingEvents(
  db: Database,
): Promise<{ topic: string; key: string; value: Uint8Array }[]> {
  const { rows } = await db.query<{ topic: string; key: string; value: Uint8Array }>(
    'SELECT topic, key, value FROM outbox WHERE published_at IS NULL ORDER BY id',
  );
  return rows;
}
