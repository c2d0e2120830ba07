// The thread side of worker-pool.ts: run one task per message and post back the value or a
// serialisable error (class instances do not survive structured cloning, so the fields are copied).
import { parentPort } from 'node:worker_threads';
import type { SerializedTaskError } from './worker-pool.ts';

export function serializeError(err: unknown): SerializedTaskError {
  if (err instanceof Error) {
    const e = err as Error & { code?: unknown; details?: unknown };
    return {
      name: e.name,
      message: e.message,
      ...(typeof e.code === 'string' ? { code: e.code } : {}),
      ...(e.details && typeof e.details === 'object'
        ? { details: e.details as Record<string, unknown> }
        : {}),
      ...(e.stack ? { stack: e.stack } : {}),
    };
  }
  return { name: 'Error', message: String(err) };
}

export function serveWorkerTasks<I, O>(handler: (input: I) => Promise<O>): void {
  if (!parentPort) throw new Error('serveWorkerTasks must run inside a worker thread');
  const port = parentPort;
  port.on('message', (message: { id: number; input: I }) => {
    handler(message.input).then(
      (value) => port.postMessage({ id: message.id, ok: true, value }),
      (err: unknown) => port.postMessage({ id: message.id, ok: false, error: serializeError(err) }),
    );
  });
}
