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
        const { data } = await w.recognize(image);
        return { text: data.text, confidence: data.confidence };
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
