// @vitest-environment happy-dom
// The Media Hub's preview of a Word file shows the text Kaboodle extracted; when loading it fails, the
// kit's error banner says why instead of "Loading the text…" forever (issue 20). The dashboard's real
// API client talks to a scripted server (the fetch boundary).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createApiClient } from '@kaboodle/kit';
import { createDashboardApi, type ServerFile } from '../lib/dashboard-api.ts';
import { MediaPreview } from './media-preview.tsx';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const file: ServerFile = {
  id: 'f1',
  name: 'minutes.docx',
  size: 1200,
  content_type: DOCX,
  status: 'completed',
  stage: null,
  progress: 100,
  error: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  attempt: 1,
  destination: 'auto',
  source_url: null,
  result: { type: 'document', id: 'd1', url: '/documents?open=d1' },
  sample: false,
};

function serverAnswering(status: number, body: unknown) {
  const fetch: typeof globalThis.fetch = () =>
    Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );
  return createDashboardApi(createApiClient({ fetch, storage: () => undefined, cookies: () => '' }));
}

afterEach(cleanup);

describe('the Media Hub preview', () => {
  it('shows the error banner when the extracted text cannot be loaded', async () => {
    const calls = serverAnswering(404, { message: 'Document not found' });
    render(<MediaPreview calls={calls} file={file} onClose={() => undefined} />);
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('The extracted text could not be loaded: Document not found');
    expect(screen.queryByText('Loading the text…')).toBeNull();
  });

  it('shows the extracted text when it arrives', async () => {
    const calls = serverAnswering(200, { id: 'd1', text: 'Minutes of the brass guild.' });
    render(<MediaPreview calls={calls} file={file} onClose={() => undefined} />);
    expect(await screen.findByText(/Minutes of the brass guild\./)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
