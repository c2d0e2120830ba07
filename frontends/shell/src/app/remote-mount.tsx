// Mounts a federated remote's ./App inside the shell. A remote that cannot load (its chunk errors
// are reported as ChunkLoadError) shows a fallback with Retry inside the shell, never a blank page.
import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { Button, type RemoteAppProps } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { useShellActions } from './shell-actions.tsx';
import { remoteImporters as importers, type RemoteModule, type RemoteName } from './remote-loader.ts';

export type { RemoteName } from './remote-loader.ts';

export const REMOTE_LABELS: Record<RemoteName, string> = {
  dashboard: 'Dashboard',
  vault: 'Document Vault',
  inventory: 'Inventory',
  observatory: 'Observatory',
};

/** Remotes whose bundler-level import failed once this page's life (see RemoteMount). */
const failedBefore = new Set<RemoteName>();

/**
 * The remote's ./App component. After a failed first load the federation runtime can hand back the
 * module namespace wrapped once more ({default: {default: App}}), so unwrap before trusting it.
 */
export function remoteComponent(mod: unknown): ComponentType<RemoteAppProps> {
  let candidate: unknown = mod;
  for (
    let depth = 0;
    depth < 3 && candidate && typeof candidate === 'object' && 'default' in candidate;
    depth++
  ) {
    candidate = (candidate as { default: unknown }).default;
  }
  if (typeof candidate !== 'function') throw new Error('the remote exposes no ./App component');
  return candidate as ComponentType<RemoteAppProps>;
}

/** Normalises any remote loading failure into a ChunkLoadError (docs/product.md#messages). */
export function asChunkLoadError(name: RemoteName, err: unknown): Error {
  if (err instanceof Error && err.name === 'ChunkLoadError') return err;
  const reason = err instanceof Error ? err.message : String(err);
  const wrapped = new Error(`Loading the ${name} module failed: ${reason}`, { cause: err });
  wrapped.name = 'ChunkLoadError';
  return wrapped;
}

class RemoteBoundary extends Component<
  { name: RemoteName; onRetry: () => void; children: ReactNode },
  { error: Error | null }
> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }
  override componentDidCatch(error: unknown) {
    console.error(asChunkLoadError(this.props.name, error));
  }
  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="kb-remote-fallback kb-frame" role="alert" data-testid="remote-fallback">
        <h1>{REMOTE_LABELS[this.props.name]} is unavailable</h1>
        <p>
          This part of Kaboodle could not be loaded. Check your connection and try again; the rest of the app
          keeps working.
        </p>
        <p className="kb-remote-fallback__detail">
          {error.name === 'ChunkLoadError' ? 'ChunkLoadError' : error.name}
        </p>
        <Button onClick={this.props.onRetry}>Retry</Button>
      </section>
    );
  }
}

function RemoteLoading({ name }: { name: RemoteName }) {
  return (
    <div className="kb-remote-loading" role="status">
      <div className="kb-auth__spinner" aria-hidden="true" />
      <span>Loading {REMOTE_LABELS[name]}...</span>
    </div>
  );
}

/** The remote's lazy ./App, made once per mount: RemoteMount remounts this on every retry. */
function RemoteSlot({ name }: { name: RemoteName }) {
  const { user } = useSession();
  const { openHelp } = useShellActions();
  const RemoteApp = useMemo(
    () =>
      lazy(async () => {
        try {
          // After a failed load the bundler keeps an empty module for the remote, so retries go
          // through the federation runtime, which fetches the manifest and entry afresh.
          const mod = failedBefore.has(name)
            ? await loadRemote<RemoteModule>(`${name}/App`)
            : await importers[name]();
          return { default: remoteComponent(mod) };
        } catch (err) {
          failedBefore.add(name);
          throw asChunkLoadError(name, err);
        }
      }),
    [name],
  );
  return (
    <Suspense fallback={<RemoteLoading name={name} />}>
      <RemoteApp user={user} openHelp={openHelp} />
    </Suspense>
  );
}

export function RemoteMount({ name }: { name: RemoteName }) {
  const [attempt, setAttempt] = useState(0);
  // A new key per attempt remounts the slot, so a retry gets a new lazy component: React caches a
  // rejected lazy forever.
  return (
    <RemoteBoundary key={`${name}-${attempt}`} name={name} onRetry={() => setAttempt((a) => a + 1)}>
      <RemoteSlot name={name} />
    </RemoteBoundary>
  );
}
