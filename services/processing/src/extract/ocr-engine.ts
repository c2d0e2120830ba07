// One tesseract.js worker per thread, created on first use and reused (loading the English LSTM
// model costs ~300 ms). Weights come from @tesseract.js-data/eng inside node_modules: nothing is
// downloaded, which is why langPath points at the package's 4.0.0_best_int folder and the cache is off.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker as TesseractWorker } from 'tesseract.js';

export interface OcrResult {
  text: string;
  /** Mean word confidence, 0–100. */
  confidence: number;
}

export interface OcrEngine {
  recognize(image: Buffer): Promise<OcrResult>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

export function englishLangPath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** Lines below this confidence are dropped: on photos without words tesseract reads shapes as "I|". */
export const MIN_LINE_CONFIDENCE = 45;

interface OcrBlock {
  paragraphs: { lines: { text: string; confidence: number }[] }[];
}

export function keepConfidentLines(blocks: OcrBlock[] | null, text: string, confidence: number): OcrResult {
  if (!blocks) return { text, confidence };
  const kept: { text: string; confidence: number }[] = [];
  const paragraphs: string[] = [];
  for (const block of blocks) {
    for (const paragraph of block.paragraphs) {
      const lines = paragraph.lines.filter(
        (line) =>
          line.confidence >= MIN_LINE_CONFIDENCE && (line.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2,
      );
      kept.push(...lines);
      if (lines.length > 0) paragraphs.push(lines.map((line) => line.text.trim()).join('\n'));
    }
  }
  const chars = kept.reduce((n, line) => n + line.text.length, 0);
  const mean = chars > 0 ? kept.reduce((n, line) => n + line.confidence * line.text.length, 0) / chars : 0;
  return { text: paragraphs.join('\n\n'), confidence: mean };
}

export function createOcrEngine(): OcrEngine {
  let worker: Promise<TesseractWorker> | null = null;
  // tesseract.js queues jobs itself, but chaining keeps one image in flight per engine (bounded memory).
  let tail: Promise<unknown> = Promise.resolve();

  const getWorker = (): Promise<TesseractWorker> => {
    worker ??= (async () => {
      const { createWorker, OEM } = await import('tesseract.js');
      return createWorker('eng', OEM.LSTM_ONLY, {
        langPath: englishLangPath(),
        gzip: true,
        cacheMethod: 'none',
      });
    })();
    worker.catch(() => {
      worker = null; // let the next call try again instead of caching a failure forever
    });
    return worker;
  };

  return {
    recognize(image) {
      const run = tail.then(async () => {
        const w = await getWorker();
        const { data } = await w.recognize(image, {}, { text: true, blocks: true });
        return keepConfidentLines(data.blocks, data.text, data.confidence);
      });
      tail = run.catch(() => undefined);
      return run;
    },
    async close() {
      const pending = worker;
      worker = null;
      if (pending) await (await pending.catch(() => null))?.terminate();
    },
  };
}
