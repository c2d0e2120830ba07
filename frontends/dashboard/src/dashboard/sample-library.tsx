// The first-run sample library on the dashboard (issue 18): a newcomer with nothing uploaded can load
// six short documents and six photos of handmade goods (made offline by Kaboodle, marked "Sample")
// to try search, the graph, the inventory and the observatory; once loaded, one click removes them.
import { Banner, Button, SampleBadge } from '@kaboodle/kit';
import type { DashboardApi } from '../lib/dashboard-api.ts';
import { useSampleLibrary } from './use-sample-library.ts';

export interface SampleLibraryProps {
  calls: DashboardApi;
  /** Files the user has in all (null while unknown): the offer is for an empty library only. */
  filesTotal: number | null;
  /** Called after loading or removing, so the dashboard refreshes its figures. */
  onChanged: () => void;
}

export function SampleLibrary({ calls, filesTotal, onChanged }: SampleLibraryProps) {
  const { state, busy, notice, error, checkError, retryCheck, act } = useSampleLibrary(
    calls,
    filesTotal,
    onChanged,
  );

  // A failed check reaches the user: without an answer the offer (or Remove) cannot show.
  const checkBanner = checkError ? (
    <Banner tone="error">
      {checkError}{' '}
      <Button size="sm" variant="ghost" onClick={retryCheck}>
        Try again
      </Button>
    </Banner>
  ) : null;
  if (!state) return checkBanner;
  const loaded = state.loaded > 0;
  if (!loaded && filesTotal !== 0 && !notice) return checkBanner;

  return (
    <>
      {checkBanner}
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
              {state.loaded} sample files are in your library, each marked <SampleBadge />. Remove them when
              you are ready for your own.
            </p>
          ) : (
            <p>
              Six short documents and six photos of handmade goods, made by Kaboodle for trying things out:
              search them, see them linked in the graph, browse the inventory and the observatory. Everything
              is marked <SampleBadge /> and goes again with one click.
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
    </>
  );
}
