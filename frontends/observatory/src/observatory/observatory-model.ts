// The observatory's figures from the library (docs/product.md#states, #limits, #observatory): totals, the
// status label, connections, which carousel views exist, and the readable forms of bytes and durations. Pure.
import type { Insights } from '@kaboodle/kit';

/** docs/product.md#limits: the carousel turns every 6000 ms. */
export const AUTO_ROTATE_MS = 6000;
/** docs/product.md#limits: connections shown = min(total items, 8). */
export const MAX_CONNECTIONS = 8;

export type StatusLabel = 'standby' | 'ready' | 'processing' | 'operational';
export type ViewId = 'archives' | 'visual' | 'vault';

export const VIEW_TITLES: Record<ViewId, string> = {
  archives: 'Data Archives',
  visual: 'Visual Intelligence',
  vault: 'Knowledge Vault',
};

export interface Totals {
  /**
   * Inventory items + documents (docs/product.md#limits), counting files still being processed as pending
   * ones.
   */
  total: number;
  /** Stored and indexed: items with status processed + documents with indexed true. */
  processed: number;
  connections: number;
}

export function totalsOf(insights: Insights): Totals {
  const lib = insights.library;
  const stored = lib.documents + lib.inventory_items;
  const total = stored + lib.files_waiting;
  // What the search index holds is what is truly "indexed"; it may trail the catalogue by a moment.
  const indexed = insights.diagnostics.index ? Math.min(stored, insights.diagnostics.index.entities) : stored;
  return { total, processed: indexed, connections: Math.min(total, MAX_CONNECTIONS) };
}

/**
 * docs/product.md#states: standby when inactive; else ready with no items, processing while some wait,
 * operational.
 */
export function statusLabel(active: boolean, totals: Pick<Totals, 'total' | 'processed'>): StatusLabel {
  if (!active) return 'standby';
  if (totals.total === 0) return 'ready';
  return totals.processed < totals.total ? 'processing' : 'operational';
}

/** Data Archives (inventory), Visual Intelligence (only when an item has an image), Knowledge Vault. */
export function viewsOf(insights: Insights): ViewId[] {
  const lib = insights.library;
  if (lib.documents + lib.inventory_items + lib.files_waiting === 0) return [];
  return ['archives', ...(lib.images > 0 ? (['visual'] as const) : []), 'vault'];
}

/** The carousel's index after a step, wrapping at both ends (docs/product.md#states). */
export function stepIndex(index: number, count: number, step: number): number {
  if (count <= 0) return 0;
  return (((index + step) % count) + count) % count;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** The session clock: 00:04:07. */
export function sessionTime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export const percent = (share: number | null) => (share === null ? null : Math.round(share * 100));
