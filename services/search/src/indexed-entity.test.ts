import { describe, expect, it } from 'vitest';
import { documentToIndexed, inventoryItemToIndexed, UnindexableEntityError } from './indexed-entity.ts';
import { makeDocument, makeInventoryItem, TEST_DIMENSIONS } from './testing/fixtures.ts';
import { create, DocumentSchema, InventoryItemSchema } from '@kaboodle/proto';

describe('documentToIndexed', () => {
  it('maps title, summary, text, category, tags, keyword fields, url, vector and passages', () => {
    const doc = makeDocument({
      id: 'doc-1',
      ownerId: 'alice',
      version: 7,
      title: 'Cover Crops and Soil Carbon',
      summary: 'Cover crops store carbon.',
      text: 'Cover crops store carbon. Bare plots lose it.',
      author: 'Grace Mwangi',
      hashtags: ['soil', 'carbon'],
      passages: ['Cover crops store carbon.', 'Bare plots lose it.'],
    });
    doc.analysis!.field = 'Environmental Science';
    doc.analysis!.journalPublisher = 'Journal of Sustainable Agriculture';
    doc.analysis!.influencedBy = ['Lal 2004'];
    doc.analysis!.thesis = 'Cover crops are cheap carbon storage';
    doc.analysis!.publicationYear = 2021;
    const e = documentToIndexed(doc, TEST_DIMENSIONS);
    expect(e).toMatchObject({
      entityType: 'document',
      id: 'doc-1',
      ownerId: 'alice',
      version: 7,
      title: 'Cover Crops and Soil Carbon',
      description: 'Cover crops store carbon.',
      content: 'Cover crops store carbon. Bare plots lose it.',
      category: 'Research Paper',
      hashtags: ['soil', 'carbon'],
      url: '/api/documents/doc-1/file',
      imageUrl: '',
    });
    expect(e.keywords).toEqual(
      expect.arrayContaining([
        'Grace Mwangi',
        'Environmental Science',
        'Journal of Sustainable Agriculture',
        'Lal 2004',
        'Cover crops are cheap carbon storage',
        '2021',
      ]),
    );
    expect(e.vector).toBeInstanceOf(Float32Array);
    expect(e.vector).toHaveLength(TEST_DIMENSIONS);
    expect(e.passages.map((p) => [p.text, p.start, p.end])).toEqual([
      ['Cover crops store carbon.', 0, 25],
      ['Bare plots lose it.', 26, 45],
    ]);
    expect(e.createdAt.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('falls back to the file name for a missing title and to a zero vector without an embedding', () => {
    const doc = create(DocumentSchema, {
      id: 'd',
      ownerId: 'o',
      version: 1n,
      sourceFile: { fileName: 'notes.txt' },
      analysis: { text: { text: 'plain words' } },
    });
    const e = documentToIndexed(doc, 8);
    expect(e.title).toBe('notes.txt');
    expect([...e.vector]).toEqual(new Array(8).fill(0));
    expect(e.passages).toEqual([]);
  });

  it('refuses an embedding of another size (another model made it)', () => {
    const doc = makeDocument({ ownerId: 'o', title: 't', embedding: [1, 0, 0] });
    expect(() => documentToIndexed(doc, TEST_DIMENSIONS)).toThrow(UnindexableEntityError);
    expect(() => documentToIndexed(doc, TEST_DIMENSIONS)).toThrow(/3-dimensional .* 64-dimensional/);
  });

  it('escapes the id in the download url', () => {
    const doc = makeDocument({ id: 'a/b?c', ownerId: 'o', title: 't' });
    expect(documentToIndexed(doc, TEST_DIMENSIONS).url).toBe('/api/documents/a%2Fb%3Fc/file');
  });
});

describe('inventoryItemToIndexed', () => {
  it('maps name, description, material, colours, objects, barcodes and the image url; no download url', () => {
    const item = makeInventoryItem({
      id: 'item-1',
      ownerId: 'bob',
      name: 'Crimson radio',
      description: 'A red transistor radio',
      category: 'Home Decor',
      material: 'plastic',
      colors: ['crimson', 'black'],
    });
    item.analysis!.originSource = 'Accra market';
    item.analysis!.objects = [{ label: 'radio', score: 0.9 }] as never;
    item.analysis!.barcodes = [
      {
        format: 'EAN-13',
        value: '5901234123457',
        lookup: { found: true, productName: 'Radio X', brand: 'Acme' },
      },
    ] as never;
    const e = inventoryItemToIndexed(item, TEST_DIMENSIONS);
    expect(e).toMatchObject({
      entityType: 'inventory_item',
      title: 'Crimson radio',
      description: 'A red transistor radio',
      category: 'Home Decor',
      url: '',
      imageUrl: '/api/inventory/item-1/image',
      passages: [],
    });
    expect(e.keywords).toEqual(
      expect.arrayContaining([
        'plastic',
        'crimson',
        'black',
        'Accra market',
        'radio',
        '5901234123457',
        'Radio X',
        'Acme',
      ]),
    );
  });

  it('keeps no image url for an item without a photo (imported from a spreadsheet)', () => {
    const item = create(InventoryItemSchema, {
      id: 'x',
      ownerId: 'o',
      version: 2n,
      analysis: { name: 'Stool' },
    });
    expect(inventoryItemToIndexed(item, 4).imageUrl).toBe('');
  });
});
