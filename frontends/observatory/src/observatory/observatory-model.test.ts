import { describe, expect, it } from 'vitest';
import type { Insights } from '@kaboodle/kit';
import {
  formatBytes,
  formatDuration,
  sessionTime,
  statusLabel,
  stepIndex,
  totalsOf,
  viewsOf,
} from './observatory-model.ts';

function insights(over: Partial<Insights['library']> = {}, indexed: number | null = null): Insights {
  const library = {
    documents: 0,
    document_categories: 0,
    inventory_items: 0,
    images: 0,
    images_analysed: 0,
    image_types: 0,
    kaboodles: 0,
    files_waiting: 0,
    files_waiting_images: 0,
    files_completed: 0,
    files_failed: 0,
    oldest_waiting_ms: 0,
    recent_processing_ms: null,
    ...over,
  };
  return {
    library,
    diagnostics: { index: indexed === null ? null : { entities: indexed, size_bytes: 0 } },
  } as unknown as Insights;
}

describe('observatory figures', () => {
  it('counts documents and items, with waiting files as pending, and caps connections at 8', () => {
    expect(totalsOf(insights({ documents: 3, inventory_items: 2 }))).toEqual({
      total: 5,
      processed: 5,
      connections: 5,
    });
    expect(totalsOf(insights({ documents: 9, inventory_items: 4, files_waiting: 2 }))).toEqual({
      total: 15,
      processed: 13,
      connections: 8,
    });
    // what the index has not taken in yet is not processed
    expect(totalsOf(insights({ documents: 3 }, 2)).processed).toBe(2);
  });

  it('labels the status as the spec says', () => {
    expect(statusLabel(false, { total: 5, processed: 5 })).toBe('standby');
    expect(statusLabel(true, { total: 0, processed: 0 })).toBe('ready');
    expect(statusLabel(true, { total: 5, processed: 3 })).toBe('processing');
    expect(statusLabel(true, { total: 5, processed: 5 })).toBe('operational');
  });

  it('shows Visual Intelligence only when an item has an image, and no views without data', () => {
    expect(viewsOf(insights())).toEqual([]);
    expect(viewsOf(insights({ documents: 1 }))).toEqual(['archives', 'vault']);
    expect(viewsOf(insights({ inventory_items: 1, images: 1 }))).toEqual(['archives', 'visual', 'vault']);
  });

  it('wraps the carousel index at both ends', () => {
    expect(stepIndex(2, 3, 1)).toBe(0);
    expect(stepIndex(0, 3, -1)).toBe(2);
    expect(stepIndex(1, 3, 1)).toBe(2);
    expect(stepIndex(0, 0, 1)).toBe(0);
  });

  it('formats bytes, durations and the session clock', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(250 * 1024 * 1024)).toBe('250 MB');
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(sessionTime(247_000)).toBe('00:04:07');
  });
});
