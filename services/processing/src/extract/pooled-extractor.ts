// The production Extractor: every file runs in a worker thread with a hard time limit (the thread is
// terminated, not asked to stop) and a V8 heap cap, so a hostile or broken file costs one thread,
// never the service. Threads are reused, so libraries and the OCR model load once per thread.
import { UnavailableError } from '@kaboodle/platform';
import { resolveLimits, type ExtractionLimits } from '../limits/limits.ts';
import { WorkerTaskError, createWorkerPool, type WorkerPool } from '../limits/worker-pool.ts';
import {
  ExtractionError,
  REASONS,
  type ExtractInput,
  type ExtractOptions,
  type ExtractionErrorCode,
  type ExtractionResult,
  type Extractor,
} from './extractor.ts';
import type { ExtractTask } from './extract.worker.ts';

export interface PooledExtractorOptions {
  /** Worker threads (default 1: OCR and PDF rendering already use more than one core). */
  threads?: number;
  /** Defaults for every call. maxMemoryMb is fixed per thread at start. */
  limits?: Partial<ExtractionLimits>;
  /** Files allowed to wait for a thread before extract() answers "busy". */
  maxQueued?: number;
  /** Stop threads idle this long (default 5 min; 0 keeps them). */
  idleTimeoutMs?: number;
}

const CODES = new Set<ExtractionErrorCode>([
  'password_protected',
  'corrupt',
  'empty',
  'type_mismatch',
  'too_large',
  'timeout',
  'unsupported',
  'aborted',
]);

export function createPooledExtractor(options: PooledExtractorOptions = {}): Extractor {
  const baseLimits = resolveLimits(options.limits);
  const pool: WorkerPool<ExtractTask, ExtractionResult> = createWorkerPool({
    script: new URL('./extract.worker.ts', import.meta.url),
    size: options.threads ?? 1,
    maxQueued: options.maxQueued ?? 16,
    idleTimeoutMs: options.idleTimeoutMs ?? 5 * 60_000,
    resourceLimits: {
      maxOldGenerationSizeMb: baseLimits.maxMemoryMb,
      maxYoungGenerationSizeMb: 64,
      stackSizeMb: 8,
    },
  });

  return {
    async extract(input: ExtractInput, opts: ExtractOptions = {}): Promise<ExtractionResult> {
      const limits = opts.limits ? resolveLimits({ ...baseLimits, ...opts.limits }) : baseLimits;
      if (input.bytes instanceof Uint8Array && input.bytes.length > limits.maxBytes) {
        throw new ExtractionError('too_large', REASONS.tooLarge(input.bytes.length, limits.maxBytes));
      }
      try {
        return await pool.run(
          { input, limits },
          { timeoutMs: limits.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) },
        );
      } catch (err) {
        throw mapPoolError(err, limits);
      }
    },
    close: () => pool.close(),
  };
}

function mapPoolError(err: unknown, limits: ExtractionLimits): Error {
  if (!(err instanceof WorkerTaskError)) return err instanceof Error ? err : new Error(String(err));
  switch (err.kind) {
    case 'task': {
      const remote = err.remote!;
      if (remote.name === 'ExtractionError' && CODES.has(remote.code as ExtractionErrorCode)) {
        return new ExtractionError(remote.code as ExtractionErrorCode, remote.message, {
          ...(remote.details ? { details: remote.details } : {}),
        });
      }
      const plain = new Error(remote.message);
      plain.name = remote.name;
      if (remote.stack) plain.stack = remote.stack;
      return plain;
    }
    case 'timeout':
      return new ExtractionError('timeout', REASONS.timeout(limits.timeoutMs), { cause: err });
    case 'aborted':
      return new ExtractionError('aborted', REASONS.aborted, { cause: err });
    case 'out_of_memory':
      return new ExtractionError('too_large', REASONS.memory(limits.maxMemoryMb), { cause: err });
    case 'crashed':
      return new ExtractionError('corrupt', 'Reading this file failed unexpectedly; it may be damaged.', {
        cause: err,
      });
    case 'queue_full':
      return new UnavailableError('Too many files are being processed; try again shortly.', { cause: err });
    case 'closed':
      return new Error('extracting: the extractor is closed', { cause: err });
  }
}
