// @vitest-environment happy-dom
// A failed request reaches the person through the kit's error banner, not only the console: the vault
// in a DOM (happy-dom), talking over real HTTP to a stand-in backend that fails the call under test.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { api } from '@kaboodle/kit';
import { DocumentVault } from './document-vault.tsx';
import GraphView from './views/graph-view.tsx';
import { BrowserView } from './views/browser-view.tsx';
import { doc } from './test-documents.ts';

/** Which calls fail in the current test (method and path); every other call answers an empty list. */
let failing = new Set<string>();
let server: Server;

function answer(req: IncomingMessage, res: ServerResponse) {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (failing.has(`${req.method} ${path}`)) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'Internal', message: 'Server error. Please try again later.' }));
    return;
  }
  const body =
    path === '/api/documents/a'
      ? { id: 'a', title: 'On Liberty', text: 'Words.' }
      : path === '/api/search/related' || path === '/api/search/duplicates'
        ? { results: [] }
        : path === '/api/documents/categories'
          ? { categories: [] }
          : path === '/api/search/neighbours'
            ? { edges: [] }
            : path === '/api/documents/search' && req.method === 'POST'
              ? { results: [] }
              : [];
  res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '0' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The page's own origin, as in the product (the API is same-origin).
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}/documents`,
  );
});
afterEach(() => {
  cleanup();
  failing = new Set();
  api.cache.clear('documents');
  api.cache.clear('search');
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const renderVault = () =>
  render(
    <MemoryRouter initialEntries={['/documents']}>
      <DocumentVault
        user={{ id: 'u1', email: 'ada@example.com', name: 'Ada', role: 'user' }}
        openHelp={() => undefined}
      />
    </MemoryRouter>,
  );

describe('the vault tells a failed request in the error banner', () => {
  it('shows "Failed to fetch documents" when the list cannot be loaded', async () => {
    failing.add('GET /api/documents');
    renderVault();
    const banner = await screen.findByRole('alert');
    expect(banner.getAttribute('data-testid')).toBe('banner');
    expect(within(banner).getByText('Failed to fetch documents')).toBeTruthy();
  });

  it('shows no banner when every call answers', async () => {
    renderVault();
    await screen.findByText('No documents available.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows "Search failed" when the semantic search fails, and the banner can be dismissed', async () => {
    failing.add('POST /api/documents/search');
    renderVault();
    await screen.findByText('No documents available.');
    fireEvent.change(screen.getByLabelText('Search by meaning'), { target: { value: 'stoneware glaze' } });
    fireEvent.click(screen.getByRole('button', { name: 'Semantic Search' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('Search failed');
    fireEvent.click(within(banner).getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a banner when the categories cannot be loaded', async () => {
    failing.add('GET /api/documents/categories');
    renderVault();
    expect((await screen.findByRole('alert')).textContent).toContain('Loading the categories failed');
  });

  it('says so in the graph view when the similar-content links cannot be loaded', async () => {
    failing.add('POST /api/search/neighbours');
    render(
      <GraphView
        docs={[doc('a', { title: 'On Liberty' }), doc('b', { title: 'Walden' })]}
        onOpen={() => undefined}
      />,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Loading the similar-content links failed',
    );
    // The rest of the graph is still drawn.
    expect(screen.getAllByTestId('graph-node')).toHaveLength(2);
  });
  it('shows a banner in the reader when related items or near-duplicates cannot be loaded', async () => {
    failing.add('GET /api/search/related');
    failing.add('GET /api/search/duplicates');
    render(
      <MemoryRouter>
        <BrowserView
          docs={[doc('a', { title: 'On Liberty' })]}
          selectedId="a"
          onSelect={() => undefined}
          onDownload={() => undefined}
          onSaved={() => undefined}
        />
      </MemoryRouter>,
    );
    const related = await screen.findByRole('region', { name: 'Related items' });
    expect((await within(related).findByRole('alert')).textContent).toContain(
      'Loading related items failed.',
    );
    expect(within(related).queryByText('Nothing related yet.')).toBeNull();
    const duplicates = screen.getByRole('region', { name: 'Near-duplicates' });
    expect((await within(duplicates).findByRole('alert')).textContent).toContain(
      'Loading near-duplicates failed.',
    );
  });

  it('shows a banner when the library cannot be counted while filtering', async () => {
    failing.add('GET /api/documents');
    renderVault();
    await screen.findByText('Failed to fetch documents');
    fireEvent.change(screen.getByLabelText('Filter by Category'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Search documents'), { target: { value: 'liberty' } });
    expect(
      await screen.findByText(/Counting your documents failed/, undefined, { timeout: 3000 }),
    ).toBeTruthy();
  });
});
