// Version-guarded bulk writes with back-pressure: operations go out in batches (by count and bytes)
// with a bounded number of `_bulk` requests in flight; items Elasticsearch rejects with 429 (its
// write queue is full), or a whole request answered 429/503, are retried with exponential backoff.
// External versioning makes every write conditional: a 409 means the index already holds that
// version or a later one, which the port counts as `stale`.
import type { Client } from '@elastic/elasticsearch';

export interface BulkOperation {
  id: string;
  version: number;
  document: Record<string, unknown>;
  /** Approximate serialised size (saves serialising twice); measured when absent. */
  bytes?: number;
}

export interface BulkOptions {
  /** Operations per `_bulk` request. */
  batchSize: number;
  /** Upper bound on a request's body (bytes, approximate). */
  maxBatchBytes: number;
  /** `_bulk` requests in flight at once. */
  concurrency: number;
  /** Attempts after the first for items (or requests) refused with 429. */
  maxRetries: number;
  /** First backoff; doubles per attempt, with jitter, capped at 10 s. */
  retryBaseMs: number;
  /** `true`: refresh the shards touched; 'wait_for': wait for the next scheduled refresh; false: neither. */
  refresh: boolean | 'wait_for';
  /**
   * `index` is an alias that must exist when the request runs (Elasticsearch's require_alias): if it
   * was removed meanwhile (a reindex swapped it away) nothing is written anywhere and the result
   * says `missing` instead of an index being auto-created under that name.
   */
  requireAlias?: boolean;
}

export interface BulkResult {
  applied: number;
  stale: number;
  /** Operations refused because the required alias no longer exists (requireAlias). */
  missing?: number;
  /** How many item or request retries were needed (back-pressure seen). */
  retries: number;
}

export const DEFAULT_BULK: BulkOptions = {
  batchSize: 500,
  maxBatchBytes: 5 * 1024 * 1024,
  concurrency: 2,
  maxRetries: 6,
  retryBaseMs: 100,
  refresh: 'wait_for',
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class BulkWriteError extends Error {}

/**
 * The HTTP status of a client ResponseError. Duck-typed: the client ships CommonJS and ESM builds
 * with distinct error classes, so `instanceof` depends on how it was loaded.
 */
export function esStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null || (err as Error).name !== 'ResponseError') return undefined;
  const status = (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** Split into batches by count and approximate serialized size. */
function batches(ops: BulkOperation[], options: BulkOptions): BulkOperation[][] {
  const out: BulkOperation[][] = [];
  let current: BulkOperation[] = [];
  let bytes = 0;
  for (const op of ops) {
    const size = (op.bytes ?? JSON.stringify(op.document).length) + 120;
    if (current.length > 0 && (current.length >= options.batchSize || bytes + size > options.maxBatchBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(op);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

function backoff(options: BulkOptions, attempt: number): number {
  const base = Math.min(options.retryBaseMs * 2 ** attempt, 10_000);
  return base / 2 + Math.random() * (base / 2);
}

interface BulkItemResult {
  status: number;
  error?: { type?: string; reason?: string | null };
}

/** Index (create or replace) each operation's document with its external version into `index`. */
export async function bulkIndex(
  client: Client,
  index: string,
  ops: BulkOperation[],
  options: BulkOptions,
): Promise<BulkResult> {
  for (const op of ops) {
    if (!Number.isSafeInteger(op.version) || op.version < 0) {
      throw new BulkWriteError(`version of ${op.id} must be a non-negative integer, got ${op.version}`);
    }
  }
  const result: BulkResult = { applied: 0, stale: 0, retries: 0 };
  const failures: string[] = [];
  const queue = batches(ops, options);
  const worker = async (): Promise<void> => {
    try {
      for (let batch = queue.shift(); batch; batch = queue.shift()) {
        await writeBatch(batch);
      }
    } catch (err) {
      queue.length = 0; // a real fault: the other workers stop taking batches
      throw err;
    }
  };

  const writeBatch = async (batch: BulkOperation[]): Promise<void> => {
    let pending = batch;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) {
        if (attempt > options.maxRetries) {
          failures.push(
            `${pending.length} operation(s) still refused with 429 after ${options.maxRetries} retries`,
          );
          return;
        }
        result.retries += pending.length;
        await sleep(backoff(options, attempt - 1));
      }
      let items: BulkItemResult[];
      try {
        const response = await client.bulk({
          index,
          refresh: options.refresh,
          ...(options.requireAlias && { require_alias: true }),
          operations: pending.flatMap((op) => [
            { index: { _id: op.id, version: op.version, version_type: 'external' as const } },
            op.document,
          ]),
        });
        items = response.items.map((item) => {
          const r = item.index ?? Object.values(item)[0];
          return { status: r?.status ?? 500, error: r?.error ?? undefined };
        });
      } catch (err) {
        // The whole request refused for load: retry it as a whole.
        const status = esStatus(err);
        if (status === 429 || status === 503) {
          continue;
        }
        if (options.requireAlias && status === 404) {
          result.missing = (result.missing ?? 0) + pending.length;
          return;
        }
        throw err;
      }
      const again: BulkOperation[] = [];
      items.forEach((item, i) => {
        const op = pending[i]!;
        if (item.status >= 200 && item.status < 300) result.applied++;
        else if (item.status === 409) result.stale++;
        else if (item.status === 429) again.push(op);
        else if (options.requireAlias && item.status === 404) result.missing = (result.missing ?? 0) + 1;
        else
          failures.push(
            `${op.id}: ${item.status} ${item.error?.type ?? ''} ${item.error?.reason ?? ''}`.trim(),
          );
      });
      pending = again;
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, queue.length)) }, worker));
  if (failures.length > 0) {
    throw new BulkWriteError(
      `bulk indexing into ${index}: ${failures.length} failure(s): ${failures.slice(0, 5).join('; ')}`,
    );
  }
  return result;
}
