// The offline InventoryVision: measurements from the photo (objects, colours, barcodes; in a worker
// thread), barcode lookups (local catalogue first), then rules over labels, colours, OCR text, the
// file name and the user's instructions for category, material, dimensions, name and description.
import { provenance as prov, ProvenanceSource, type FieldProvenance } from '../enrich/document-enricher.ts';
import { parseInstructions } from '../enrich/instructions.ts';
import { reconcileTags } from '../enrich/tag-vocabulary.ts';
import type { BarcodeLookup } from './barcode-lookup.ts';
import { IMAGE_EMBEDDING_MODEL } from './image-embedder.ts';
import type { ImageMeasurer } from './image-measurer.ts';
import {
  composeDescription,
  composeName,
  decideCategory,
  findDimensions,
  findMaterial,
  findPrices,
} from './inventory-rules.ts';
import {
  INVENTORY_CATEGORIES,
  type InventoryCategory,
  type InventoryEnrichment,
  type InventoryVision,
  type ReadBarcode,
  type VisionInput,
  type VisionOptions,
} from './inventory-vision.ts';

export interface OfflineVisionOptions {
  measurer: ImageMeasurer;
  barcodeLookup?: BarcodeLookup;
}

/** zxing's format names as people write them. */
export function formatLabel(format: string): string {
  const map: Record<string, string> = {
    EAN13: 'EAN-13',
    EAN8: 'EAN-8',
    UPCA: 'UPC-A',
    UPCE: 'UPC-E',
    QRCode: 'QRCode',
    Code128: 'Code128',
    Code39: 'Code39',
    DataMatrix: 'DataMatrix',
  };
  return map[format.replace(/[-\s]/g, '')] ?? format;
}

export function createOfflineVision(options: OfflineVisionOptions): InventoryVision {
  return {
    provider: 'local',
    async analyze(input: VisionInput, opts: VisionOptions = {}): Promise<InventoryEnrichment> {
      const m = await options.measurer.measure(input.bytes, opts.signal ? { signal: opts.signal } : {});
      const ocrText = input.ocrText?.trim() ?? '';
      const instructions = input.instructions ?? '';
      const fileName = input.fileName ?? '';
      const directives = parseInstructions(instructions);
      const provenance: Record<string, FieldProvenance> = {};

      const barcodes: ReadBarcode[] = [];
      for (const b of m.barcodes) {
        const format = formatLabel(b.format);
        const lookup = options.barcodeLookup
          ? await options.barcodeLookup.lookup(format, b.value, opts.signal ? { signal: opts.signal } : {})
          : undefined;
        barcodes.push({ format, value: b.value, ...(lookup ? { lookup } : {}) });
      }
      if (barcodes.length) {
        provenance.barcodes = prov(
          0.95,
          ProvenanceSource.LOCAL_MODEL,
          'zxing-wasm',
          barcodes.map((b) => `${b.format} ${b.value}`).join(', '),
        );
      }
      const product = barcodes.find((b) => b.lookup?.found)?.lookup;
      const lookupText = product
        ? [product.productName, product.category, product.description].join(' ')
        : '';

      const objects = m.objects;
      if (objects.length) {
        provenance.objects = prov(
          objects[0]!.score,
          ProvenanceSource.LOCAL_MODEL,
          'human centernet (COCO)',
          objects.map((o) => `${o.label} ${o.score}`).join(', '),
        );
      }
      const colors = m.colors;
      if (colors.length)
        provenance.colors = prov(
          0.7,
          ProvenanceSource.LOCAL_MODEL,
          'node-vibrant palette',
          colors.map((c) => `${c.name} ${c.hex}`).join(', '),
        );

      // Category: an explicit instruction naming a known category wins outright.
      const asked =
        directives.category &&
        INVENTORY_CATEGORIES.find(
          (c) =>
            c.toLowerCase().replace(/\s/g, '') === directives.category!.toLowerCase().replace(/\s|-/g, ''),
        );
      const decision = asked
        ? {
            category: asked as InventoryCategory,
            confidence: 1,
            source: 'instructions',
            evidence: `category: ${directives.category}`,
          }
        : decideCategory({ labels: objects, ocrText, fileName, instructions, lookupText });
      provenance.category = prov(
        decision.confidence,
        decision.source === 'instructions'
          ? ProvenanceSource.INSTRUCTIONS
          : decision.source === 'objects'
            ? ProvenanceSource.LOCAL_MODEL
            : decision.source === 'text in the picture'
              ? ProvenanceSource.OCR
              : decision.source === 'barcode lookup'
                ? ProvenanceSource.BARCODE_LOOKUP
                : ProvenanceSource.TEXT_ANALYSIS,
        `rules over ${decision.source}`,
        decision.evidence,
      );

      const materialHit = findMaterial([
        [instructions, 'instructions'],
        [fileName.replace(/[_\-.]+/g, ' '), 'file name'],
        [lookupText, 'barcode lookup'],
        [ocrText, 'text in the picture'],
      ]);
      const material = materialHit?.material ?? '';
      if (materialHit) {
        provenance.material = prov(
          materialHit.source === 'instructions' ? 0.95 : 0.7,
          materialHit.source === 'instructions'
            ? ProvenanceSource.INSTRUCTIONS
            : materialHit.source === 'text in the picture'
              ? ProvenanceSource.OCR
              : ProvenanceSource.TEXT_ANALYSIS,
          `rule: material word in the ${materialHit.source}`,
          materialHit.evidence,
        );
      }

      const dimensions =
        findDimensions(instructions) ??
        findDimensions(ocrText) ??
        findDimensions(fileName.replace(/_/g, ' '));
      if (dimensions)
        provenance.dimensions = prov(
          0.75,
          findDimensions(instructions) ? ProvenanceSource.INSTRUCTIONS : ProvenanceSource.OCR,
          'rule: stated dimensions',
          dimensions.text,
        );

      const origin =
        /\bmade in ([A-Z][a-zA-Z]+(?: [A-Z][a-zA-Z]+)?)/.exec(`${instructions} ${ocrText}`)?.[1] ??
        product?.originCountry ??
        '';
      if (origin)
        provenance.origin_source = prov(
          0.6,
          /made in/i.test(`${instructions} ${ocrText}`)
            ? ProvenanceSource.OCR
            : ProvenanceSource.BARCODE_LOOKUP,
          /made in/i.test(`${instructions} ${ocrText}`) ? 'rule: "made in"' : 'GS1 prefix',
          origin,
        );

      // Prices: the user's instructions first, then a price tag in the picture.
      const fromInstructions = findPrices(instructions);
      const fromLabel = findPrices(ocrText);
      const retail = fromInstructions.retail ?? fromLabel.retail;
      const cost = fromInstructions.cost ?? fromLabel.cost;
      for (const [key, money, own] of [
        ['retail_price', retail, fromInstructions.retail],
        ['import_cost', cost, fromInstructions.cost],
      ] as const) {
        if (!money) continue;
        provenance[key] = prov(
          own ? 0.95 : 0.6,
          own ? ProvenanceSource.INSTRUCTIONS : ProvenanceSource.OCR,
          'rule: stated price',
          money.text,
        );
      }

      const name =
        directives.title ??
        (product?.productName || composeName(decision.category, colors, material, objects));
      provenance.name = directives.title
        ? prov(1, ProvenanceSource.INSTRUCTIONS, 'user instructions', `title: ${directives.title}`)
        : product?.productName
          ? prov(
              0.85,
              ProvenanceSource.BARCODE_LOOKUP,
              `barcode lookup (${product.source})`,
              product.productName,
            )
          : prov(
              Math.min(0.8, decision.confidence),
              ProvenanceSource.LOCAL_MODEL,
              'composed from colour, material and category',
              name,
            );
      const description = composeDescription({
        name,
        category: decision.category,
        colors,
        material,
        objects,
        ...(dimensions ? { dimensions } : {}),
        barcodes: barcodes.map((b) => ({
          format: b.format,
          value: b.value,
          ...(b.lookup?.found ? { product: b.lookup.productName } : {}),
        })),
        ocrText,
      });
      provenance.description = prov(
        0.6,
        ProvenanceSource.LOCAL_MODEL,
        'composed from the findings',
        description,
      );

      const tags = reconcileTags(
        [
          ...directives.tags.map((t) => ({ tag: t, relevancy: 1 })),
          ...(decision.category !== 'Other'
            ? [{ tag: decision.category, relevancy: decision.confidence }]
            : []),
          ...(material ? [{ tag: material, relevancy: 0.6 }] : []),
          ...colors.slice(0, 1).map((c) => ({ tag: c.name, relevancy: 0.5 })),
          ...objects
            .filter((o) => o.score >= 0.4)
            .slice(0, 2)
            .map((o) => ({ tag: o.label, relevancy: o.score * 0.6 })),
        ],
        [],
        { max: 8 },
      );
      const hashtags = tags.map(({ tag, relevancy }) => ({ tag, relevancy }));
      if (hashtags.length)
        provenance.hashtags = prov(
          0.6,
          ProvenanceSource.LOCAL_MODEL,
          'category, material, colour and objects',
          hashtags.map((h) => h.tag).join(', '),
        );

      return {
        image: { embedding: m.embedding, model: IMAGE_EMBEDDING_MODEL, width: m.width, height: m.height },
        name,
        description,
        category: decision.category,
        material,
        colors,
        ...(dimensions ? { dimensions } : {}),
        objects,
        barcodes,
        originSource: origin,
        ...(retail
          ? { retailPrice: { currencyCode: retail.currencyCode, units: retail.units, nanos: retail.nanos } }
          : {}),
        ...(cost
          ? { importCost: { currencyCode: cost.currencyCode, units: cost.units, nanos: cost.nanos } }
          : {}),
        hashtags,
        provenance,
      };
    },
    close: () => options.measurer.close(),
  };
}
