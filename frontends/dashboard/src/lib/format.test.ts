// Display formats and the parsing of the server's answers (a surprise reads as "Invalid API response").
import { describe, expect, it } from 'vitest';
import { ApiError } from '@kaboodle/kit';
import {
  BUSY_REFRESH_MS,
  IDLE_REFRESH_MS,
  WATCH_AFTER_FOCUS_MS,
  filesInFlight,
  metricsOf,
  nextRefreshMs,
} from '../dashboard/dashboard-home.tsx';
import { mergePage } from '../media-hub/media-hub.tsx';
import {
  activityLink,
  parseActivity,
  parseFile,
  parseFilesPage,
  parseSettings,
  parseStats,
  reasonOf,
} from './dashboard-api.ts';
import { formatBytes, formatPercent, relativeTime, stageLabel, typeLabel } from './format.ts';

describe('formats', () => {
  it('writes storage like "2.4GB"', () => {
    expect(formatBytes(0)).toBe('0B');
    expect(formatBytes(512)).toBe('512B');
    expect(formatBytes(1536)).toBe('1.5KB');
    expect(formatBytes(12 * 1024)).toBe('12KB');
    expect(formatBytes(2.4 * 1024 ** 3)).toBe('2.4GB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1MB');
    expect(formatBytes(Number.NaN)).toBe('0B');
  });

  it('writes efficiency as a whole percent, or "—" when no file finished', () => {
    expect(formatPercent(0.98)).toBe('98%');
    expect(formatPercent(2 / 3)).toBe('67%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(null)).toBe('—');
  });

  it('says how long ago something happened', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(relativeTime('2026-11-22T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-11-22T11:55:00Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-11-22T09:00:00Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-11-21T11:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('garbage', now)).toBe('');
  });

  it('names stages and types', () => {
    expect(stageLabel('extracting_text')).toBe('Extracting text');
    expect(stageLabel('something_new')).toBe('Something new');
    expect(stageLabel(null)).toBe('Processing');
    expect(typeLabel('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('DOCX');
    expect(typeLabel('', 'notes.md')).toBe('MD');
  });
});

describe('dashboard metrics (docs/product.md#dashboard: real values)', () => {
  const stats = parseStats({
    documents_processed: 3,
    inventory_items: 2,
    files_completed: 5,
    files_failed: 1,
    files_total: 7,
    processing_efficiency: 5 / 6,
    storage_bytes: 2.4 * 1024 ** 3,
  });

  it('shows the four cards from GET /api/stats', () => {
    expect(metricsOf(stats).map((m) => [m.label, m.value])).toEqual([
      ['Documents Processed', '3'],
      ['Archive Items', '2'],
      ['Processing Efficiency', '83%'],
      ['Storage Utilized', '2.4GB'],
    ]);
    expect(filesInFlight(stats)).toBe(1);
  });

  it('refreshes quickly while files are in flight or just after the tab came back, slowly otherwise', () => {
    const idle = parseStats({ files_total: 3, files_completed: 2, files_failed: 1 });
    const now = 1_000_000;
    expect(nextRefreshMs(stats, now, 0)).toBe(BUSY_REFRESH_MS);
    expect(nextRefreshMs(idle, now, now + WATCH_AFTER_FOCUS_MS)).toBe(BUSY_REFRESH_MS);
    expect(nextRefreshMs(null, now, now + 1)).toBe(BUSY_REFRESH_MS);
    expect(nextRefreshMs(idle, now, now)).toBe(IDLE_REFRESH_MS);
    expect(nextRefreshMs(null, now, 0)).toBe(IDLE_REFRESH_MS);
  });

  it('shows "—" for efficiency before any file finished', () => {
    const fresh = parseStats({ files_total: 0, processing_efficiency: null });
    expect(metricsOf(fresh).map((m) => m.value)).toEqual(['0', '0', '—', '0B']);
  });
});

describe('answers from the server', () => {
  it('reads a file JSON, keeping only in-app result links', () => {
    const f = parseFile({
      id: 'a',
      name: 'x.png',
      size: '12',
      status: 'completed',
      progress: 140,
      result: { type: 'inventory_item', id: 'a', url: 'https://evil.example/' },
    });
    expect(f).toMatchObject({ id: 'a', size: 12, progress: 100, result: { url: '/inventory/a' } });
    expect(parseFile({ id: 'b', status: 'weird' }).status).toBe('queued');
    expect(() => parseFile({ name: 'no id' })).toThrow(ApiError);
  });

  it('reads the Media Hub page, activity, and the settings in either shape', () => {
    expect(parseFilesPage({ files: [{ id: 'a' }], total: 40 }).total).toBe(40);
    expect(() => parseFilesPage([])).toThrow('Invalid API response');
    const [a] = parseActivity({
      activity: [
        { id: '1', type: 'processed', message: 'm', entity_type: 'document', entity_id: 'd', at: 'x' },
      ],
    });
    expect(activityLink(a!)).toBe('/documents?open=d');
    expect(activityLink({ ...a!, type: 'deleted' })).toBeNull();
    expect(
      parseSettings({ settings: { default_destination: 'inventory', default_instructions: 'hi' } }),
    ).toEqual({
      default_destination: 'inventory',
      default_instructions: 'hi',
    });
    expect(parseSettings({ default_destination: 'nonsense' }).default_destination).toBe('auto');
  });

  it('merges pages without listing a file twice', () => {
    const a = parseFile({ id: 'a' });
    const b = parseFile({ id: 'b' });
    expect(mergePage([a, b], [b, parseFile({ id: 'c' })]).map((f) => f.id)).toEqual(['a', 'b', 'c']);
  });

  it('prefers the server message, keeping the generic texts for 403 and 5xx', () => {
    const e = (status: number, serverMessage?: string) =>
      new ApiError({ status, kind: 'http', message: `HTTP error! status: ${status}`, serverMessage });
    expect(reasonOf(e(409, 'File is already being processed'))).toBe('File is already being processed');
    expect(reasonOf(e(404))).toBe('HTTP error! status: 404');
    expect(
      reasonOf(
        new ApiError({
          status: 500,
          kind: 'http',
          message: 'Server error. Please try again later.',
          serverMessage: 'boom',
        }),
      ),
    ).toBe('Server error. Please try again later.');
  });
});
