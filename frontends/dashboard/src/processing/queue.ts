// The Processing Hub's queue (docs/product.md#data "Queued file item", docs/product.md#states "File item"):
// items go ready → processing → completed | failed; Retry takes a failed one back to ready; only ready ones
// can be removed; Clear Completed and Clear All. Identity is by file name. A pure reducer, so it is tested
// without a browser.
import type { FileResult } from '../lib/dashboard-api.ts';
import { processFailedMessage } from './messages.ts';
import { isImageType, newItemId, resolveFileType, validateFile, type CandidateFile } from './file-rules.ts';

export type ItemStatus = 'ready' | 'processing' | 'completed' | 'failed';

export interface QueueItem {
  id: string;
  /** The picked file; null for a pasted link. */
  file: File | null;
  /** A pasted link, fetched by the server. */
  url: string | null;
  name: string;
  size: number;
  type: string;
  lastModified: number;
  status: ItemStatus;
  /** 0–100: upload share first, then the server's processing stages. */
  progress: number;
  error: string | null;
  /** What is happening now ("Uploading", "Extracting text"...). */
  phase: string | null;
  previewUrl: string | null;
  result: FileResult | null;
  /** The server's file id once uploaded: a retry reprocesses it rather than uploading again. */
  serverId: string | null;
  /** The server's note when it recognised the content as already uploaded (not processed twice). */
  duplicateNote: string | null;
}

export interface QueueState {
  items: QueueItem[];
  errors: string[];
}

export const initialQueue: QueueState = { items: [], errors: [] };

export type QueueAction =
  | { type: 'add'; items: QueueItem[]; errors: string[] }
  | { type: 'update'; id: string; patch: Partial<QueueItem> }
  | { type: 'remove'; id: string }
  | { type: 'retry'; id: string }
  | { type: 'clear-completed' }
  | { type: 'clear-errors' }
  | { type: 'error'; message: string };

export function queueReducer(state: QueueState, action: QueueAction): QueueState {
  switch (action.type) {
    case 'add':
      return {
        items: [...state.items, ...action.items],
        errors: action.errors.length ? [...state.errors, ...action.errors] : state.errors,
      };
    case 'update':
      return {
        ...state,
        items: state.items.map((item) => (item.id === action.id ? { ...item, ...action.patch } : item)),
      };
    case 'remove':
      return { ...state, items: state.items.filter((i) => !(i.id === action.id && i.status === 'ready')) };
    case 'retry': {
      // The item's failure leaves the error list with it: a retry that fails again adds it once more,
      // not a second copy beside the first.
      const item = state.items.find((i) => i.id === action.id && i.status === 'failed');
      const stale = item?.error
        ? new Set([processFailedMessage(item.name, item.error, item.url ? 'link' : 'file'), item.error])
        : new Set<string>();
      return {
        errors: state.errors.filter((e) => !stale.has(e)),
        items: state.items.map((i) =>
          i.id === action.id && i.status === 'failed'
            ? { ...i, status: 'ready', error: null, progress: 0, phase: null }
            : i,
        ),
      };
    }
    case 'clear-completed':
      return { ...state, items: state.items.filter((i) => i.status !== 'completed') };
    case 'clear-errors':
      return { ...state, errors: [] };
    case 'error':
      return { ...state, errors: [...state.errors, action.message] };
  }
}

function baseItem(now: number): Omit<QueueItem, 'name' | 'size' | 'type' | 'lastModified' | 'file' | 'url'> {
  return {
    id: newItemId(now),
    status: 'ready',
    progress: 0,
    error: null,
    phase: null,
    previewUrl: null,
    result: null,
    serverId: null,
    duplicateNote: null,
  };
}

/**
 * Checks picked or dropped files against the rules and the names already listed (and each other):
 * valid ones become ready items, the others become messages for the error list.
 */
export function admitFiles(
  files: readonly File[] | readonly (CandidateFile & { lastModified?: number })[],
  listed: readonly QueueItem[],
  previewFor: (file: File) => string | null = () => null,
  now: number = Date.now(),
): { items: QueueItem[]; errors: string[] } {
  const names = new Set(listed.map((i) => i.name));
  const items: QueueItem[] = [];
  const errors: string[] = [];
  for (const file of files) {
    const problem = validateFile(file, names);
    if (problem) {
      errors.push(problem);
      continue;
    }
    names.add(file.name);
    const type = resolveFileType(file.type, file.name) ?? file.type;
    const isFile = typeof File !== 'undefined' && file instanceof File;
    items.push({
      ...baseItem(now),
      file: isFile ? file : null,
      url: null,
      name: file.name,
      size: file.size,
      type,
      lastModified: file.lastModified ?? now,
      previewUrl: isFile && isImageType(type) ? previewFor(file) : null,
    });
  }
  return { items, errors };
}

/** A pasted link as a queue item (its name is the link, so the same link cannot be listed twice). */
export function admitUrl(
  url: string,
  listed: readonly QueueItem[],
  now: number = Date.now(),
): { items: QueueItem[]; errors: string[] } {
  if (listed.some((i) => i.name === url))
    return { items: [], errors: [`Link "${url}" is already in the list`] };
  return {
    items: [{ ...baseItem(now), file: null, url, name: url, size: 0, type: 'link', lastModified: now }],
    errors: [],
  };
}

/**
 * docs/product.md#processing-hub: overall progress comes from the file index (how many of the batch are
 * done).
 */
export function overallProgress(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((Math.min(done, total) / total) * 100);
}

/** Upload fills the first 30 % of an item's bar, the server's processing progress the rest. */
export const UPLOAD_SHARE = 30;
export const uploadBar = (percent: number): number =>
  Math.round((Math.max(0, Math.min(100, percent)) * UPLOAD_SHARE) / 100);
export const processingBar = (serverProgress: number): number =>
  Math.round(UPLOAD_SHARE + (Math.max(0, Math.min(100, serverProgress)) * (100 - UPLOAD_SHARE)) / 100);
