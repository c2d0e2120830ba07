// The Processing Hub's queue and batch run (docs/product.md#processing-hub, #states "File item"): files and
// links are admitted into the queue, then processed one at a time with live progress; each item can be
// cancelled, retried or removed. Leaving the page stops following the files (the server keeps going).
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { reasonOf, type DashboardApi } from '../lib/dashboard-api.ts';
import { parseUrl } from './file-rules.ts';
import {
  CANCELLED_BY_USER,
  processFailedMessage,
  processItem,
  uploadCancelledMessage,
  type ProcessDeps,
} from './process-item.ts';
import { admitFiles, admitUrl, initialQueue, queueReducer, type QueueItem } from './queue.ts';
import type { ProcessingOptions } from './use-processing-options.ts';

export interface BatchState {
  total: number;
  done: number;
  current: string | null;
}

/** Object URLs of image previews live exactly as long as their queue items. */
function usePreviewUrls(items: QueueItem[]) {
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const live = new Set(items.map((i) => i.previewUrl).filter((u): u is string => u !== null));
    for (const url of previews.current) {
      if (!live.has(url)) {
        URL.revokeObjectURL(url);
        previews.current.delete(url);
      }
    }
    for (const url of live) previews.current.add(url);
  }, [items]);
  return previews;
}

export function useProcessingQueue(
  calls: DashboardApi,
  options: ProcessingOptions,
  processDeps?: Partial<ProcessDeps>,
) {
  const [queue, dispatch] = useReducer(queueReducer, initialQueue);
  const queueRef = useRef(queue);
  queueRef.current = queue;
  const [batch, setBatch] = useState<BatchState | null>(null);
  const controllers = useRef(new Map<string, AbortController>());
  const previews = usePreviewUrls(queue.items);

  useEffect(
    () => () => {
      for (const url of previews.current) URL.revokeObjectURL(url);
      // Leaving the page stops following the files; the server keeps processing them.
      for (const c of controllers.current.values()) c.abort('page-left');
    },
    [previews],
  );

  const addFiles = useCallback((files: File[]) => {
    dispatch({ type: 'add', ...admitFiles(files, queueRef.current.items, (f) => URL.createObjectURL(f)) });
  }, []);

  /** Queues a pasted link; answers why not, or null once it is queued. */
  const addLink = (text: string): string | null => {
    const parsed = parseUrl(text);
    if ('error' in parsed) return parsed.error;
    const admitted = admitUrl(parsed.url, queueRef.current.items);
    if (admitted.errors.length > 0) return admitted.errors[0]!;
    dispatch({ type: 'add', ...admitted });
    return null;
  };

  const runOne = async (item: QueueItem, deps: ProcessDeps): Promise<'abandoned' | 'done'> => {
    const controller = new AbortController();
    controllers.current.set(item.id, controller);
    dispatch({ type: 'update', id: item.id, patch: { status: 'processing', progress: 0, error: null } });
    const outcome = await processItem(
      item,
      { instructions: options.instructions, destination: options.destination },
      deps,
      controller.signal,
      (patch) => dispatch({ type: 'update', id: item.id, patch }),
    );
    controllers.current.delete(item.id);
    if (outcome.status === 'abandoned') return 'abandoned';
    if (outcome.status === 'completed') {
      const { result, id: serverId } = outcome.file;
      const patch = { status: 'completed', progress: 100, phase: 'Completed', result, serverId } as const;
      dispatch({ type: 'update', id: item.id, patch });
      return 'done';
    }
    const serverId = outcome.file?.id ?? item.serverId;
    dispatch({
      type: 'update',
      id: item.id,
      patch: { status: 'failed', error: outcome.reason, phase: null, serverId },
    });
    dispatch({
      type: 'error',
      message:
        outcome.reason === uploadCancelledMessage(item.name)
          ? outcome.reason
          : processFailedMessage(item.name, outcome.reason, item.url ? 'link' : 'file'),
    });
    return 'done';
  };

  const runBatch = async () => {
    const todo = queueRef.current.items.filter((i) => i.status === 'ready').map((i) => i.id);
    if (todo.length === 0 || options.tooLong) return;
    const deps: ProcessDeps = { api: calls, ...processDeps };
    setBatch({ total: todo.length, done: 0, current: null });
    try {
      for (let index = 0; index < todo.length; index++) {
        const item = queueRef.current.items.find((i) => i.id === todo[index]);
        // Removed meanwhile, or no longer ready: skip it, but count it for the overall progress.
        if (item && item.status === 'ready') {
          setBatch((b) => b && { ...b, current: item.name });
          if ((await runOne(item, deps)) === 'abandoned') return;
        }
        setBatch((b) => b && { ...b, done: index + 1 });
      }
    } catch (err) {
      dispatch({ type: 'error', message: `Batch processing failed: ${reasonOf(err)}` });
    } finally {
      setBatch(null);
    }
  };

  return {
    queue,
    batch,
    readyCount: queue.items.filter((i) => i.status === 'ready').length,
    completedCount: queue.items.filter((i) => i.status === 'completed').length,
    addFiles,
    addLink,
    runBatch,
    cancel: (id: string) => controllers.current.get(id)?.abort(CANCELLED_BY_USER),
    remove: (id: string) => dispatch({ type: 'remove', id }),
    retry: (id: string) => dispatch({ type: 'retry', id }),
    clearCompleted: () => dispatch({ type: 'clear-completed' }),
    clearErrors: () => dispatch({ type: 'clear-errors' }),
  };
}

export type ProcessingQueue = ReturnType<typeof useProcessingQueue>;
