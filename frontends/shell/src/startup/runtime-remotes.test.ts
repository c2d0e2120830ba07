import { describe, expect, it } from 'vitest';
import { applyRuntimeRemotes, remotesFrom } from './runtime-remotes.ts';

const KNOWN = ['dashboard', 'vault'];

describe('runtime remotes', () => {
  it('registers the versioned manifests the server names, known remotes only', async () => {
    const registered: unknown[] = [];
    const fetchImpl = (async () =>
      new Response(
        JSON.stringify({
          remotes: {
            dashboard: '/mf/dashboard/1.4.0/mf-manifest.json',
            vault: 'https://cdn.example.com/vault/2.0.1/mf-manifest.json',
            evil: '/mf/evil/mf-manifest.json',
          },
        }),
      )) as typeof fetch;
    const out = await applyRuntimeRemotes(KNOWN, fetchImpl, (r, o) => registered.push([r, o]));
    expect(out).toEqual([
      { name: 'dashboard', entry: '/mf/dashboard/1.4.0/mf-manifest.json' },
      { name: 'vault', entry: 'https://cdn.example.com/vault/2.0.1/mf-manifest.json' },
    ]);
    expect(registered).toEqual([[out, { force: true }]]);
  });

  it('keeps the build’s remotes when the server has no config or answers nonsense', async () => {
    const registered: unknown[] = [];
    const register = (r: unknown) => registered.push(r);
    expect(
      await applyRuntimeRemotes(
        KNOWN,
        (async () => new Response('', { status: 404 })) as typeof fetch,
        register,
      ),
    ).toEqual([]);
    expect(
      await applyRuntimeRemotes(
        KNOWN,
        (async () => {
          throw new Error('offline');
        }) as typeof fetch,
        register,
      ),
    ).toEqual([]);
    expect(remotesFrom({ remotes: { dashboard: 'javascript:alert(1)' } }, KNOWN)).toEqual([]);
    expect(registered).toEqual([]);
  });
});
