// The pool's hard limits with a real worker thread: a spinning task is killed at its time limit,
// a leaking one at its heap cap, and the pool keeps serving afterwards with a fresh thread.
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerTaskError, createWorkerPool, type WorkerPool } from './worker-pool.ts';
import type { Behaviour } from './test-workers/behaviour.worker.ts';

const script = new URL('./test-workers/behaviour.worker.ts', import.meta.url);
let pool: WorkerPool<Behaviour, { value?: unknown; threadId: number }> | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as WorkerTaskError,
  );

describe('createWorkerPool', () => {
  it('runs tasks and reuses the same thread', async () => {
    pool = createWorkerPool({ script, size: 1 });
    const a = await pool.run({ do: 'echo', value: { n: 1 } });
    const b = await pool.run({ do: 'echo', value: 'two' });
    expect(a.value).toEqual({ n: 1 });
    expect(b.value).toBe('two');
    expect(a.threadId).toBe(b.threadId);
  });

  it('kills a task that blocks its thread past the time limit, then serves the next on a new thread', async () => {
    pool = createWorkerPool({ script, size: 1 });
    const first = await pool.run({ do: 'echo', value: 1 });
    const started = Date.now();
    const err = await failure(pool.run({ do: 'spin', ms: 60_000 }, { timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err).toBeInstanceOf(WorkerTaskError);
    expect(err?.kind).toBe('timeout');
    const next = await pool.run({ do: 'echo', value: 2 });
    expect(next.threadId).not.toBe(first.threadId);
    expect(pool.stats().killed).toBe(1);
  });

  it('kills a running task when its caller aborts', async () => {
    pool = createWorkerPool({ script, size: 1 });
    const controller = new AbortController();
    const pending = failure(pool.run({ do: 'spin', ms: 60_000 }, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    expect((await pending)?.kind).toBe('aborted');
  });

  it('turns a heap blow-up into an out_of_memory failure instead of crashing the process', async () => {
    pool = createWorkerPool({
      script,
      size: 1,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    const err = await failure(pool.run({ do: 'leak' }, { timeoutMs: 30_000 }));
    expect(err?.kind).toBe('out_of_memory');
    expect((await pool.run({ do: 'echo', value: 'alive' })).value).toBe('alive');
  }, 40_000);

  it("carries a task's own error across the thread boundary", async () => {
    pool = createWorkerPool({ script, size: 1 });
    const err = await failure(pool.run({ do: 'throw', message: 'bad input', code: 'E_BAD' }));
    expect(err?.kind).toBe('task');
    expect(err?.remote).toMatchObject({ name: 'Error', message: 'bad input', code: 'E_BAD' });
  });

  it('reports a thread that exits mid-task as crashed', async () => {
    pool = createWorkerPool({ script, size: 1 });
    const err = await failure(pool.run({ do: 'exit', code: 3 }));
    expect(err?.kind).toBe('crashed');
    expect(err?.message).toMatch(/code 3/);
  });

  it('queues beyond its threads, drops aborted queued tasks, and refuses past maxQueued', async () => {
    pool = createWorkerPool({ script, size: 1, maxQueued: 2 });
    const running = pool.run({ do: 'spin', ms: 300 });
    const controller = new AbortController();
    const queuedAborted = failure(pool.run({ do: 'echo', value: 'never' }, { signal: controller.signal }));
    const queued = pool.run({ do: 'echo', value: 'later' });
    expect((await failure(pool.run({ do: 'echo', value: 'too many' })))?.kind).toBe('queue_full');
    controller.abort();
    expect((await queuedAborted)?.kind).toBe('aborted');
    expect(pool.stats().queued).toBe(1);
    await running;
    expect((await queued).value).toBe('later');
  });

  it('rejects waiting and running tasks when closed', async () => {
    pool = createWorkerPool({ script, size: 1 });
    const running = failure(pool.run({ do: 'spin', ms: 5_000 }));
    const waiting = failure(pool.run({ do: 'echo', value: 1 }));
    await new Promise((r) => setTimeout(r, 50));
    await pool.close();
    expect((await running)?.kind).toBe('closed');
    expect((await waiting)?.kind).toBe('closed');
    expect((await failure(pool.run({ do: 'echo', value: 1 })))?.kind).toBe('closed');
  });
});
