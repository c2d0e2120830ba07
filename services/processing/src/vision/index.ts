// Public surface of the inventory vision capability.
export * from './inventory-vision.ts';
export { createOfflineVision, formatLabel, type OfflineVisionOptions } from './offline-vision.ts';
export { createOpenAiVision, type OpenAiVisionOptions } from './openai-vision.ts';
export {
  createBarcodeLookup,
  gs1Country,
  validRetailCode,
  type BarcodeLookup,
  type BarcodeLookupOptions,
  type LocalBarcodeMatch,
} from './barcode-lookup.ts';
export {
  createInThreadImageMeasurer,
  createPooledImageMeasurer,
  type ImageMeasurer,
  type PooledImageMeasurerOptions,
} from './image-measurer.ts';
export {
  ImageRejectedError,
  measureImage,
  MAX_VISION_PIXELS,
  type ImageMeasurements,
} from './measure-image.ts';
export { colorName } from './color-names.ts';
export { dominantColors } from './colors.ts';
export { readBarcodes } from './barcodes.ts';
export {
  composeDescription,
  composeName,
  decideCategory,
  findDimensions,
  findMaterial,
} from './inventory-rules.ts';
export {
  colourHistogram,
  embedImage,
  embedPixels,
  IMAGE_EMBEDDING_DIMENSIONS,
  IMAGE_EMBEDDING_MODEL,
  IMAGE_EMBEDDING_PROVIDER,
} from './image-embedder.ts';
export type { ImageEmbedder } from './image-embedder.ts';
