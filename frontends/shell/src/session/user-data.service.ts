// The data load after sign-in (docs/product.md#states): inventory and documents once, with progress 25/75/100
// and the catalogue's failure texts. Until the catalogue service exists those endpoints may answer 404, which
// means "nothing yet", not a failure.
import { ApiError, type ApiClient } from '@kaboodle/kit';

export const DATA_LOAD = {
  loading: { progress: 25, message: 'Loading user data...' },
  syncing: { progress: 75, message: 'Synchronizing data...' },
  done: { progress: 100, message: 'Setup complete!' },
  failedMessage: 'Error loading data',
  invalidResponse: 'Invalid API response',
  fetchFailed: 'Error fetching data from backend.',
} as const;

export interface UserData {
  inventory: unknown[];
  documents: unknown[];
}

export type DataLoadResult = { ok: true; data: UserData } | { ok: false; banner: string };

class InvalidResponse extends Error {}

/**
 * Accepts a bare array (docs/product.md#calls) or an envelope holding one ({items}, {documents}, {results},
 * {data}).
 */
export function listFrom(body: unknown, envelopeKeys: string[]): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    for (const key of envelopeKeys) {
      const value = (body as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value;
    }
  }
  throw new InvalidResponse('not a list');
}

export async function loadUserData(
  api: ApiClient,
  onProgress: (progress: number, message: string) => void,
): Promise<DataLoadResult> {
  const fetchList = async (path: string, namespace: string, keys: string[]): Promise<unknown[]> => {
    try {
      const body = await api.get<unknown>(path, { query: { page: 1, limit: 20 }, cache: { namespace } });
      return listFrom(body, keys);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return [];
      throw err;
    }
  };
  onProgress(DATA_LOAD.loading.progress, DATA_LOAD.loading.message);
  try {
    const [inventory, documents] = await Promise.all([
      fetchList('/api/inventory', 'inventory', ['items', 'inventory', 'results', 'data']),
      fetchList('/api/documents', 'documents', ['documents', 'items', 'results', 'data']),
    ]);
    onProgress(DATA_LOAD.syncing.progress, DATA_LOAD.syncing.message);
    onProgress(DATA_LOAD.done.progress, DATA_LOAD.done.message);
    return { ok: true, data: { inventory, documents } };
  } catch (err) {
    onProgress(0, DATA_LOAD.failedMessage);
    const invalid =
      err instanceof InvalidResponse || (err instanceof ApiError && err.kind === 'invalid-response');
    return { ok: false, banner: invalid ? DATA_LOAD.invalidResponse : DATA_LOAD.fetchFailed };
  }
}
