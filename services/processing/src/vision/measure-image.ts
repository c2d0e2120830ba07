// What can be measured in a photo without any judgement: recognised objects, dominant colours and
// barcodes. Runs in the vision worker thread (image-measurer.ts) because the models hold a core
// for a second or so per image; callable in-thread for tests and benchmarks.
import sharp from 'sharp';
import { ImageHeaderError, readImageHeader } from '../extract/image-header.ts';
import { readBarcodes, type FoundBarcode } from './barcodes.ts';
import { loadCocoDetector } from './coco-detector.ts';
import { objectRegion } from './colors.ts';
import { embedImage } from './image-embedder.ts';
import { ImageRejectedError } from './image-rejected.ts';
import { objectColors } from './object-colors.ts';
import type { Detection, NamedColor } from './inventory-vision.ts';

export interface ImageMeasurements {
  width: number;
  height: number;
  objects: Detection[];
  colors: NamedColor[];
  barcodes: FoundBarcode[];
  /** The photo as one vector (find an item by photo), IMAGE_EMBEDDING_MODEL. */
  embedding: Float32Array;
  /** Milliseconds per step, for benchmarks. */
  timings: Record<string, number>;
}

/** Decoding more than this many pixels is refused (a 30k×30k "photo" is an attack, not an item). */
export const MAX_VISION_PIXELS = 100_000_000;
/** The detector works at ~512 px; a larger copy only costs time. */
const DETECT_SIDE = 640;
/** Barcodes need resolution, but past this zxing only gets slower. */
const BARCODE_SIDE = 2400;

export { ImageRejectedError };

export async function measureImage(bytes: Uint8Array): Promise<ImageMeasurements> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  // The header's own size is checked before anything is decoded: an image bomb costs nothing.
  try {
    const header = readImageHeader(bytes);
    if (header.width * header.height > MAX_VISION_PIXELS) {
      throw new ImageRejectedError(
        `The image is ${header.width}×${header.height} pixels; pictures above ${MAX_VISION_PIXELS / 1e6} megapixels are not analysed.`,
      );
    }
  } catch (err) {
    if (err instanceof ImageHeaderError) {
      throw new ImageRejectedError(`The image is damaged or incomplete (${err.message}).`, { cause: err });
    }
    throw err;
  }
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(bytes).metadata();
  } catch (err) {
    throw new ImageRejectedError(
      `The image could not be read; it may be damaged (${(err as Error).message}).`,
      { cause: err },
    );
  }
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (width === 0 || height === 0) throw new ImageRejectedError('The image has no pixels.');
  if (width * height > MAX_VISION_PIXELS) {
    throw new ImageRejectedError(
      `The image is ${width}×${height} pixels; pictures above ${MAX_VISION_PIXELS / 1e6} megapixels are not analysed.`,
    );
  }
  const input = () => sharp(bytes, { limitInputPixels: MAX_VISION_PIXELS }).rotate();
  const { data, info } = await input()
    .resize(DETECT_SIDE, DETECT_SIDE, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  timings.decode = performance.now() - t;

  t = performance.now();
  const detector = await loadCocoDetector();
  timings.loadDetector = performance.now() - t;
  t = performance.now();
  const scale = width / info.width;
  const objects = (
    await detector.detect({
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
    })
  ).map((o) => ({
    ...o,
    ...(o.box
      ? {
          box: {
            x: Math.round(o.box.x * scale),
            y: Math.round(o.box.y * scale),
            width: Math.round(o.box.width * scale),
            height: Math.round(o.box.height * scale),
          },
        }
      : {}),
  }));
  timings.detect = performance.now() - t;

  t = performance.now();
  const oriented = await input().png().toBuffer();
  // The object's colour from the object: the detector's box (else the middle of the photo), less
  // what looks like the photo's outer ring ("a blue bowl on a beige wall" is blue).
  const colors = await objectColors(oriented, objectRegion(objects, width, height));
  timings.colors = performance.now() - t;

  t = performance.now();
  const forBarcodes =
    Math.max(width, height) > BARCODE_SIDE
      ? await input().resize(BARCODE_SIDE, BARCODE_SIDE, { fit: 'inside' }).png().toBuffer()
      : oriented;
  const barcodes = await readBarcodes(forBarcodes);
  timings.barcodes = performance.now() - t;

  t = performance.now();
  const embedding = await embedImage(oriented);
  timings.embed = performance.now() - t;
  return { width, height, objects, colors, barcodes, embedding, timings };
}
