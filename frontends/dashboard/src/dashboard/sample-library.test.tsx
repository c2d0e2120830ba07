// @vitest-environment happy-dom
// A failed GET /process/samples reaches the person through the kit's error banner (issue 20), with
// Try again; the dashboard's real API client talks to a scripted server (the fetch boundary).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { createApiClient } from '@kaboodle/kit';
import { createDashboardApi } from '../lib/dashboard-api.ts';
import DashboardHome from './dashboard-home.tsx';

type Answer = { status: number; body: unknown };

/** A scripted server: each path answers what `routes` says at the time of the request. */
function scriptedServer(routes: Record<string, () => Answer>) {
  const seen: string[] = [];
  const fetch: typeof globalThis.fetch = (input) => {
    const path = new URL(String(input), 'http://kaboodle.test').pathname;
    seen.push(path);
    const answer = routes[path]?.() ?? { status: 404, body: { message: 'Not found' } };
    return Promise.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
  const client = createApiClient({ fetch, storage: () => undefined, cookies: () => '' });
  return { calls: createDashboardApi(client), seen };
}

const EMPTY_STATS = {
  documents_processed: 0,
  inventory_items: 0,
  files_completed: 0,
  files_failed: 0,
  files_total: 0,
  processing_efficiency: null,
  storage_bytes: 0,
};

afterEach(cleanup);

describe('the sample library on the dashboard', () => {
  it('shows the error banner when asking about the samples fails, and the offer after Try again', async () => {
    let samples: Answer = { status: 500, body: { message: 'boom' } };
    const { calls } = scriptedServer({
      '/api/stats': () => ({ status: 200, body: EMPTY_STATS }),
      '/api/activity': () => ({ status: 200, body: { activity: [] } }),
      '/process/samples': () => samples,
    });
    render(
      <MemoryRouter>
        <DashboardHome user={null} openHelp={() => undefined} dashboardApi={calls} />
      </MemoryRouter>,
    );

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(
      'The sample library could not be checked: Server error. Please try again later.',
    );
    expect(banner.getAttribute('data-testid')).toBe('banner');
    expect(screen.queryByTestId('sample-library')).toBeNull();

    samples = { status: 200, body: { loaded: 0, available: 12 } };
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('sample-library')).textContent).toContain(
      'Try Kaboodle with a sample library',
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
