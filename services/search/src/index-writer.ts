// A write-behind buffer in front of the index: concurrent event handlers (and a rebuild) hand in
// upserts and deletes; they are written as one batch (group commit: the first write goes out after
// a short linger, writes arriving meanwhile wait for the next batch, flushed by size or when the
// previous batch lands). Each caller's promise settles when its own write is durable, so the bus
// commits an event only then. Within a batch only the latest version of an entity is written.
import type { EntityRef, IndexedEntity, SearchIndex } from './index/search-index.port.ts';

export type WriteResult = 'applied' | 'stale';

interface PendingWrite {
  key: string;
  version: number;
  op: { kind: 'upsert'; entity: IndexedEntity } | { kind: 'delete'; ref: EntityRef };
  resolve(result: WriteResult): void;
  reject(err: unknown): void;
}

export interface IndexWriterOptions {
  index: Pick<SearchIndex, 'upsert' | 'delete'>;
  /** Most writes per batch (default 500). */
  maxBatch?: number;
  /** How long the first write of an idle writer waits for company (default 5 ms). */
  lingerMs?: number;
  /** Called with the owners of a batch once it is written, before its callers hear of it. */
  onWritten?: (ownerIds: Set<string>) => void;
}

export interface IndexWriter {
  upsert(entity: IndexedEntity): Promise<WriteResult>;
  delete(ref: EntityRef): Promise<WriteResult>;
  /** Resolves when everything handed in so far is written (or failed). */
  flush(): Promise<void>;
  /** Flush, then refuse new writes. */
  close(): Promise<void>;
  readonly stats: { batches: number; writes: number };
}

export function createIndexWriter(options: IndexWriterOptions): IndexWriter {
  const maxBatch = options.maxBatch ?? 500;
  const lingerMs = options.lingerMs ?? 5;
  let queue: PendingWrite[] = [];
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let closed = false;
  const stats = { batches: 0, writes: 0 };

  async function write(batch: PendingWrite[]): Promise<void> {
    // Keep the highest version of each entity; the older ones in this batch are stale by definition.
    const latest = new Map<string, PendingWrite>();
    for (const w of batch) {
      const seen = latest.get(w.key);
      if (!seen || w.version > seen.version) {
        if (seen) seen.resolve('stale');
        latest.set(w.key, w);
      } else w.resolve('stale');
    }
    const winners = [...latest.values()];
    const upserts = winners.filter((w) => w.op.kind === 'upsert');
    const deletes = winners.filter((w) => w.op.kind === 'delete');
    stats.batches++;
    stats.writes += winners.length;
    await Promise.all([
      settle(upserts, () =>
        options.index.upsert(upserts.map((w) => (w.op as { entity: IndexedEntity }).entity)),
      ),
      settle(deletes, () => options.index.delete(deletes.map((w) => (w.op as { ref: EntityRef }).ref))),
    ]);
  }

  /**
   * The port reports counts, not which entity was stale: exact when all applied or all were stale;
   * a mixed batch reports 'applied' for each (the outcome is informational: both commit the event).
   */
  async function settle(
    writes: PendingWrite[],
    run: () => Promise<{ applied: number; stale: number }>,
  ): Promise<void> {
    if (writes.length === 0) return;
    // A failed batch may still have written part of itself: the owners' cached answers go either way.
    const written = () =>
      options.onWritten?.(
        new Set(writes.map((w) => (w.op.kind === 'upsert' ? w.op.entity.ownerId : w.op.ref.ownerId))),
      );
    let outcome: { applied: number; stale: number };
    try {
      outcome = await run();
    } catch (err) {
      written();
      for (const w of writes) w.reject(err);
      return;
    }
    written();
    const result: WriteResult = outcome.applied === 0 && outcome.stale > 0 ? 'stale' : 'applied';
    for (const w of writes) w.resolve(result);
  }

  function schedule(): void {
    if (inFlight || timer || queue.length === 0) return;
    if (queue.length >= maxBatch) {
      drain();
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      drain();
    }, lingerMs);
  }

  function drain(): void {
    if (inFlight || queue.length === 0) return;
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(maxBatch);
    inFlight = write(batch).finally(() => {
      inFlight = undefined;
      // Writes that arrived during this batch go out at once: they have waited long enough.
      if (queue.length > 0) drain();
    });
  }

  function enqueue(key: string, version: number, op: PendingWrite['op']): Promise<WriteResult> {
    if (closed) return Promise.reject(new Error('the index writer is closed'));
    return new Promise<WriteResult>((resolve, reject) => {
      queue.push({ key, version, op, resolve, reject });
      if (queue.length >= maxBatch && !inFlight) drain();
      else schedule();
    });
  }

  async function flush(): Promise<void> {
    while (inFlight || queue.length > 0) {
      if (!inFlight) drain();
      await inFlight?.catch(() => undefined);
    }
  }

  return {
    upsert: (entity) =>
      enqueue(`${entity.entityType}:${entity.id}`, entity.version, { kind: 'upsert', entity }),
    delete: (ref) => enqueue(`${ref.entityType}:${ref.id}`, ref.version, { kind: 'delete', ref }),
    flush,
    async close() {
      await flush();
      closed = true;
    },
    stats,
  };
}
