// Worker-thread entry for createPooledExtractor: one in-thread extractor (and so one tesseract
// worker and one set of loaded libraries) per thread, reused for every file the thread is given.
// The pool enforces the time limit by terminating this thread, so the in-thread timer is a backstop.
import { serveWorkerTasks } from '../limits/serve-worker-tasks.ts';
import type { ExtractionLimits } from '../limits/limits.ts';
import type { ExtractInput, ExtractionResult } from './extractor.ts';
import { createLocalExtractor } from './local-extractor.ts';

export interface ExtractTask {
  input: ExtractInput;
  limits: ExtractionLimits;
}

const extractor = createLocalExtractor();

serveWorkerTasks<ExtractTask, ExtractionResult>(({ input, limits }) =>
  extractor.extract(input, { limits: { ...limits, timeoutMs: limits.timeoutMs + 30_000 } }),
);
