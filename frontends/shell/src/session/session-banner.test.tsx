// @vitest-environment happy-dom
// Sign Out always signs out on this device (docs/product.md#states); when POST /api/auth/logout fails,
// the shell's error banner (the kit's Banner) now says so instead of only the console (issue 20). The
// real session service and API client talk to a scripted server (the fetch boundary). Also: the
// startup check settles `loading` under StrictMode.
import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createApiClient, type ApiClient } from '@kaboodle/kit';
import { SessionProvider, useSession } from './session-context.tsx';
import { SessionBanner } from './session-banner.tsx';

const ADA = { id: 'u1', email: 'ada@example.com', name: 'Ada', role: 'user' };

function scriptedServer(logout: { status: number; body: unknown }): ApiClient {
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
    key: (i: number) => [...store.keys()][i] ?? null,
    get length() {
      return store.size;
    },
  };
  const fetch: typeof globalThis.fetch = (input) => {
    const path = new URL(String(input), 'http://kaboodle.test').pathname;
    const answer =
      path === '/api/auth/session'
        ? { status: 200, body: { user: ADA } }
        : path === '/api/auth/logout'
          ? logout
          : { status: 200, body: { items: [], documents: [], total: 0 } };
    return Promise.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
  return createApiClient({ fetch, storage: () => storage, cookies: () => '' });
}

function LoadingProbe() {
  const { user, loading } = useSession();
  return <p>{`${user ? user.name : 'nobody'}, ${loading ? 'loading' : 'settled'}`}</p>;
}

function SignOutProbe() {
  const { user, logout } = useSession();
  return (
    <>
      <SessionBanner />
      <p>{user ? `Signed in as ${user.name}` : 'Signed out'}</p>
      <button type="button" onClick={() => void logout()}>
        Sign Out
      </button>
    </>
  );
}

afterEach(cleanup);

describe('signing out', () => {
  it('signs out locally and shows the error banner when the server does not confirm it', async () => {
    const api = scriptedServer({ status: 403, body: { message: 'Invalid CSRF token' } });
    render(
      <SessionProvider api={api} checkDelayMs={0}>
        <SignOutProbe />
      </SessionProvider>,
    );
    await screen.findByText('Signed in as Ada');
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    await screen.findByText('Signed out');
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(
      'You are signed out on this device, but the server did not confirm it: Access denied. You may not have permission for this action.',
    );
  });

  it('shows no banner when the server confirms', async () => {
    const api = scriptedServer({ status: 200, body: { message: 'Logged out' } });
    render(
      <SessionProvider api={api} checkDelayMs={0}>
        <SignOutProbe />
      </SessionProvider>,
    );
    await screen.findByText('Signed in as Ada');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    await screen.findByText('Signed out');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the startup check', () => {
  // StrictMode mounts, unmounts and mounts again: the first check is torn down before it answers
  // and must not stay counted in flight (loading stayed true for good before).
  it('settles loading under React StrictMode', async () => {
    const api = scriptedServer({ status: 200, body: { message: 'Logged out' } });
    render(
      <StrictMode>
        <SessionProvider api={api} checkDelayMs={0}>
          <LoadingProbe />
        </SessionProvider>
      </StrictMode>,
    );
    await screen.findByText('Ada, settled');
  });
});
