// The remotes' ./App modules, by name: one import each (the bundler caches the module), so the
// shell can start fetching a screen's code before it mounts it (after a sign-in, the dashboard).
import type { ComponentType } from 'react';
import type { RemoteAppProps } from '@kaboodle/kit';

export type RemoteName = 'dashboard' | 'vault' | 'inventory' | 'observatory';

export type RemoteModule = { default: ComponentType<RemoteAppProps> };

// Static specifiers, so the federation plugin sees each remote module.
export const remoteImporters: Record<RemoteName, () => Promise<RemoteModule>> = {
  dashboard: () => import('dashboard/App'),
  vault: () => import('vault/App'),
  inventory: () => import('inventory/App'),
  observatory: () => import('observatory/App'),
};

/** Starts loading a remote's code; resolves when it is there (or could not be loaded: never rejects). */
export function preloadRemote(name: RemoteName): Promise<void> {
  return remoteImporters[name]().then(
    () => undefined,
    () => undefined, // RemoteMount reports the failure with its fallback when the route mounts
  );
}
