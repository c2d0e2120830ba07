// The embedded index's single writer: upserts, deletes and maintenance queue here and run one at a
// time (LanceDB commits conflict when two writers race), consecutive row writes from every caller
// coalesce into one batch, and a full queue makes callers wait (back-pressure).
import { wrapError } from '@kaboodle/platform';
import type { UpsertOutcome } from './search-index.port.ts';

/** What the queue needs of a row: its unique key and its version (the highest wins). */
export interface VersionedRow {
  key: string;
  version: bigint;
}

export interface WriteQueueOptions<R extends VersionedRow> {
  /** Rows per write (concurrent writes coalesce up to this). */
  maxBatchRows: number;
  /** Queued rows beyond which write() waits before queueing more. */
  maxQueuedRows: number;
  /** Writes one coalesced batch: one outcome per group, in order. */
  applyBatch(groups: R[][]): Promise<UpsertOutcome[]>;
  /** Runs after every batch, before the next op (maintenance when due); must not throw. */
  afterBatch?(): Promise<void> | void;
}

interface WriteOp<R> {
  kind: 'rows';
  rows: R[];
  resolve(o: UpsertOutcome): void;
  reject(e: unknown): void;
}
interface BarrierOp {
  kind: 'barrier';
  run(): Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}
type Op<R> = WriteOp<R> | BarrierOp;

export class WriteQueue<R extends VersionedRow> {
  private readonly queue: Op<R>[] = [];
  private queuedRows = 0;
  private draining: Promise<void> | undefined;
  private readonly spaceWaiters: (() => void)[] = [];
  private readonly maxBatchRows: number;
  private readonly maxQueuedRows: number;
  private readonly options: WriteQueueOptions<R>;

  constructor(options: WriteQueueOptions<R>) {
    this.options = options;
    this.maxBatchRows = options.maxBatchRows;
    this.maxQueuedRows = Math.max(options.maxQueuedRows, options.maxBatchRows);
  }

  /** Queues the rows (split into batches) and answers once all are written or found stale. */
  async write(rows: R[]): Promise<UpsertOutcome> {
    // The same entity twice in one call: only its highest version goes on (the rest are stale), even
    // when the call is split into several batches below.
    const best = new Map<string, R>();
    for (const r of rows) {
      const b = best.get(r.key);
      if (!b || r.version > b.version) best.set(r.key, r);
    }
    const duplicates = rows.length - best.size;
    const unique = [...best.values()];
    const chunks: R[][] = [];
    for (let i = 0; i < unique.length; i += this.maxBatchRows)
      chunks.push(unique.slice(i, i + this.maxBatchRows));
    const outcomes = await Promise.all(
      chunks.map(async (chunk) => {
        // Back-pressure: wait while the queue is full (a single oversized chunk still goes when empty).
        while (this.queuedRows > 0 && this.queuedRows + chunk.length > this.maxQueuedRows) {
          await new Promise<void>((r) => this.spaceWaiters.push(r));
        }
        return new Promise<UpsertOutcome>((resolve, reject) => {
          this.queue.push({ kind: 'rows', rows: chunk, resolve, reject });
          this.queuedRows += chunk.length;
          this.kick();
        });
      }),
    );
    return outcomes.reduce((a, o) => ({ applied: a.applied + o.applied, stale: a.stale + o.stale }), {
      applied: 0,
      stale: duplicates,
    });
  }

  /** Runs `run` alone, after every op queued before it and before any queued after it. */
  barrier(run: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ kind: 'barrier', run, resolve, reject });
      this.kick();
    });
  }

  /** Resolves once nothing is queued or running. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private kick(): void {
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    const queue = this.queue;
    while (queue.length > 0) {
      const head = queue[0]!;
      if (head.kind === 'barrier') {
        queue.shift();
        try {
          await head.run();
          head.resolve();
        } catch (err) {
          head.reject(err);
        }
        continue;
      }
      // Coalesce consecutive row writes from every caller into one batch.
      const batch: WriteOp<R>[] = [];
      let n = 0;
      while (queue.length > 0 && queue[0]!.kind === 'rows') {
        const op = queue[0] as WriteOp<R>;
        if (batch.length > 0 && n + op.rows.length > this.maxBatchRows) break;
        queue.shift();
        batch.push(op);
        n += op.rows.length;
      }
      try {
        const perOp = await this.options.applyBatch(batch.map((b) => b.rows));
        batch.forEach((op, i) => op.resolve(perOp[i]!));
      } catch (err) {
        const wrapped = wrapError('writing to the search index', err);
        for (const op of batch) op.reject(wrapped);
      } finally {
        this.queuedRows -= n;
        for (const w of this.spaceWaiters.splice(0)) w();
      }
      const after = this.options.afterBatch?.();
      if (after) await after;
    }
  }
}
