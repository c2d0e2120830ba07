// Each vision step on photos drawn for the test (sharp/SVG, bwip-js codes), in this thread: the
// COCO detector, the palette, the barcode reader, and the rules that turn them into fields.
import { describe, expect, it } from 'vitest';
import { readBarcodes } from './barcodes.ts';
import { loadCocoDetector } from './coco-detector.ts';
import { colorName } from './color-names.ts';
import { dominantColors, objectRegion } from './colors.ts';
import {
  composeName,
  decideCategory,
  findDimensions,
  findMaterial,
  findPrices,
  withoutRepeats,
} from './inventory-rules.ts';
import { measureImage, ImageRejectedError } from './measure-image.ts';
import {
  blueToteWithCodes,
  giantImageHeader,
  greenVase,
  redBowl,
  teakStool,
} from './test-fixtures/generate-photos.ts';

describe('colour names', () => {
  it('names colours the way a person would', () => {
    expect(colorName('#c43c2c')).toBe('red');
    expect(colorName('#1b2a5c')).toBe('navy');
    expect(colorName('#fdfdfd')).toBe('white');
    expect(colorName('#7b4a2a')).toBe('brown');
  });
});

describe('dominant colours', () => {
  it('finds the object’s colour, not the grey backdrop', async () => {
    const colors = await dominantColors((await redBowl()).bytes);
    expect(['red', 'crimson', 'terracotta']).toContain(colors[0]!.name);
    expect(colors[0]!.hex).toMatch(/^#[0-9a-f]{6}$/);
    expect(colors.map((c) => c.name)).not.toContain('light grey');
    expect(colors.reduce((s, c) => s + c.share, 0)).toBeLessThanOrEqual(1.01);
  });
});

describe('barcodes', () => {
  it('reads a QR code and an EAN-13 printed on a tote bag photo', async () => {
    const found = await readBarcodes((await blueToteWithCodes()).bytes);
    expect(found).toEqual(
      expect.arrayContaining([
        { format: 'QRCode', value: 'https://kaboodle.example/items/tote-42' },
        { format: 'EAN13', value: '5901234123457' },
      ]),
    );
  }, 30_000);

  it('finds none on a photo without codes', async () => {
    expect(await readBarcodes((await redBowl()).bytes)).toEqual([]);
  });
});

describe('COCO object detector', () => {
  it('recognises a vase with a score and a box', async () => {
    const photo = await greenVase();
    const m = await measureImage(photo.bytes);
    const vase = m.objects.find((o) => o.label === 'vase');
    expect(vase).toBeDefined();
    expect(vase!.score).toBeGreaterThan(0.3);
    expect(vase!.box!.width).toBeGreaterThan(50);
    expect(m).toMatchObject({ width: 640, height: 640 });
  }, 60_000);

  it('loads once per thread', () => {
    expect(loadCocoDetector()).toBe(loadCocoDetector());
  });

  it('refuses a picture whose header claims 30000×30000 pixels, before decoding it', async () => {
    await expect(measureImage(await giantImageHeader())).rejects.toThrow(ImageRejectedError);
    await expect(measureImage(await giantImageHeader())).rejects.toThrow(/30000×30000/);
  });
});

describe('inventory rules', () => {
  it('decides the category from the strongest signal, instructions first', () => {
    expect(
      decideCategory({
        labels: [{ label: 'bowl', score: 0.8 }],
        ocrText: '',
        fileName: 'IMG_1.jpg',
        instructions: '',
        lookupText: '',
      }).category,
    ).toBe('Bowls');
    expect(
      decideCategory({
        labels: [{ label: 'bowl', score: 0.8 }],
        ocrText: '',
        fileName: 'x.jpg',
        instructions: 'this is a beaded necklace',
        lookupText: '',
      }),
    ).toMatchObject({ category: 'Beads', source: 'instructions' });
    expect(
      decideCategory({
        labels: [],
        ocrText: 'TEAK STOOL 45 cm',
        fileName: 'p.jpg',
        instructions: '',
        lookupText: '',
      }),
    ).toMatchObject({ category: 'Stools', source: 'text in the picture' });
    expect(
      decideCategory({
        labels: [{ label: 'handbag', score: 0.6 }],
        ocrText: '',
        fileName: 'tote-bag.png',
        instructions: '',
        lookupText: '',
      }).category,
    ).toBe('Totebags');
    expect(
      decideCategory({ labels: [], ocrText: '', fileName: 'IMG_9.jpg', instructions: '', lookupText: '' }),
    ).toMatchObject({ category: 'Other', confidence: 0.3 });
  });

  it('takes no category from a detector guess under 0.6, as it takes no name from one', () => {
    // A light bulb guessed as a "cup" at 0.43 was filed under Bowls.
    const guess = (score: number) =>
      decideCategory({
        labels: [{ label: 'cup', score }],
        ocrText: '',
        fileName: 'bulb.png',
        instructions: '',
        lookupText: '',
      });
    expect(guess(0.43)).toMatchObject({ category: 'Other', evidence: 'no category cue' });
    expect(guess(0.59).category).toBe('Other');
    expect(guess(0.6)).toMatchObject({ category: 'Bowls', source: 'objects' });
  });

  it('tells the material only when some text says it', () => {
    expect(findMaterial([['Handmade TEAK stool', 'text in the picture']])).toMatchObject({
      material: 'wood',
      evidence: 'TEAK',
    });
    expect(findMaterial([['material: raffia', 'instructions']])).toMatchObject({
      material: 'raffia',
      source: 'instructions',
    });
    expect(findMaterial([['a lovely thing', 'text in the picture']])).toBeNull();
  });

  it('reads stated dimensions and weight', () => {
    expect(findDimensions('Size 30 x 40 cm, 1.2 kg')).toMatchObject({
      width: 30,
      height: 40,
      lengthUnit: 'cm',
      weight: 1.2,
      weightUnit: 'kg',
    });
    expect(findDimensions('12×8×5 in')).toMatchObject({ width: 12, height: 8, depth: 5, lengthUnit: 'in' });
    expect(findDimensions('TEAK STOOL 45 cm tall')).toMatchObject({ height: 45, lengthUnit: 'cm' });
    expect(findDimensions('diameter: 25cm')).toMatchObject({ width: 25, lengthUnit: 'cm' });
    expect(findDimensions('no sizes here')).toBeUndefined();
  });

  it('reads stated prices: retail unless a cost word says import cost; never guesses', () => {
    expect(findPrices('Retail price $24.50, import cost: £4')).toEqual({
      retail: { currencyCode: 'USD', units: 24, nanos: 500_000_000, text: 'Retail price $24.50' },
      cost: { currencyCode: 'GBP', units: 4, nanos: 0, text: 'import cost: £4' },
    });
    expect(findPrices('sells for 30 EUR').retail).toMatchObject({ currencyCode: 'EUR', units: 30 });
    expect(findPrices('wholesale 12 dollars').cost).toMatchObject({ currencyCode: 'USD', units: 12 });
    expect(findPrices('45 cm tall, 2 kg')).toEqual({});
  });

  it('names an item from colour, material and category', () => {
    expect(composeName('Bowls', [{ name: 'red', hex: '#c43c2c', share: 1 }], 'ceramic', [])).toBe(
      'Red ceramic bowl',
    );
    expect(composeName('Home Decor', [], '', [{ label: 'vase', score: 0.6 }])).toBe('Vase');
    // A person holding the item is not what the photo is of (a real photo was named "Tan person").
    const held = [
      { label: 'person', score: 0.8 },
      { label: 'vase', score: 0.7 },
    ];
    expect(composeName('Other', [{ name: 'tan', hex: '#c8a878', share: 1 }], '', held)).toBe('Tan vase');
    expect(composeName('Other', [{ name: 'red', hex: '#c43c2c', share: 1 }], '', held.slice(0, 1))).toBe(
      'Red item',
    );
  });

  it('does not name an item after a low-confidence guess of the detector', () => {
    // Real photos: a tabby cat was "Tan dog" (dog 0.47), a jumping spider "Black dog" (dog 0.50).
    const tan = [{ name: 'tan', hex: '#c8a878', share: 1 }];
    expect(composeName('Other', tan, '', [{ label: 'dog', score: 0.47 }])).toBe('Tan item');
    expect(composeName('Home Decor', tan, '', [{ label: 'cake', score: 0.58 }])).toBe('Tan decor piece');
    expect(composeName('Other', tan, '', [{ label: 'sheep', score: 0.72 }])).toBe('Tan sheep');
  });

  it('says each word of a name once ("Teal glass beads beads" was a real name)', () => {
    expect(composeName('Beads', [{ name: 'teal', hex: '#2a8c8c', share: 1 }], 'glass beads', [])).toBe(
      'Teal glass beads',
    );
    expect(withoutRepeats('teal glass bead beads')).toBe('teal glass beads');
    expect(withoutRepeats('Red ceramic bowl')).toBe('Red ceramic bowl');
  });

  it('reads the colour inside the main object’s box, not the wall around it', () => {
    const objects = [
      { label: 'person', score: 0.9, box: { x: 0, y: 0, width: 300, height: 480 } },
      { label: 'clock', score: 0.35, box: { x: 400, y: 20, width: 40, height: 40 } },
      { label: 'bowl', score: 0.6, box: { x: 250, y: 220, width: 140, height: 80 } },
    ];
    // The bowl (a person holding an item is not the item; a small, less sure clock loses to it).
    expect(objectRegion(objects, 640, 480)).toEqual({ left: 243, top: 216, width: 154, height: 88 });
    // Nothing detected: the middle of the photo; a box that is the whole photo: the whole photo.
    expect(objectRegion([], 640, 480)).toEqual({ left: 108, top: 81, width: 424, height: 318 });
    expect(
      objectRegion([{ label: 'bowl', score: 0.9, box: { x: 0, y: 0, width: 640, height: 470 } }], 640, 480),
    ).toBeUndefined();
  });

  it('has a fixture with the label text its photo shows', async () => {
    expect((await teakStool()).label).toBe('TEAK STOOL 45 cm tall');
  });
});
