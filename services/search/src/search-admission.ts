// Bounds the search routes' work under overload: at most `concurrency` searches run at once and at
// most `queued` wait for a turn; past that a search is refused at once (503 with Retry-After)
// rather than queued without limit, which is how 100 hybrid req/s on 2 cores grew the server to
// 7.5–18 GB (docs/benchmarks/2026-11-26-search-product.md). Each admitted search embeds at most one
// query, so this bounds the query embedder's queue too. p-queue rather than a hand-made semaphore:
// it is maintained, and a waiting task whose AbortSignal fires (the client went away) leaves the
// queue and never runs.
import type { Response } from 'express';
import PQueue from 'p-queue';
import { errorBodySchema, UnavailableError } from '@kaboodle/platform';

/** The answer past the limit (the style of processing's "Too many files are being processed"). */
export const SEARCH_BUSY = 'Too many searches are running; try again shortly.';
/** Seconds a refused caller is asked to wait: a search takes milliseconds, so the queue drains fast. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

export class SearchBusyError extends UnavailableError {
  readonly retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS;
  constructor() {
    super(SEARCH_BUSY);
  }
}

export interface SearchAdmissionOptions {
  /** Searches running at once (SEARCH_MAX_CONCURRENT). */
  concurrency: number;
  /** Searches waiting for a turn beyond those (SEARCH_MAX_QUEUED). */
  queued: number;
}

export interface SearchAdmissionStats {
  running: number;
  waiting: number;
  /** Refused because running and waiting were full. */
  refused: number;
  /** Left the queue because their caller went away. */
  abandoned: number;
}

export interface SearchAdmission {
  /**
   * Runs `work` when a turn comes. Throws SearchBusyError at once when the searches running and
   * waiting are at the limit; rejects with the signal's reason, without running `work`, when
   * `signal` fires while it waits. A running search finishes (nothing reads a half answer) and
   * then frees its turn.
   */
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  stats(): SearchAdmissionStats;
}

export function createSearchAdmission(options: SearchAdmissionOptions): SearchAdmission {
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency) });
  const capacity = Math.max(1, options.concurrency) + Math.max(0, options.queued);
  let refused = 0;
  let abandoned = 0;
  return {
    async run(work, signal) {
      signal?.throwIfAborted();
      if (queue.pending + queue.size >= capacity) {
        refused++;
        throw new SearchBusyError();
      }
      try {
        return await queue.add(() => work(), signal ? { signal } : {});
      } catch (err) {
        if (signal?.aborted && err === signal.reason) abandoned++;
        throw err;
      }
    },
    stats: () => ({ running: queue.pending, waiting: queue.size, refused, abandoned }),
  };
}

/** The 503 body past the limit, as every search route answers it. */
export const BUSY_BODY = errorBodySchema.parse({
  error: SEARCH_BUSY,
  message: SEARCH_BUSY,
  code: 'SearchBusyError',
});

/** Aborts when the client goes away before its answer was sent (a waiting search then never runs). */
export function clientGone(res: Response): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort(new Error('the client closed the connection'));
  });
  return gone.signal;
}

/**
 * Runs an HTTP route's search in its turn, with the client's going away as its signal. Undefined
 * when it was answered already: 503 with Retry-After past the limit, nothing when the client went
 * away while it waited (no one reads an answer).
 */
export async function admitHttp<T>(
  admission: SearchAdmission,
  res: Response,
  reply: (status: 503, body: typeof BUSY_BODY) => void,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T | undefined> {
  const signal = clientGone(res);
  try {
    return await admission.run(() => work(signal), signal);
  } catch (err) {
    if (err instanceof SearchBusyError) {
      res.set('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
      reply(503, BUSY_BODY);
      return undefined;
    }
    if (signal.aborted && err === signal.reason) return undefined;
    throw err;
  }
}
