// A small worker-thread pool with hard per-task limits: each task runs alone in its thread; when its
// time runs out or its caller aborts, the thread is terminated (a hung native call or a runaway loop
// cannot outlive its limit) and a fresh one is started for the next task. A V8 heap cap per thread
// (resourceLimits) turns a memory blow-up into a task failure instead of a process crash.
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface WorkerPoolOptions {
  /** The worker script (it calls serveWorkerTasks). */
  script: URL | string;
  /** Threads at most; they start on demand. */
  size: number;
  resourceLimits?: ResourceLimits;
  /** Tasks allowed to wait for a thread; past this, run() rejects at once (back-pressure). */
  maxQueued?: number;
  /** Idle threads are stopped after this long (0 keeps them). */
  idleTimeoutMs?: number;
  workerData?: unknown;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Hard limit, counted from when a thread picks the task up. */
  timeoutMs?: number;
}

/** Why a task failed outside the task's own code. */
export type WorkerFailureKind = 'timeout' | 'aborted' | 'out_of_memory' | 'crashed' | 'queue_full' | 'closed';

/** A failure raised by the task itself, carried across the thread boundary. */
export interface SerializedTaskError {
  name: string;
  message: string;
  code?: string;
  details?: Record<string, unknown>;
  stack?: string;
}

export class WorkerTaskError extends Error {
  readonly kind: WorkerFailureKind | 'task';
  /** Present when kind is 'task'. */
  readonly remote: SerializedTaskError | undefined;
  constructor(
    kind: WorkerFailureKind | 'task',
    message: string,
    remote?: SerializedTaskError,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WorkerTaskError';
    this.kind = kind;
    this.remote = remote;
  }
}

/** For an `aborted` failure: the reason the caller aborted with, else a plain "cancelled" error. */
export function abortReason(err: WorkerTaskError): Error {
  return err.cause instanceof Error ? err.cause : new Error('Processing was cancelled.', { cause: err });
}

export interface WorkerPool<I, O> {
  run(input: I, options?: RunOptions): Promise<O>;
  /** Threads alive / busy, tasks waiting, threads replaced after a kill (for metrics and tests). */
  stats(): { threads: number; busy: number; queued: number; killed: number };
  close(): Promise<void>;
}

interface Task<I, O> {
  id: number;
  input: I;
  options: RunOptions;
  resolve(value: O): void;
  reject(err: Error): void;
  onAbort?: () => void;
}

interface Slot<I, O> {
  worker: Worker;
  task: Task<I, O> | null;
  timer: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
  /** Set when we terminate it on purpose, so its exit is not reported as a crash. */
  retiring: boolean;
}

type Reply<O> = { id: number; ok: true; value: O } | { id: number; ok: false; error: SerializedTaskError };

export function createWorkerPool<I, O>(options: WorkerPoolOptions): WorkerPool<I, O> {
  if (!Number.isInteger(options.size) || options.size < 1)
    throw new Error('worker pool size must be a positive integer');
  const maxQueued = options.maxQueued ?? 100;
  const slots = new Set<Slot<I, O>>();
  const queue: Task<I, O>[] = [];
  let nextId = 1;
  let killed = 0;
  let closed = false;

  const spawn = (): Slot<I, O> => {
    const worker = new Worker(options.script, {
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
      workerData: options.workerData,
    });
    const slot: Slot<I, O> = { worker, task: null, timer: null, idle: null, retiring: false };
    worker.on('message', (reply: Reply<O>) => {
      const task = slot.task;
      if (!task || reply.id !== task.id) return;
      settle(slot);
      if (reply.ok) task.resolve(reply.value);
      else task.reject(new WorkerTaskError('task', reply.error.message, reply.error));
      dispatch();
    });
    let failure: WorkerTaskError | null = null;
    worker.on('error', (err: Error & { code?: string }) => {
      failure =
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new WorkerTaskError('out_of_memory', 'the worker thread ran out of memory', undefined, {
              cause: err,
            })
          : new WorkerTaskError('crashed', `the worker thread failed: ${err.message}`, undefined, {
              cause: err,
            });
    });
    worker.on('exit', (code) => {
      slots.delete(slot);
      const task = slot.task;
      if (task && !slot.retiring) {
        settle(slot);
        task.reject(failure ?? new WorkerTaskError('crashed', `the worker thread exited with code ${code}`));
      }
      if (slot.timer) clearTimeout(slot.timer);
      if (slot.idle) clearTimeout(slot.idle);
      dispatch();
    });
    slots.add(slot);
    return slot;
  };

  /** Detach the finished task from its slot (timer, abort listener). */
  const settle = (slot: Slot<I, O>): void => {
    const task = slot.task;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (task?.onAbort) task.options.signal?.removeEventListener('abort', task.onAbort);
    slot.task = null;
    // An idle thread must not keep the process alive (a script that forgets close() still exits).
    slot.worker.unref();
    if (options.idleTimeoutMs && options.idleTimeoutMs > 0 && !slot.retiring) {
      slot.idle = setTimeout(() => retire(slot), options.idleTimeoutMs);
      slot.idle.unref();
    }
  };

  const retire = (slot: Slot<I, O>): void => {
    slot.retiring = true;
    slots.delete(slot);
    void slot.worker.terminate();
  };

  /** Kill the thread running a task and fail the task with `err`. */
  const kill = (slot: Slot<I, O>, err: WorkerTaskError): void => {
    const task = slot.task;
    killed++;
    settle(slot);
    retire(slot);
    task?.reject(err);
    dispatch();
  };

  const start = (slot: Slot<I, O>, task: Task<I, O>): void => {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.task = task;
    slot.worker.ref();
    const { signal, timeoutMs } = task.options;
    if (timeoutMs !== undefined) {
      slot.timer = setTimeout(
        () => kill(slot, new WorkerTaskError('timeout', `the task ran past its ${timeoutMs} ms limit`)),
        timeoutMs,
      );
    }
    if (signal) {
      task.onAbort = () =>
        kill(
          slot,
          new WorkerTaskError('aborted', 'the task was aborted', undefined, { cause: signal.reason }),
        );
      signal.addEventListener('abort', task.onAbort, { once: true });
    }
    slot.worker.postMessage({ id: task.id, input: task.input });
  };

  const dispatch = (): void => {
    while (queue.length > 0 && !closed) {
      let slot = [...slots].find((s) => s.task === null && !s.retiring);
      if (!slot && slots.size < options.size) slot = spawn();
      if (!slot) return;
      const task = queue.shift()!;
      if (task.onAbort) task.options.signal?.removeEventListener('abort', task.onAbort);
      task.onAbort = undefined;
      start(slot, task);
    }
  };

  return {
    run(input, runOptions = {}) {
      if (closed) return Promise.reject(new WorkerTaskError('closed', 'the worker pool is closed'));
      if (runOptions.signal?.aborted) {
        return Promise.reject(
          new WorkerTaskError('aborted', 'the task was aborted', undefined, {
            cause: runOptions.signal.reason,
          }),
        );
      }
      const busy = [...slots].filter((s) => s.task !== null).length;
      if (queue.length >= maxQueued && busy >= options.size) {
        return Promise.reject(
          new WorkerTaskError('queue_full', `the worker pool has ${queue.length} tasks waiting`),
        );
      }
      return new Promise<O>((resolve, reject) => {
        const task: Task<I, O> = { id: nextId++, input, options: runOptions, resolve, reject };
        if (runOptions.signal) {
          // While queued, an abort just removes the task.
          task.onAbort = () => {
            const at = queue.indexOf(task);
            if (at >= 0) queue.splice(at, 1);
            reject(
              new WorkerTaskError('aborted', 'the task was aborted', undefined, {
                cause: runOptions.signal?.reason,
              }),
            );
          };
          runOptions.signal.addEventListener('abort', task.onAbort, { once: true });
        }
        queue.push(task);
        dispatch();
      });
    },
    stats() {
      return {
        threads: slots.size,
        busy: [...slots].filter((s) => s.task !== null).length,
        queued: queue.length,
        killed,
      };
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) {
        if (task.onAbort) task.options.signal?.removeEventListener('abort', task.onAbort);
        task.reject(new WorkerTaskError('closed', 'the worker pool is closed'));
      }
      const all = [...slots];
      for (const slot of all) {
        const task = slot.task;
        settle(slot);
        slot.retiring = true;
        task?.reject(new WorkerTaskError('closed', 'the worker pool is closed'));
      }
      slots.clear();
      await Promise.all(all.map((s) => s.worker.terminate()));
    },
  };
}
