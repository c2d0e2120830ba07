import { describe, expect, it } from 'vitest';
import { ApiError, type ApiClient } from '@kaboodle/kit';
import { DATA_LOAD, loadUserData } from './user-data.service.ts';

function client(answers: Record<string, () => Promise<unknown>>): ApiClient {
  return { get: (path: string) => answers[path]!() } as unknown as ApiClient;
}

async function run(api: ApiClient) {
  const steps: [number, string][] = [];
  const result = await loadUserData(api, (p, m) => steps.push([p, m]));
  return { result, steps };
}

describe('data load after sign-in (docs/product.md#states)', () => {
  it('reports 25, 75 and 100 with their messages and returns both lists', async () => {
    const { result, steps } = await run(
      client({
        '/api/inventory': async () => [{ id: 1 }],
        '/api/documents': async () => ({ documents: [{ id: 2 }] }),
      }),
    );
    expect(steps).toEqual([
      [25, 'Loading user data...'],
      [75, 'Synchronizing data...'],
      [100, 'Setup complete!'],
    ]);
    expect(result).toEqual({ ok: true, data: { inventory: [{ id: 1 }], documents: [{ id: 2 }] } });
  });

  it('treats a 404 (service not there yet) as empty data', async () => {
    const notFound = async () => Promise.reject(new ApiError({ status: 404, kind: 'http', message: 'nf' }));
    const { result } = await run(client({ '/api/inventory': notFound, '/api/documents': notFound }));
    expect(result).toEqual({ ok: true, data: { inventory: [], documents: [] } });
  });

  it('resets progress and says "Invalid API response" for a non-list answer', async () => {
    const { result, steps } = await run(
      client({ '/api/inventory': async () => ({ nope: true }), '/api/documents': async () => [] }),
    );
    expect(steps.at(-1)).toEqual([0, DATA_LOAD.failedMessage]);
    expect(result).toEqual({ ok: false, banner: 'Invalid API response' });
  });

  it('says "Error fetching data from backend." for any other failure', async () => {
    const { result, steps } = await run(
      client({
        '/api/inventory': async () => [],
        '/api/documents': async () =>
          Promise.reject(new ApiError({ status: 500, kind: 'http', message: 'x' })),
      }),
    );
    expect(steps.at(-1)).toEqual([0, 'Error loading data']);
    expect(result).toEqual({ ok: false, banner: 'Error fetching data from backend.' });
  });
});
