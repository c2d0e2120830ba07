// The calls the dashboard remote makes (ingestion and catalogue contracts), with the answers checked
// so a surprise from the server reads as "Invalid API response", never as a crash.
import { api, ApiError, API_MESSAGES, type ApiClient, type ApiSchema } from '@kaboodle/kit';

type ApiFile = ApiSchema<'FileStatus'>;
export type Destination = ApiFile['destination'];
export const DESTINATIONS: readonly Destination[] = ['auto', 'document', 'inventory'];
export type ServerFileStatus = ApiFile['status'];
/** Ingestion contract: AI instructions are at most 2000 characters. */
export const MAX_INSTRUCTIONS = 2000;

/** What a file became; `url` is its web route: /documents?open=<id> or /inventory/<id>. */
export type FileResult = NonNullable<ApiFile['result']>;

/** The ingestion service's file JSON (FileStatus), as the dashboard keeps it. */
export type ServerFile = Omit<ApiFile, 'file_id' | 'instructions'> & {
  duplicate?: boolean;
  message?: string;
};

export type Stats = ApiSchema<'Stats'>;

/** The first-run sample library: how many sample files the user has, of how many. */
export interface SampleState {
  loaded: number;
  available: number;
}

export function parseSampleState(value: unknown): SampleState {
  const s = record(value, 'samples');
  return { loaded: num(s.loaded), available: num(s.available) };
}

export type ActivityType = 'uploaded' | 'processed' | 'failed' | 'deleted' | 'edited' | string;

export interface Activity {
  id: string;
  type: ActivityType;
  message: string;
  file_id: string | null;
  file_name: string | null;
  entity_type: string | null;
  entity_id: string | null;
  at: string;
}

export interface UserSettings {
  default_instructions: string;
  default_destination: Destination;
}

function invalid(what: string): ApiError {
  return new ApiError({
    status: 200,
    kind: 'invalid-response',
    message: `${API_MESSAGES.invalidResponse} (${what})`,
  });
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid(what);
  return value as Record<string, unknown>;
}

const str = (v: unknown, fallback = ''): string =>
  typeof v === 'string' ? v : v == null ? fallback : String(v);
const num = (v: unknown, fallback = 0): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : fallback;
};
const optStr = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

const STATUSES: readonly ServerFileStatus[] = ['queued', 'processing', 'completed', 'failed', 'cancelled'];

/** Only same-site routes are followed from a result link (it is rendered as an in-app link). */
function safeRoute(url: unknown): string | null {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : null;
}

export function parseResult(value: unknown): FileResult | null {
  if (!value || typeof value !== 'object') return null;
  const r = value as Record<string, unknown>;
  const type = r.type === 'document' || r.type === 'inventory_item' ? r.type : null;
  const id = optStr(r.id);
  if (!type || !id) return null;
  const url =
    safeRoute(r.url) ??
    (type === 'document'
      ? `/documents?open=${encodeURIComponent(id)}`
      : `/inventory/${encodeURIComponent(id)}`);
  return { type, id, url };
}

export function parseFile(value: unknown): ServerFile {
  const f = record(value, 'file');
  const id = optStr(f.id) ?? optStr(f.file_id);
  if (!id) throw invalid('file without id');
  const status = STATUSES.includes(f.status as ServerFileStatus) ? (f.status as ServerFileStatus) : 'queued';
  const destination = DESTINATIONS.includes(f.destination as Destination)
    ? (f.destination as Destination)
    : 'auto';
  return {
    id,
    name: str(f.name),
    size: num(f.size),
    content_type: str(f.content_type),
    status,
    stage: optStr(f.stage),
    progress: Math.max(0, Math.min(100, num(f.progress))),
    error: optStr(f.error),
    created_at: str(f.created_at),
    updated_at: str(f.updated_at),
    attempt: num(f.attempt, 1),
    destination,
    source_url: optStr(f.source_url),
    result: parseResult(f.result),
    sample: f.sample === true,
    ...(typeof f.duplicate === 'boolean' ? { duplicate: f.duplicate } : {}),
    ...(typeof f.message === 'string' ? { message: f.message } : {}),
  };
}

export function parseFilesPage(value: unknown): { files: ServerFile[]; total: number } {
  const body = record(value, 'files');
  if (!Array.isArray(body.files)) throw invalid('files');
  const files = body.files.map(parseFile);
  return { files, total: Math.max(num(body.total, files.length), files.length) };
}

export function parseStats(value: unknown): Stats {
  const s = record(value, 'stats');
  const eff = s.processing_efficiency;
  return {
    documents_processed: num(s.documents_processed),
    inventory_items: num(s.inventory_items),
    files_completed: num(s.files_completed),
    files_failed: num(s.files_failed),
    files_total: num(s.files_total),
    processing_efficiency: typeof eff === 'number' && Number.isFinite(eff) ? eff : null,
    storage_bytes: num(s.storage_bytes),
  };
}

export function parseActivity(value: unknown): Activity[] {
  const body = record(value, 'activity');
  if (!Array.isArray(body.activity)) throw invalid('activity');
  return body.activity.map((entry, i) => {
    const a = record(entry, 'activity entry');
    return {
      id: str(a.id, String(i)),
      type: str(a.type),
      message: str(a.message),
      file_id: optStr(a.file_id),
      file_name: optStr(a.file_name),
      entity_type: optStr(a.entity_type),
      entity_id: optStr(a.entity_id),
      at: str(a.at),
    };
  });
}

export function parseSettings(value: unknown): UserSettings {
  const outer = record(value, 'settings');
  const s = outer.settings && typeof outer.settings === 'object' ? record(outer.settings, 'settings') : outer;
  return {
    default_instructions: typeof s.default_instructions === 'string' ? s.default_instructions : '',
    default_destination: DESTINATIONS.includes(s.default_destination as Destination)
      ? (s.default_destination as Destination)
      : 'auto',
  };
}

/** Where an activity entry leads, when it names something that still exists. */
export function activityLink(a: Activity): string | null {
  if (a.type === 'deleted' || !a.entity_id) return null;
  if (a.entity_type === 'document') return `/documents?open=${encodeURIComponent(a.entity_id)}`;
  if (a.entity_type === 'inventory_item') return `/inventory/${encodeURIComponent(a.entity_id)}`;
  return null;
}

export const fileContentPath = (id: string, download = false): string =>
  `/process/files/${encodeURIComponent(id)}/content${download ? '?download=1' : ''}`;

/** The dashboard's calls, bound to an API client (the shared one by default; tests pass their own). */
export function createDashboardApi(client: ApiClient = api) {
  return {
    stats: async (signal?: AbortSignal) => parseStats(await client.get<unknown>('/api/stats', { signal })),
    activity: async (limit = 20, signal?: AbortSignal, page = 1) =>
      parseActivity(await client.get<unknown>('/api/activity', { query: { limit, page }, signal })),
    samples: async (signal?: AbortSignal) =>
      parseSampleState(await client.get<unknown>('/process/samples', { signal })),
    loadSamples: async () => parseSampleState(await client.post<unknown>('/process/samples', {})),
    removeSamples: async () => {
      const body = record(await client.delete<unknown>('/process/samples'), 'samples removed');
      return num(body.deleted);
    },
    settings: async (signal?: AbortSignal) =>
      parseSettings(await client.get<unknown>('/api/auth/settings', { signal })),
    files: async (page: number, limit: number, status?: string, signal?: AbortSignal) =>
      parseFilesPage(await client.get<unknown>('/process/files', { query: { page, limit, status }, signal })),
    status: async (id: string, signal?: AbortSignal) =>
      parseFile(await client.get<unknown>(`/process/status/${encodeURIComponent(id)}`, { signal })),
    cancel: async (id: string) =>
      parseFile(await client.post<unknown>(`/process/cancel/${encodeURIComponent(id)}`, {})),
    reprocess: async (id: string, body: { instructions?: string; destination?: Destination } = {}) =>
      parseFile(await client.post<unknown>(`/process/files/${encodeURIComponent(id)}/reprocess`, body)),
    /** The text Kaboodle extracted from a document ('' when it has none). */
    documentText: async (id: string, signal?: AbortSignal) => {
      const doc = record(
        await client.get<unknown>(`/api/documents/${encodeURIComponent(id)}`, { signal }),
        'document',
      );
      return typeof doc.text === 'string' ? doc.text : '';
    },
    remove: async (id: string) => {
      await client.delete<unknown>(`/process/files/${encodeURIComponent(id)}`);
    },
    processUrl: async (
      body: { url: string; instructions?: string; destination?: Destination },
      signal?: AbortSignal,
    ) => parseFile(await client.post<unknown>('/process', body, { signal })),
    uploadFile: async (form: FormData, onProgress: (percent: number) => void, signal?: AbortSignal) =>
      parseFile(await client.upload<unknown>('/process', form, { onProgress, signal })),
  };
}

export type DashboardApi = ReturnType<typeof createDashboardApi>;

/**
 * The user-facing text of a failed call (docs/product.md#messages): the server's message when it sent one.
 */
export function reasonOf(err: unknown): string {
  if (err instanceof ApiError) {
    // 403 and 5xx keep the catalogue's generic texts; other answers carry the server's own words.
    if (err.status === 403 || err.status >= 500) return err.message;
    return err.serverMessage ?? err.message;
  }
  if (err instanceof Error && err.message.trim() !== '') return err.message;
  return 'Unknown error occurred';
}
