// The offline vision adapter end to end, measuring in a worker thread (the production path).
import { afterAll, describe, expect, it } from 'vitest';
import { ProvenanceSource } from '@kaboodle/proto';
import { createBarcodeLookup } from './barcode-lookup.ts';
import { createPooledImageMeasurer } from './image-measurer.ts';
import { ImageRejectedError } from './measure-image.ts';
import { createOfflineVision } from './offline-vision.ts';
import { blueToteWithCodes, giantImageHeader, teakStool } from './test-fixtures/generate-photos.ts';

const measurer = createPooledImageMeasurer({ timeoutMs: 90_000 });
const vision = createOfflineVision({
  measurer,
  barcodeLookup: createBarcodeLookup({
    local: async (v) =>
      v === '5901234123457' ? { productName: 'Indigo market tote', category: 'Totebags' } : null,
  }),
});
afterAll(() => vision.close?.());

describe('offline inventory vision (worker thread)', () => {
  it('reads the label of a stool photo: category, material, height, colour, name', async () => {
    const photo = await teakStool();
    const r = await vision.analyze({
      bytes: photo.bytes,
      fileName: photo.fileName,
      ocrText: photo.label!,
      instructions: 'Retail price $89; import cost 30 USD',
    });
    expect(r.category).toBe('Stools');
    expect(r.material).toBe('wood');
    expect(r.dimensions).toMatchObject({ height: 45, lengthUnit: 'cm' });
    expect(photo.expected.colors).toContain(r.colors[0]!.name);
    expect(r.name).toMatch(/ wood stool$/);
    expect(r.description).toContain('TEAK STOOL');
    expect(r.provenance.material).toMatchObject({ source: ProvenanceSource.OCR });
    expect(r.hashtags.map((h) => h.tag)).toContain('stools');
    expect(r.retailPrice).toEqual({ currencyCode: 'USD', units: 89, nanos: 0 });
    expect(r.importCost).toEqual({ currencyCode: 'USD', units: 30, nanos: 0 });
    expect(r.provenance.retail_price!.source).toBe(ProvenanceSource.INSTRUCTIONS);
  }, 90_000);

  it('reads the codes on a tote and names it from the local catalogue match', async () => {
    const photo = await blueToteWithCodes();
    const r = await vision.analyze({ bytes: photo.bytes, fileName: photo.fileName });
    expect(r.barcodes.map((b) => b.value)).toEqual(expect.arrayContaining(photo.expected.barcodes!));
    const ean = r.barcodes.find((b) => b.format === 'EAN-13')!;
    expect(ean.lookup).toMatchObject({
      found: true,
      source: 'local',
      productName: 'Indigo market tote',
      originCountry: 'PL',
    });
    expect(r.name).toBe('Indigo market tote');
    expect(r.category).toBe('Totebags');
    expect(r.provenance.name!.source).toBe(ProvenanceSource.BARCODE_LOOKUP);
  }, 90_000);

  it('turns an image bomb into a clear refusal, and the worker keeps serving', async () => {
    await expect(vision.analyze({ bytes: await giantImageHeader() })).rejects.toThrow(ImageRejectedError);
    const photo = await teakStool();
    await expect(vision.analyze({ bytes: photo.bytes })).resolves.toMatchObject({
      colors: expect.any(Array),
    });
  }, 90_000);
});
