// The first-run sample library on the dashboard (issue 18): a newcomer with nothing uploaded can load
// six short documents and six photos of handmade goods (made offline by Kaboodle, marked "Sample")
// to try search, the graph, the inventory and the observatory; once loaded, one click removes them.
import { useCallback, useEffect, useState } from 'react';
import { Banner, Button, SampleBadge } from '@kaboodle/kit';
import { reasonOf, type DashboardApi, type SampleState } from '../lib/dashboard-api.ts';

export interface SampleLibraryProps {
  calls: DashboardApi;
  /** Files the user has in all (null while unknown): the offer is for an empty library only. */
  filesTotal: number | null;
  /** Called after loading or removing, so the dashboard refreshes its figures. */
  onChanged: () => void;
}

export function SampleLibrary({ calls, filesTotal, onChanged }: SampleLibraryProps) {
  const [state, setState] = useState<SampleState | null>(null);
  const [busy, setBusy] = useState<'loading' | 'removing' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(
    (signal?: AbortSignal) =>
      calls.samples(signal).then(setState, (err: unknown) => {
        if (!signal?.aborted) console.warn('Asking about the sample library failed', err);
      }),
    [calls],
  );
  useEffect(() => {
    const controller = new AbortController();
    void refresh(controller.signal);
    return () => controller.abort();
  }, [refresh, filesTotal]);

  const act = async (kind: 'loading' | 'removing') => {
    setBusy(kind);
    setError(null);
    setNotice(null);
    try {
      if (kind === 'loading') {
        const next = await calls.loadSamples();
        setState(next);
        setNotice(`The sample library is on its way: ${next.loaded} files are being read and catalogued.`);
      } else {
        const deleted = await calls.removeSamples();
        setState((s) => (s ? { ...s, loaded: 0 } : s));
        setNotice(`The sample library was removed (${deleted} files and everything made from them).`);
      }
      onChanged();
    } catch (err) {
      setError(reasonOf(err));
    } finally {
      setBusy(null);
    }
  };

  if (!state) return null;
  const loaded = state.loaded > 0;
  if (!loaded && filesTotal !== 0 && !notice) return null;

  return (
    <section
      className="kbd-samples kb-frame"
      aria-labelledby="kbd-samples-title"
      data-testid="sample-library"
    >
      <div className="kbd-samples__text">
        <h2 id="kbd-samples-title" className="kbd-section-title">
          {loaded ? 'Sample library' : 'Try Kaboodle with a sample library'}
        </h2>
        {loaded ? (
          <p>
            {state.loaded} sample files are in your library, each marked <SampleBadge />. Remove them when you
            are ready for your own.
          </p>
        ) : (
          <p>
            Six short documents and six photos of handmade goods, made by Kaboodle for trying things out:
            search them, see them linked in the graph, browse the inventory and the observatory. Everything is
            marked <SampleBadge /> and goes again with one click.
          </p>
        )}
        {notice && (
          <p className="kbd-samples__notice" role="status">
            {notice}
          </p>
        )}
        {error && <Banner tone="error">{error}</Banner>}
      </div>
      <div className="kbd-samples__action">
        {loaded ? (
          <Button variant="secondary" onClick={() => void act('removing')} disabled={busy !== null}>
            {busy === 'removing' ? 'Removing…' : 'Remove the sample library'}
          </Button>
        ) : (
          <Button onClick={() => void act('loading')} disabled={busy !== null}>
            {busy === 'loading' ? 'Loading…' : 'Load the sample library'}
          </Button>
        )}
      </div>
    </section>
  );
}
