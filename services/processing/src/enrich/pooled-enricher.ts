// The offline enricher off the main thread: the same rules and NLP (offline-enricher.ts) in a
// worker thread, so a note's ~4–7 ms of summary, entity and tag work (up to ~0.3 s for a long
// document) no longer holds up uploads, PGlite and the event consumers that share the main thread.
// Same results: the task runs the very same enricher, only elsewhere.
import { UnavailableError } from '@kaboodle/platform';
import { WorkerTaskError, abortReason, createWorkerPool, type WorkerPool } from '../limits/worker-pool.ts';
import type { DocumentEnricher, DocumentEnrichment } from './document-enricher.ts';
import type { EnrichTask } from './enrich.worker.ts';
import type { OfflineEnricherOptions } from './offline-enricher.ts';

export interface PooledEnricherOptions extends OfflineEnricherOptions {
  /** Threads (default 1: a small note takes a few ms, a 25-page one ~0.3 s). */
  threads?: number;
  /** Per document, from when a thread picks it up (default 60 s: the first one also loads the NLP model). */
  timeoutMs?: number;
  /** Documents allowed to wait for a thread (default 64) before enrich() answers "busy". */
  maxQueued?: number;
}

export interface PooledEnricher extends DocumentEnricher {
  close(): Promise<void>;
}

export function createPooledOfflineEnricher(options: PooledEnricherOptions = {}): PooledEnricher {
  const { threads = 1, timeoutMs = 60_000, maxQueued = 64, ...enricherOptions } = options;
  const pool: WorkerPool<EnrichTask, DocumentEnrichment> = createWorkerPool({
    script: new URL('./enrich.worker.ts', import.meta.url),
    size: threads,
    maxQueued,
    // An idle service lets the thread (and its ~100 MB of NLP model) go; the next file reloads it.
    idleTimeoutMs: 10 * 60_000,
    resourceLimits: { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 },
    workerData: enricherOptions,
  });
  return {
    provider: 'local',
    async enrich(input, opts = {}) {
      opts.signal?.throwIfAborted();
      try {
        return await pool.run({ input }, { timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) });
      } catch (err) {
        if (!(err instanceof WorkerTaskError)) throw err;
        switch (err.kind) {
          case 'queue_full':
            throw new UnavailableError('Too many documents are being analysed; try again shortly.', {
              cause: err,
            });
          case 'aborted':
            throw abortReason(err);
          default:
            throw new Error(`analysing the document's text: ${err.message}`, { cause: err });
        }
      }
    },
    close: () => pool.close(),
  };
}
