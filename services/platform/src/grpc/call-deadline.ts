// The deadline of the gRPC call being served, so calls made while serving it (search → processing)
// give up when the original caller has: a downstream call never outlives its upstream caller.
// Kept in its own AsyncLocalStorage so it works with or without OpenTelemetry's context manager.
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<number>();

/** Run fn with `deadline` (epoch ms, or undefined for none) as the inherited call deadline. */
export function runWithCallDeadline<T>(deadline: number | undefined, fn: () => T): T {
  return deadline === undefined || !Number.isFinite(deadline) ? fn() : storage.run(deadline, fn);
}

/** The deadline inherited from the call being served, in epoch ms, if any. */
export function inheritedCallDeadline(): number | undefined {
  return storage.getStore();
}

/** A grpc-js deadline (Date, epoch ms or Infinity) as epoch ms, or undefined when unbounded. */
export function deadlineMs(deadline: Date | number | undefined): number | undefined {
  if (deadline === undefined) return undefined;
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}
