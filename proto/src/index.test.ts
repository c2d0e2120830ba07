import { describe, expect, it } from 'vitest';
import {
  AnalyzeResponseSchema,
  CatalogueService,
  ChangeOp,
  create,
  createEvent,
  decodeEvent,
  Destination,
  encodeEvent,
  EntityType,
  equals,
  eventKey,
  eventSchemas,
  FileState,
  fromBinary,
  fromJsonString,
  HealthCheckResponse_ServingStatus,
  isTopicName,
  moneyFromNumber,
  moneyToNumber,
  ProcessingService,
  ProcessingStage,
  ProvenanceSource,
  TextExtractionMethod,
  timestampDate,
  toBinary,
  toJsonString,
  Topics,
} from './index.ts';
import type { DocumentAnalysis, InventoryAnalysis } from './index.ts';

const file = {
  ownerId: 'user-1',
  fileId: 'file-1',
  blobKey: 'user-1/file-1',
  contentType: 'application/pdf',
  fileName: 'paper.pdf',
  sizeBytes: 20n * 1024n * 1024n,
  sha256: 'ab'.repeat(32),
};

function documentAnalysis(): DocumentAnalysis {
  return create(eventSchemas[Topics.fileProcessed].field.document!.message!, {
    title: 'On Clockwork',
    author: 'A. Tick',
    category: 'Research',
    field: 'Horology',
    publicationYear: 1931,
    summary: 'Gears, pendulums and escapements.',
    thesis: 'Precision comes from the escapement.',
    issue: '4',
    journalPublisher: 'Art Deco Press',
    influencedBy: ['Huygens', 'Harrison'],
    hashtags: [
      { tag: 'clockwork', relevancy: 0.92 },
      { tag: 'pendulum', relevancy: 0.4 },
    ],
    provenance: {
      title: {
        confidence: 0.9,
        source: ProvenanceSource.FILE_METADATA,
        method: 'unpdf',
        evidence: 'Title: On Clockwork',
      },
      publication_year: { confidence: 0.6, source: ProvenanceSource.TEXT_ANALYSIS, method: 'wink-nlp dates' },
    },
    text: { text: 'Full text…', method: TextExtractionMethod.PDF, pageCount: 12, language: 'en' },
    embedding: { values: [0.25, -0.5, 0.125], provider: 'local', model: 'use-lite', dimensions: 3 },
  }) as DocumentAnalysis;
}

function inventoryAnalysis(): InventoryAnalysis {
  return create(eventSchemas[Topics.fileProcessed].field.inventoryItem!.message!, {
    name: 'Crimson radio',
    description: 'A 1930s valve radio.',
    category: 'Home Decor',
    material: 'Bakelite',
    colors: [{ name: 'crimson', hex: '#dc143c', share: 0.7 }],
    dimensions: { width: 30, height: 40, lengthUnit: 'cm', text: '30 x 40 cm' },
    objects: [{ label: 'radio', score: 0.81, box: { x: 1, y: 2, width: 300, height: 200 } }],
    barcodes: [
      {
        format: 'EAN-13',
        value: '4006381333931',
        lookup: { found: true, source: 'local', productName: 'Radio', originCountry: 'DE' },
      },
    ],
    originSource: 'Flea market',
    importCost: moneyFromNumber(12.5),
    retailPrice: moneyFromNumber(49.99),
    provenance: { material: { confidence: 0.55, source: ProvenanceSource.LOCAL_MODEL } },
  }) as InventoryAnalysis;
}

describe('event topics', () => {
  it('name every topic with its version and map it to one message', () => {
    for (const [topic, schema] of Object.entries(eventSchemas)) {
      expect(topic).toMatch(/^kaboodle\.[a-z]+\.[a-z]+\.v\d+$/);
      expect(schema.typeName).toMatch(/^kaboodle\.events\.v1\./);
      expect(schema.fields.map((f) => f.name).slice(0, 3)).toEqual(['event_id', 'owner_id', 'occurred_at']);
    }
    expect(isTopicName('kaboodle.file.uploaded.v1')).toBe(true);
    expect(isTopicName('kaboodle.file.uploaded.v2')).toBe(false);
  });

  it('round-trip a processed document with every field through the wire format', () => {
    const event = createEvent(Topics.fileProcessed, {
      ownerId: 'user-1',
      file,
      result: { case: 'document', value: documentAnalysis() },
      attempt: 1,
      durationMs: 1234,
    });
    expect(event.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(timestampDate(event.occurredAt!).getTime() - Date.now())).toBeLessThan(5_000);

    const decoded = decodeEvent(Topics.fileProcessed, encodeEvent(Topics.fileProcessed, event));
    expect(equals(eventSchemas[Topics.fileProcessed], decoded, event)).toBe(true);
    expect(decoded.result.case).toBe('document');
    if (decoded.result.case !== 'document') throw new Error('unreachable');
    const doc = decoded.result.value;
    expect(doc.publicationYear).toBe(1931);
    expect(doc.hashtags.map((h) => [h.tag, h.relevancy])).toEqual([
      ['clockwork', 0.92],
      ['pendulum', 0.4],
    ]);
    expect(doc.provenance['title']?.source).toBe(ProvenanceSource.FILE_METADATA);
    expect(doc.embedding?.values).toEqual([0.25, -0.5, 0.125]);
    expect(decoded.file?.sizeBytes).toBe(20n * 1024n * 1024n);
    expect(eventKey(Topics.fileProcessed, decoded)).toBe('file-1');
  });

  it('keep an absent publication year distinct from zero', () => {
    const doc = documentAnalysis();
    doc.publicationYear = undefined;
    const bytes = toBinary(
      AnalyzeResponseSchema,
      create(AnalyzeResponseSchema, { result: { case: 'document', value: doc } }),
    );
    const back = fromBinary(AnalyzeResponseSchema, bytes);
    expect(back.result.case === 'document' && back.result.value.publicationYear).toBeUndefined();
  });

  it('round-trip an inventory item, money included, through JSON', () => {
    const event = createEvent(Topics.fileProcessed, {
      ownerId: 'user-1',
      file: { ...file, contentType: 'image/png', fileName: 'radio.png' },
      result: { case: 'inventoryItem', value: inventoryAnalysis() },
    });
    const schema = eventSchemas[Topics.fileProcessed];
    const json = toJsonString(schema, event);
    expect(JSON.parse(json)).toMatchObject({
      inventoryItem: { name: 'Crimson radio', colors: [{ hex: '#dc143c' }] },
    });
    const back = fromJsonString(schema, json);
    expect(equals(schema, back, event)).toBe(true);
    if (back.result.case !== 'inventoryItem') throw new Error('expected an inventory item');
    expect(moneyToNumber(back.result.value.retailPrice!)).toBeCloseTo(49.99, 9);
    expect(back.result.value.barcodes[0]?.lookup?.originCountry).toBe('DE');
  });

  it('round-trip status, catalogue and user events and key them by their entity', () => {
    const status = createEvent(Topics.fileStatus, {
      ownerId: 'user-1',
      fileId: 'file-9',
      stage: ProcessingStage.ANALYZING,
      progress: 60,
      status: FileState.PROCESSING,
    });
    const statusBack = decodeEvent(Topics.fileStatus, encodeEvent(Topics.fileStatus, status));
    expect([statusBack.stage, statusBack.progress, statusBack.status]).toEqual([
      ProcessingStage.ANALYZING,
      60,
      FileState.PROCESSING,
    ]);
    expect(eventKey(Topics.fileStatus, statusBack)).toBe('file-9');

    const changed = createEvent(Topics.catalogueChanged, {
      ownerId: 'user-1',
      entityType: EntityType.DOCUMENT,
      entityId: 'doc-7',
      version: 3n,
      op: ChangeOp.UPSERT,
      payload: {
        case: 'document',
        value: { id: 'doc-7', ownerId: 'user-1', analysis: documentAnalysis(), version: 3n },
      },
    });
    const changedBack = decodeEvent(Topics.catalogueChanged, encodeEvent(Topics.catalogueChanged, changed));
    expect(changedBack.version).toBe(3n);
    expect(changedBack.payload.case === 'document' && changedBack.payload.value.analysis?.title).toBe(
      'On Clockwork',
    );
    expect(eventKey(Topics.catalogueChanged, changedBack)).toBe('doc-7');

    const uploaded = createEvent(Topics.fileUploaded, {
      ownerId: 'user-1',
      file,
      destination: Destination.INVENTORY,
      instructions: 'price it in euros',
    });
    const uploadedBack = decodeEvent(Topics.fileUploaded, encodeEvent(Topics.fileUploaded, uploaded));
    expect(uploadedBack.destination).toBe(Destination.INVENTORY);
    expect(eventKey(Topics.fileUploaded, uploadedBack)).toBe('file-1');

    const user = createEvent(Topics.userChanged, { ownerId: 'user-2', op: ChangeOp.DELETE });
    expect(eventKey(Topics.userChanged, user)).toBe('user-2');
  });

  it('refuse events without an owner or an entity, unknown topics, wrong messages and corrupt bytes', () => {
    expect(() => createEvent(Topics.fileStatus, { fileId: 'f' })).toThrow(/no owner_id/);
    const noEntity = createEvent(Topics.fileStatus, { ownerId: 'u' });
    expect(() => eventKey(Topics.fileStatus, noEntity)).toThrow(/no entity id/);
    expect(() => decodeEvent('kaboodle.nope.v1' as never, new Uint8Array())).toThrow(
      /unknown topic "kaboodle.nope.v1"/,
    );
    expect(() => encodeEvent(Topics.fileUploaded, noEntity as never)).toThrow(
      /carries kaboodle.events.v1.FileUploaded/,
    );
    // Field 1 (event_id) declared as a 10-byte string but only 2 bytes follow.
    expect(() => decodeEvent(Topics.fileUploaded, new Uint8Array([0x0a, 0x0a, 0x41, 0x42]))).toThrow(
      /^decoding kaboodle.file.uploaded.v1: /,
    );
  });
});

describe('money', () => {
  it('keeps cents exactly and carries rounding into the units', () => {
    expect(moneyFromNumber(49.99)).toMatchObject({ currencyCode: 'USD', units: 49n, nanos: 990_000_000 });
    expect(moneyFromNumber(-1.5, 'EUR')).toMatchObject({ units: -1n, nanos: -500_000_000 });
    expect(moneyFromNumber(0.9999999999)).toMatchObject({ units: 1n, nanos: 0 });
    expect(moneyToNumber(moneyFromNumber(1234.56))).toBe(1234.56);
    expect(() => moneyFromNumber(Number.NaN)).toThrow(/not an amount/);
    expect(() => moneyFromNumber(1, 'usd')).toThrow(/ISO 4217/);
  });
});

describe('service descriptors', () => {
  it('declare which calls are safe to retry', () => {
    expect(ProcessingService.typeName).toBe('kaboodle.processing.v1.ProcessingService');
    expect(ProcessingService.method.embed.idempotency).toBe(1); // NO_SIDE_EFFECTS
    expect(ProcessingService.method.analyze.idempotency).toBe(2); // IDEMPOTENT
    expect(CatalogueService.method.listForIndex.methodKind).toBe('server_streaming');
    expect(HealthCheckResponse_ServingStatus.SERVING).toBe(1);
  });
});
