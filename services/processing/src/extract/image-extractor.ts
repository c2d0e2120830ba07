// JPEG/PNG → text by OCR. The header is read first so a giant image is refused or scaled down by
// libvips (shrink-on-load, sequential read) instead of being decoded whole into memory.
import sharp from 'sharp';
import type { ExtractionLimits } from '../limits/limits.ts';
import { ExtractionError } from './extractor.ts';
import { type ExtractContext, type FormatResult, throwIfAborted, tidyText } from './extract-context.ts';
import { ImageHeaderError, readImageHeader } from './image-header.ts';

/** Images smaller than this on their longest side are enlarged: tesseract reads ~30 px glyphs best. */
const MIN_OCR_SIDE = 1_200;

export interface PreparedImage {
  png: Buffer;
  width: number;
  height: number;
  /** Size the image was read at before scaling. */
  sourceWidth: number;
  sourceHeight: number;
}

export async function prepareImageForOcr(
  bytes: Uint8Array,
  limits: ExtractionLimits,
  warnings: string[],
): Promise<PreparedImage> {
  let header;
  try {
    header = readImageHeader(bytes);
  } catch (err) {
    if (err instanceof ImageHeaderError) {
      throw new ExtractionError('corrupt', `The image is damaged or incomplete (${err.message}).`, {
        cause: err,
      });
    }
    throw err;
  }
  const { width, height } = header;
  if (width === 0 || height === 0)
    throw new ExtractionError('corrupt', 'The image has no pixels (its header says 0×0).');
  const pixels = width * height;
  if (pixels > limits.maxImagePixels) {
    throw new ExtractionError(
      'too_large',
      `The image is ${width}×${height} pixels (${Math.round(pixels / 1e6)} megapixels); the limit is ${Math.round(limits.maxImagePixels / 1e6)} megapixels.`,
      { details: { width, height } },
    );
  }
  const longest = Math.max(width, height);
  const target =
    longest > limits.ocrMaxSide
      ? limits.ocrMaxSide
      : longest < MIN_OCR_SIDE
        ? Math.min(MIN_OCR_SIDE, longest * 3)
        : longest;
  try {
    // limitInputPixels = the header's own count: a file whose real size differs from its header fails.
    const { data, info } = await sharp(bytes, {
      limitInputPixels: pixels,
      sequentialRead: true,
      failOn: 'error',
    })
      .rotate()
      .resize({ width: target, height: target, fit: 'inside', kernel: 'lanczos3' })
      .grayscale()
      .normalise()
      .png({ compressionLevel: 1 })
      .toBuffer({ resolveWithObject: true });
    if (longest > limits.ocrMaxSide) {
      warnings.push(
        `The image (${width}×${height} pixels) was scaled down to ${info.width}×${info.height} for text recognition; small print may be missed.`,
      );
    }
    return { png: data, width: info.width, height: info.height, sourceWidth: width, sourceHeight: height };
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    if (/pixel limit/i.test(message)) {
      throw new ExtractionError(
        'too_large',
        'The image is larger than its header says; it was not processed.',
        { cause: err },
      );
    }
    throw new ExtractionError(
      'corrupt',
      `The ${header.format.toUpperCase()} image is damaged or incomplete.`,
      { cause: err },
    );
  }
}

export async function extractImage(bytes: Uint8Array, ctx: ExtractContext): Promise<FormatResult> {
  const prepared = await prepareImageForOcr(bytes, ctx.limits, ctx.warnings);
  throwIfAborted(ctx.signal);
  const { text, confidence } = await ctx.ocr().recognize(prepared.png);
  const clean = tidyText(text);
  if (clean.length === 0) ctx.warnings.push('No text was recognised in the image.');
  return {
    text: clean,
    pages: [{ n: 1, text: clean, ocr: true }],
    metadata: {
      width: prepared.sourceWidth,
      height: prepared.sourceHeight,
      ...(clean.length > 0 ? { ocrConfidence: Math.round(confidence) } : {}),
    },
  };
}
