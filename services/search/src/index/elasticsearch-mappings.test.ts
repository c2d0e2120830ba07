// The document shapes written to Elasticsearch: vector rounding, size estimates, refusals.
import { InputError } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import {
  approxDocumentBytes,
  decodeVector,
  docId,
  entityDocument,
  physicalIndexName,
  tombstoneDocument,
  vectorBase64,
  vectorJson,
} from './elasticsearch-mappings.ts';
import type { IndexedEntity } from './search-index.port.ts';

function unit(dims: number, seed: number): Float32Array {
  let x = seed;
  const v = Float32Array.from({ length: dims }, () => {
    x = (x * 16807) % 2147483647;
    return x / 2147483647 - 0.5;
  });
  const n = Math.hypot(...v);
  return v.map((c) => c / n);
}

function entity(dims: number, over: Partial<IndexedEntity> = {}): IndexedEntity {
  return {
    entityType: 'document',
    id: 'd1',
    ownerId: 'o1',
    version: 1,
    title: 'A title',
    description: 'A description',
    content: 'Some content. '.repeat(200),
    category: 'C',
    hashtags: ['x'],
    keywords: ['k'],
    url: '/api/documents/d1/file',
    imageUrl: '',
    createdAt: new Date(0),
    updatedAt: new Date(0),
    vector: unit(dims, 7),
    passages: Array.from({ length: 5 }, (_, i) => ({
      text: `passage ${i} `.repeat(30),
      start: 0,
      end: 10,
      vector: unit(dims, 100 + i),
    })),
    ...over,
  };
}

describe('elasticsearch documents', () => {
  it('rounds vector components to 1e-8, keeping cosine to float32 precision, and drops all-zero vectors', () => {
    const v = unit(512, 3);
    const json = vectorJson(v)!;
    expect(json).toHaveLength(512);
    for (const x of json) expect(String(x).replace(/^-?0\./, '').length).toBeLessThanOrEqual(8);
    let dot = 0;
    for (let i = 0; i < 512; i++) dot += v[i]! * json[i]!;
    expect(dot).toBeCloseTo(1, 6);
    expect(vectorJson(new Float32Array(4))).toBeUndefined();
    expect(vectorJson(Float32Array.from([1e-10, 0, 0]))).toBeUndefined();
  });

  it('encodes base64 vectors as big-endian float32 (the encoding Elasticsearch documents) and reads them back', () => {
    // Elasticsearch's own REST test: [0.8837743, 0.6310808, 0.7800066] is 'P2I/CD8hjoM/R66D'
    expect(vectorBase64(Float32Array.from([0.8837743, 0.6310808, 0.7800066]))).toBe('P2I/CD8hjoM/R66D');
    const v = unit(512, 9);
    expect(decodeVector(vectorBase64(v))).toEqual(v);
    expect(decodeVector(Array.from(v))).toEqual(v);
    expect(vectorBase64(new Float32Array(8))).toBeUndefined();
    expect(decodeVector('abc')).toBeUndefined();
    const doc = entityDocument(entity(8), 8, { vectorEncoding: 'base64' });
    expect(typeof (doc as { vector?: unknown }).vector).toBe('string');
    expect(doc.passages.every((p) => typeof (p as { vector?: unknown }).vector === 'string')).toBe(true);
  });

  it('estimates the serialised size within 15% without serialising', () => {
    for (const dims of [16, 384, 512]) {
      for (const vectorEncoding of ['json', 'base64'] as const) {
        const doc = entityDocument(entity(dims), dims, { vectorEncoding });
        const real = JSON.stringify(doc).length;
        const estimate = approxDocumentBytes(doc, dims);
        expect(Math.abs(estimate - real) / real, `${dims} dims ${vectorEncoding}`).toBeLessThan(0.15);
      }
    }
  });

  it('leaves vectors out when the live index was built for another model', () => {
    const doc = entityDocument(entity(8), 8, { withVectors: false });
    expect('vector' in doc).toBe(false);
    expect(doc.passages.every((p) => !('vector' in p))).toBe(true);
    expect(doc.title).toBe('A title');
  });

  it('refuses bad entities with an InputError before anything is sent', () => {
    expect(() => entityDocument(entity(8, { vector: new Float32Array(7) }), 8)).toThrow(InputError);
    expect(() => entityDocument(entity(8, { version: 1.5 }), 8)).toThrow(InputError);
    expect(() => entityDocument(entity(8, { ownerId: '' }), 8)).toThrow(InputError);
    expect(() => entityDocument(entity(8, { id: 'x'.repeat(600) }), 8)).toThrow(
      'The entity id and owner id are too long',
    );
    expect(() =>
      tombstoneDocument({ entityType: 'thing' as never, id: 'a', ownerId: 'o', version: 1 }),
    ).toThrow(InputError);
  });

  it('names ids per owner and physical indices by dims and a sortable timestamp', () => {
    expect(docId({ entityType: 'inventory_item', id: 'i', ownerId: 'o' })).toBe('inventory_item:o:i');
    expect(physicalIndexName('kaboodle-entities', 512, new Date('2026-11-22T02:03:04.005Z'))).toBe(
      'kaboodle-entities-512d-20261122020304005',
    );
  });
});
