// Runs one queued item through the server: upload (with progress) or link submission, or a
// reprocess when the server already has it; then follows GET /process/status/{id} every ~700 ms
// until the file is completed or failed. Cancelling aborts an upload, or asks the server to cancel.
import { isApiError } from '@kaboodle/kit';
import { reasonOf, type DashboardApi, type Destination, type ServerFile } from '../lib/dashboard-api.ts';
import { stageLabel } from '../lib/format.ts';
import { uploadCancelledMessage } from './messages.ts';
import { processingBar, uploadBar, type QueueItem } from './queue.ts';

export const POLL_INTERVAL_MS = 700;
/** Status polls that may fail in a row (a blip in the connection) before the item fails. */
export const MAX_POLL_FAILURES = 4;
/** Abort reason meaning "the person pressed Cancel" (anything else, e.g. leaving the page, is not). */
export const CANCELLED_BY_USER = 'cancelled-by-user';

export { processFailedMessage, uploadCancelledMessage } from './messages.ts';
export const PROCESSING_CANCELLED = 'Processing cancelled';

export type ItemOutcome =
  | { status: 'completed'; file: ServerFile }
  | { status: 'failed'; reason: string; file: ServerFile | null }
  /** Stopped because the page went away: nothing to report. */
  | { status: 'abandoned' };

export interface ProcessOptions {
  instructions: string;
  destination: Destination;
}

export interface ProcessDeps {
  api: Pick<DashboardApi, 'uploadFile' | 'processUrl' | 'reprocess' | 'status' | 'cancel'>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  pollIntervalMs?: number;
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

const cancelledByUser = (signal: AbortSignal) => signal.aborted && signal.reason === CANCELLED_BY_USER;

/** What the item shows while the server works on it. */
export function patchForServerFile(file: ServerFile): Partial<QueueItem> {
  return {
    serverId: file.id,
    progress: file.status === 'completed' ? 100 : processingBar(file.progress),
    phase: file.status === 'queued' ? stageLabel('queued') : stageLabel(file.stage),
    result: file.result,
  };
}

export async function processItem(
  item: QueueItem,
  options: ProcessOptions,
  deps: ProcessDeps,
  signal: AbortSignal,
  update: (patch: Partial<QueueItem>) => void,
): Promise<ItemOutcome> {
  const sleep = deps.sleep ?? abortableSleep;
  const interval = deps.pollIntervalMs ?? POLL_INTERVAL_MS;
  const instructions = options.instructions.trim();

  let file: ServerFile;
  try {
    if (item.serverId) {
      // A retry of something the server already holds: process it again, no second upload.
      update({ phase: 'Queued for processing', progress: processingBar(0) });
      try {
        file = await deps.api.reprocess(item.serverId, {
          ...(instructions ? { instructions } : {}),
          destination: options.destination,
        });
      } catch (err) {
        // 409: it is already being processed; follow it instead.
        if (!(isApiError(err) && err.status === 409)) throw err;
        file = await deps.api.status(item.serverId, signal);
      }
    } else if (item.url) {
      update({ phase: 'Fetching link', progress: uploadBar(50) });
      file = await deps.api.processUrl(
        { url: item.url, ...(instructions ? { instructions } : {}), destination: options.destination },
        signal,
      );
    } else if (item.file) {
      const form = new FormData();
      form.append('file', item.file, item.name);
      if (instructions) form.append('instructions', instructions);
      form.append('destination', options.destination);
      update({ phase: 'Uploading', progress: 0 });
      file = await deps.api.uploadFile(
        form,
        (percent) => update({ phase: 'Uploading', progress: uploadBar(percent) }),
        signal,
      );
    } else {
      return { status: 'failed', reason: 'Nothing to process', file: null };
    }
  } catch (err) {
    if (signal.aborted) {
      if (!cancelledByUser(signal)) return { status: 'abandoned' };
      return { status: 'failed', reason: uploadCancelledMessage(item.name), file: null };
    }
    return { status: 'failed', reason: reasonOf(err), file: null };
  }

  update({
    ...patchForServerFile(file),
    ...(file.duplicate
      ? { duplicateNote: file.message ?? `Already uploaded as "${file.name}"; not processed again` }
      : {}),
  });

  let failures = 0;
  for (;;) {
    if (file.status === 'completed') return { status: 'completed', file };
    if (file.status === 'failed')
      return { status: 'failed', reason: file.error ?? 'Processing failed', file };
    if (file.status === 'cancelled')
      return { status: 'failed', reason: file.error ?? PROCESSING_CANCELLED, file };
    if (signal.aborted) break;
    await sleep(interval, signal);
    if (signal.aborted) break;
    try {
      file = await deps.api.status(file.id, signal);
      failures = 0;
      update(patchForServerFile(file));
    } catch (err) {
      if (signal.aborted) break;
      if (++failures >= MAX_POLL_FAILURES) return { status: 'failed', reason: reasonOf(err), file };
    }
  }

  // Aborted while the server works on it.
  if (!cancelledByUser(signal)) return { status: 'abandoned' };
  try {
    const cancelled = await deps.api.cancel(file.id);
    if (cancelled.status === 'completed') return { status: 'completed', file: cancelled };
    if (cancelled.status === 'failed' && cancelled.error)
      return { status: 'failed', reason: cancelled.error, file: cancelled };
    return { status: 'failed', reason: cancelled.message ?? PROCESSING_CANCELLED, file: cancelled };
  } catch (err) {
    return { status: 'failed', reason: reasonOf(err), file };
  }
}
