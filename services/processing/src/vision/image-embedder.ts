// The image embedding behind "find an item by photo": what a photo looks like as one vector, so a
// re-photographed item (another angle, light, crop or background) lands near its catalogue photo.
// Offline: the MobileNetV3 backbone of the COCO detector processing already loads (CenterNet, weights
// inside @vladmandic/human), read at eight depths (its squeeze-and-excite global averages: early
// layers see pattern and texture, late ones shape and parts), each L2-normalised, plus a coarse HSV
// colour histogram at half weight. Chosen on the re-photographed evaluation set
// (test-fixtures/rephotographed-items.ts): the histogram alone finds 16% at top-1, the last layer
// alone 32%, all eight with the histogram 60% (bench: services/processing/bench/image-search.bench.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { ImageHeaderError, readImageHeader } from '../extract/image-header.ts';
import { loadCocoDetector } from './coco-detector.ts';
import { ImageRejectedError } from './image-rejected.ts';

/** Recorded with every vector: vectors of different models are never compared. */
export const IMAGE_EMBEDDING_MODEL = 'mobilenetv3-centernet-se8-hsv72-v1';
export const IMAGE_EMBEDDING_PROVIDER = 'local';
const SE_LAYERS = [14, 13, 12, 11, 10, 5, 4, 3].map(
  (n) => `tower_0/MobilenetV3/expanded_conv_${n}/squeeze_excite/Mean`,
);
/** The channels of those layers, in order (the graph's own sizes). */
const SE_CHANNELS = [720, 720, 528, 528, 384, 96, 96, 72];
const HUE_BINS = 8;
const SAT_BINS = 3;
const VAL_BINS = 3;
const HIST_SIZE = HUE_BINS * SAT_BINS * VAL_BINS;
const HIST_WEIGHT = 0.5;
export const IMAGE_EMBEDDING_DIMENSIONS = SE_CHANNELS.reduce((a, b) => a + b, 0) + HIST_SIZE;
/** Photos as vectors, as the processing module offers them (worker pool behind it). */
export interface ImageEmbedder {
  readonly provider: string;
  readonly model: string;
  readonly dimensions: number;
  embed(bytes: Uint8Array, options?: { signal?: AbortSignal }): Promise<Float32Array>;
}

/** The detector's input size. */
const INPUT = 512;

interface Tensor {
  data(): Promise<Float32Array>;
  dispose(): void;
}
interface Tf {
  tensor4d(values: Float32Array, shape: [number, number, number, number]): Tensor;
  loadGraphModel(url: string): Promise<{ execute(input: Tensor, outputs: string[]): Tensor[] }>;
  dispose(t: Tensor[]): void;
}

let loading: Promise<(pixels: Float32Array) => Promise<Float32Array[]>> | null = null;

/** The backbone, loaded once per thread on tfjs' WASM backend (the detector set it up). */
function loadBackbone() {
  loading ??= (async () => {
    await loadCocoDetector(); // initialises the WASM backend and the file:// model fetch
    const require = createRequire(import.meta.url);
    const humanDir = path.dirname(require.resolve('@vladmandic/human'));
    const mod = require(path.join(humanDir, 'human.node-wasm.js')) as {
      Human?: new (c: unknown) => { tf: Tf };
      default?: new (c: unknown) => { tf: Tf };
    };
    const Human = mod.Human ?? mod.default;
    if (!Human) throw new Error('@vladmandic/human did not export Human');
    const tf = new Human({ backend: 'wasm' }).tf;
    const model = await tf.loadGraphModel(
      pathToFileURL(path.join(humanDir, '..', 'models', 'centernet.json')).href,
    );
    return async (pixels: Float32Array) => {
      const input = tf.tensor4d(pixels, [1, INPUT, INPUT, 3]);
      const outputs = model.execute(input, SE_LAYERS);
      try {
        return await Promise.all(outputs.map((o) => o.data()));
      } finally {
        tf.dispose([input, ...outputs]);
      }
    };
  })().catch((err: unknown) => {
    loading = null;
    throw new Error(`loading the image model: ${(err as Error).message}`, { cause: err });
  });
  return loading;
}

function l2(values: Float32Array): Float32Array {
  let sum = 0;
  for (const v of values) sum += v * v;
  const n = Math.sqrt(sum) || 1;
  return values.map((v) => v / n);
}

/** Coarse HSV histogram of RGB bytes (square-rooted counts: one big area does not drown the rest). */
export function colourHistogram(rgb: Uint8Array): Float32Array {
  const hist = new Float32Array(HIST_SIZE);
  for (let i = 0; i + 2 < rgb.length; i += 3) {
    const r = rgb[i]! / 255;
    const g = rgb[i + 1]! / 255;
    const b = rgb[i + 2]! / 255;
    const max = Math.max(r, g, b);
    const d = max - Math.min(r, g, b);
    let h = 0;
    if (d > 0) h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    const s = max === 0 ? 0 : d / max;
    const hi = Math.min(HUE_BINS - 1, Math.floor((h / 6) * HUE_BINS));
    const si = Math.min(SAT_BINS - 1, Math.floor(s * SAT_BINS));
    const vi = Math.min(VAL_BINS - 1, Math.floor(max * VAL_BINS));
    hist[hi * SAT_BINS * VAL_BINS + si * VAL_BINS + vi]! += 1;
  }
  return l2(hist.map(Math.sqrt));
}

/** The vector of an upright RGB picture already resized to 512×512 (raw bytes, 3 per pixel). */
export async function embedPixels(rgb: Uint8Array): Promise<Float32Array> {
  if (rgb.length !== INPUT * INPUT * 3) throw new Error(`expected ${INPUT}×${INPUT} RGB pixels`);
  const run = await loadBackbone();
  const layers = await run(Float32Array.from(rgb));
  const out = new Float32Array(IMAGE_EMBEDDING_DIMENSIONS);
  let at = 0;
  for (const [i, layer] of layers.entries()) {
    if (layer.length !== SE_CHANNELS[i])
      throw new Error(`the image model changed: layer ${i} has ${layer.length} channels`);
    out.set(l2(layer), at);
    at += layer.length;
  }
  out.set(
    colourHistogram(rgb).map((v) => v * HIST_WEIGHT),
    at,
  );
  return l2(out);
}

const MAX_PIXELS = 100_000_000;

/** The vector of a photo (JPEG or PNG bytes); ImageRejectedError when it is not a readable picture. */
export async function embedImage(bytes: Uint8Array): Promise<Float32Array> {
  try {
    const header = readImageHeader(bytes); // sizes are checked before anything is decoded
    if (header.width * header.height > MAX_PIXELS) {
      throw new ImageRejectedError(
        `The image is ${header.width}×${header.height} pixels; pictures above 100 megapixels are not analysed.`,
      );
    }
  } catch (err) {
    if (err instanceof ImageHeaderError) {
      throw new ImageRejectedError('The file is not a JPEG or PNG picture, or it is damaged.', {
        cause: err,
      });
    }
    throw err;
  }
  let data: Buffer;
  try {
    ({ data } = await sharp(bytes, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize(INPUT, INPUT, { fit: 'fill' })
      .removeAlpha()
      .toColourspace('srgb') // a greyscale photo has one channel; the model reads three
      .raw()
      .toBuffer({ resolveWithObject: true }));
  } catch (err) {
    throw new ImageRejectedError(
      `The picture could not be read; it may be damaged (${(err as Error).message}).`,
      {
        cause: err,
      },
    );
  }
  return embedPixels(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}
