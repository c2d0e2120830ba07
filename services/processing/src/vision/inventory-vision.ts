// The InventoryVision port: an item photo in, the inventory fields of docs/product.md#data out (name,
// description, category, material, colours, dimensions, recognised objects, barcodes with what
// their lookup found), each with a confidence and provenance. Adapters: createOfflineVision
// (COCO detector + palette + zxing + rules, no network) and createOpenAiVision (a vision chat model).
import type { FieldProvenance, ScoredTag } from '../enrich/document-enricher.ts';

export const INVENTORY_CATEGORIES = [
  'Beads',
  'Stools',
  'Bowls',
  'Fans',
  'Totebags',
  'Home Decor',
  'Other',
] as const;
export type InventoryCategory = (typeof INVENTORY_CATEGORIES)[number];

export interface VisionInput {
  /** The photo (JPEG or PNG). */
  bytes: Uint8Array;
  fileName?: string;
  /** The user's AI instructions, verbatim. */
  instructions?: string;
  /** Text read from the photo by OCR (labels, tags), when the extractor found any. */
  ocrText?: string;
}

export interface VisionOptions {
  signal?: AbortSignal;
}

export interface NamedColor {
  name: string;
  hex: string;
  share: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Detection {
  label: string;
  score: number;
  box?: Box;
}

export interface BarcodeLookupResult {
  found: boolean;
  source: string;
  productName: string;
  brand: string;
  description: string;
  category: string;
  originCountry: string;
}

export interface ReadBarcode {
  format: string;
  value: string;
  lookup?: BarcodeLookupResult;
}

export interface StatedDimensions {
  width?: number;
  height?: number;
  depth?: number;
  weight?: number;
  lengthUnit: string;
  weightUnit: string;
  text: string;
}

/** The enrichable part of kaboodle.common.v1.InventoryAnalysis. */
export interface InventoryEnrichment {
  name: string;
  description: string;
  category: InventoryCategory;
  material: string;
  colors: NamedColor[];
  dimensions?: StatedDimensions;
  objects: Detection[];
  barcodes: ReadBarcode[];
  originSource: string;
  /** Prices only when stated (instructions, a price tag); never guessed. */
  retailPrice?: Money;
  importCost?: Money;
  hashtags: ScoredTag[];
  provenance: Record<string, FieldProvenance>;
  /** The photo itself: its vector (find by photo) and the pixel size the object boxes are in. */
  image?: ImageFacts;
}

export interface ImageFacts {
  embedding: Float32Array;
  /** IMAGE_EMBEDDING_MODEL of image-embedder.ts. */
  model: string;
  width: number;
  height: number;
}

/** kaboodle.common.v1.Money. */
export interface Money {
  currencyCode: string;
  units: number;
  nanos: number;
}

export interface InventoryVision {
  readonly provider: string;
  analyze(input: VisionInput, options?: VisionOptions): Promise<InventoryEnrichment>;
  close?(): Promise<void>;
}
