// An Extractor that lets an OpenAI-compatible vision model read what offline OCR would read: the
// offline extractor still does everything (type detection, limits, text layers, DOCX/DOC/TXT/HTML,
// and tesseract on images and scanned PDF pages); then the OCR'd pages alone are sent to the model
// and its transcription replaces tesseract's. A failing or slow endpoint costs the better text,
// never the file: the offline OCR result is kept with a warning.
import { readFile } from 'node:fs/promises';
import type OpenAI from 'openai';
import sharp from 'sharp';
import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import type { Logger } from '@kaboodle/platform';
import { resolveLimits, type ExtractionLimits } from '../limits/limits.ts';
import { abortError, tidyText } from './extract-context.ts';
import type {
  ExtractInput,
  ExtractOptions,
  ExtractedPage,
  ExtractionResult,
  Extractor,
} from './extractor.ts';
import { readImageHeader } from './image-header.ts';
import { detectLanguage } from './language.ts';

export interface OpenAiAssistedExtractorOptions {
  /** The offline extractor (production: the pooled one); every file goes through it first. */
  base: Extractor;
  client: OpenAI;
  /** A vision-capable chat model (OPENAI_VISION_MODEL). */
  model: string;
  logger?: Logger;
  /** Longest side, in pixels, of what is sent (default 2048: enough for print, few tokens). */
  maxSide?: number;
  /** Per request (default: the client's timeout). */
  requestTimeoutMs?: number;
  /** Retries per request (default 1: the offline text is there to fall back on). */
  maxRetries?: number;
  /** The base extractor's default limits; the transcription step reuses timeoutMs and maxTextChars. */
  limits?: Partial<ExtractionLimits>;
}

const NO_TEXT = 'NO_TEXT';

const SYSTEM = `You transcribe text from images of documents, labels and photos.
Reply with the text that appears in the image, verbatim: the same words, spelling, numbers and line breaks, in reading order.
Do not translate, correct, summarise or describe the image. No commentary, no code fences.
If the image contains no legible text, reply with exactly ${NO_TEXT}.`;

/** The OCR'd pages (kept from the offline result) and how each ended. */
interface PageOutcome {
  n: number;
  offline: ExtractedPage;
  /** The model's text, or undefined when the offline text stays. */
  transcribed?: string;
  cut?: boolean;
}

export function createOpenAiAssistedExtractor(options: OpenAiAssistedExtractorOptions): Extractor {
  const maxSide = options.maxSide ?? 2048;
  const baseLimits = resolveLimits(options.limits);
  const log = options.logger;

  async function transcribe(
    jpeg: Buffer,
    what: string,
    signal: AbortSignal,
  ): Promise<{ text: string; cut: boolean }> {
    const completion = await options.client.chat.completions.create(
      {
        model: options.model,
        temperature: 0,
        messages: [
          { role: 'system', content: SYSTEM },
          {
            role: 'user',
            content: [
              { type: 'text', text: `Transcribe all text in ${what}.` },
              {
                type: 'image_url',
                image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}`, detail: 'high' },
              },
            ],
          },
        ],
      },
      {
        signal,
        maxRetries: options.maxRetries ?? 1,
        ...(options.requestTimeoutMs ? { timeout: options.requestTimeoutMs } : {}),
      },
    );
    const choice = completion.choices[0];
    const raw = (choice?.message?.content ?? '').trim().replace(/^```[a-z]*\n?|\n?```$/g, '');
    const text = tidyText(raw);
    return { text: text === NO_TEXT ? '' : text, cut: choice?.finish_reason === 'length' };
  }

  return {
    async extract(input: ExtractInput, opts: ExtractOptions = {}): Promise<ExtractionResult> {
      const result = await options.base.extract(input, opts);
      const ocrPages = (result.pages ?? []).filter((p) => p.ocr);
      // Text layers, Word files and plain text are exact already: the endpoint is not called.
      if (ocrPages.length === 0 || (result.kind !== 'image' && result.kind !== 'pdf')) return result;
      const limits = opts.limits ? resolveLimits({ ...baseLimits, ...opts.limits }) : baseLimits;
      const callerSignal = opts.signal;
      if (callerSignal?.aborted) throw abortError(callerSignal);
      // The model gets as long as the offline step may take; past that the rest keeps offline text.
      const budget = AbortSignal.timeout(limits.timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, budget]) : budget;

      const bytes = typeof input.bytes === 'string' ? await readFile(input.bytes) : input.bytes;
      const outcomes: PageOutcome[] = ocrPages.map((p) => ({ n: p.n, offline: p }));
      let failure: unknown;
      const pdf = result.kind === 'pdf' ? await openPdf(bytes) : null;
      try {
        for (const outcome of outcomes) {
          if (callerSignal?.aborted) throw abortError(callerSignal);
          let jpeg: Buffer;
          try {
            jpeg = pdf ? await renderPdfPage(pdf, outcome.n, maxSide) : await imageForModel(bytes, maxSide);
          } catch (err) {
            // The offline step read this page, so its text stays; the model just does not see it.
            log?.warn(
              { err, fileName: input.fileName, page: outcome.n },
              'page not prepared for the vision model',
            );
            continue;
          }
          try {
            const what = pdf ? `page ${outcome.n} of a scanned document` : 'this image';
            const { text, cut } = await transcribe(jpeg, what, signal);
            outcome.transcribed = text;
            outcome.cut = cut;
          } catch (err) {
            if (callerSignal?.aborted) throw abortError(callerSignal);
            // One failure stops the calls for this file: a down endpoint is not asked 30 times.
            failure = err;
            break;
          }
        }
      } finally {
        await pdf?.loadingTask.destroy().catch(() => undefined);
      }
      if (failure !== undefined) {
        log?.warn(
          { err: failure, fileName: input.fileName, model: options.model },
          'vision transcription failed; the offline OCR text is kept',
        );
      }
      return merge(result, outcomes, failure !== undefined, budget.aborted, limits, options.model);
    },
    close: () => options.base.close(),
  };
}

/** The offline result with the model's page texts in place of tesseract's, and warnings saying so. */
function merge(
  result: ExtractionResult,
  outcomes: PageOutcome[],
  failed: boolean,
  outOfTime: boolean,
  limits: ExtractionLimits,
  model: string,
): ExtractionResult {
  const byPage = new Map(outcomes.map((o) => [o.n, o]));
  const read: number[] = [];
  const kept: number[] = [];
  const blank: number[] = [];
  const cut: number[] = [];
  const pages = (result.pages ?? []).map((p) => {
    const o = byPage.get(p.n);
    if (!o) return p;
    if (o.transcribed === undefined) {
      kept.push(p.n);
      return p;
    }
    if (o.cut) cut.push(p.n);
    // The model saw no text where tesseract found some: keep tesseract's rather than lose it.
    if (o.transcribed.length === 0 && p.text.length > 0) {
      blank.push(p.n);
      return p;
    }
    read.push(p.n);
    return { n: p.n, text: o.transcribed, ocr: true };
  });
  if (read.length === 0 && kept.length === 0 && blank.length === 0) return result;

  const image = result.kind === 'image';
  const where = (ns: number[]) => (image ? 'the image' : `page${ns.length > 1 ? 's' : ''} ${listPages(ns)}`);
  let warnings = [...result.warnings];
  if (read.length > 0) {
    if (image && pages[0]!.text)
      warnings = warnings.filter((w) => w !== 'No text was recognised in the image.');
    warnings.push(`The text of ${where(read)} was read by the vision model ${model} instead of offline OCR.`);
  }
  if (cut.length > 0)
    warnings.push(`The vision model's text for ${where(cut)} may be incomplete (answer cut off).`);
  if (blank.length > 0)
    warnings.push(`The vision model ${model} saw no text on ${where(blank)}; the offline OCR text was kept.`);
  if (kept.length > 0) {
    const why = outOfTime
      ? 'the time limit was reached'
      : failed
        ? 'the AI endpoint failed or timed out'
        : 'the page could not be prepared';
    warnings.push(
      `The vision model ${model} could not read ${where(kept)} (${why}); the offline OCR text was kept.`,
    );
  }

  let text = image
    ? (pages[0]?.text ?? '')
    : pages
        .map((p) => p.text)
        .filter((t) => t.length > 0)
        .join('\n\n');
  let truncated = result.truncated;
  let finalPages = pages;
  if (text.length > limits.maxTextChars) {
    truncated = true;
    text = text.slice(0, limits.maxTextChars);
    warnings.push(
      `The text was cut to its first ${limits.maxTextChars.toLocaleString('en')} characters (text limit).`,
    );
    let room = limits.maxTextChars;
    finalPages = pages.map((p) => {
      const part = p.text.slice(0, Math.max(0, room));
      room -= part.length;
      return { ...p, text: part };
    });
  }
  const metadata = { ...result.metadata };
  if (read.length > 0) {
    metadata.extra = { ...metadata.extra, ocrEngine: `openai:${model}` };
    // tesseract's confidence no longer describes the text when every OCR'd page was replaced.
    if (kept.length === 0 && blank.length === 0) delete metadata.ocrConfidence;
  }
  const language = detectLanguage(text) ?? result.language;
  const { language: _old, ...rest } = result;
  return {
    ...rest,
    text,
    pages: finalPages,
    metadata,
    ...(language ? { language } : {}),
    warnings,
    truncated,
  };
}

/** JPEG ≤ maxSide for the model: EXIF-rotated, alpha flattened on white (JPEG has none). */
async function imageForModel(bytes: Uint8Array, maxSide: number): Promise<Buffer> {
  // The offline step already refused oversize and lying headers; the header's count bounds decoding.
  const { width, height } = readImageHeader(bytes);
  return sharp(bytes, { limitInputPixels: Math.max(1, width * height), sequentialRead: true })
    .rotate()
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toBuffer();
}

type PdfDocument = PDFDocumentProxy;

// pdf.js runs here, in the calling thread, only for files with scanned pages: the pooled extractor
// returns text, not page images, and re-rendering a page (~0.4 s) is cheap next to the model call.
async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const { getDocumentProxy } = await import('unpdf');
  // pdf.js detaches the buffer it is given: a fresh copy keeps the caller's bytes intact.
  return getDocumentProxy(new Uint8Array(bytes), {
    stopAtErrors: false,
    verbosity: 0,
    disableFontFace: true,
  });
}

async function renderPdfPage(pdf: PdfDocument, n: number, maxSide: number): Promise<Buffer> {
  const { renderPageAsImage } = await import('unpdf');
  const page = await pdf.getPage(n);
  const viewport = page.getViewport({ scale: 1 });
  const scale = Math.min(4, maxSide / Math.max(viewport.width, viewport.height, 1));
  const png = await renderPageAsImage(pdf, n, { canvasImport: () => import('@napi-rs/canvas'), scale });
  page.cleanup();
  return sharp(Buffer.from(png)).flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();
}

function listPages(ns: number[]): string {
  return ns.length > 10 ? `${ns.slice(0, 10).join(', ')} and ${ns.length - 10} more` : ns.join(', ');
}
