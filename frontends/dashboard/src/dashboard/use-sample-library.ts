// The first-run sample library's state (issue 18): whether samples are loaded (GET /process/samples),
// loading and removing them, and what to tell the user about it, a failed check included.
import { useCallback, useEffect, useState } from 'react';
import { reasonOf, type DashboardApi, type SampleState } from '../lib/dashboard-api.ts';

export const sampleCheckFailed = (reason: string) => `The sample library could not be checked: ${reason}`;

export function useSampleLibrary(calls: DashboardApi, filesTotal: number | null, onChanged: () => void) {
  const [state, setState] = useState<SampleState | null>(null);
  const [busy, setBusy] = useState<'loading' | 'removing' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Why the last check failed; the offer cannot show without an answer, so this banner says why. */
  const [checkError, setCheckError] = useState<string | null>(null);

  const refresh = useCallback(
    (signal?: AbortSignal) =>
      calls.samples(signal).then(
        (next) => {
          setState(next);
          setCheckError(null);
        },
        (err: unknown) => {
          if (!signal?.aborted) setCheckError(sampleCheckFailed(reasonOf(err)));
        },
      ),
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

  return { state, busy, notice, error, checkError, retryCheck: () => void refresh(), act };
}
