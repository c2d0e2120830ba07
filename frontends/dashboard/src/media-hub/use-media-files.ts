// The Media Hub's data (docs/product.md#media-hub): the user's files page by page (GET /process/files,
// newest first, filtered by status), the next page when the end of the list comes into view, live
// updates of files still in flight, and reprocess and delete with what to tell the user afterwards.
import { useCallback, useEffect, useRef, useState } from 'react';
import { reasonOf, type DashboardApi, type ServerFile, type ServerFileStatus } from '../lib/dashboard-api.ts';
import { inFlight } from './media-card.tsx';

export const PAGE_SIZE = 20;
/** How often rows still queued or processing are refreshed. */
export const LIVE_REFRESH_MS = 2000;

export type StatusFilter = '' | ServerFileStatus;

/** Appends a page, dropping files already listed (new uploads shift the pages while one scrolls). */
export function mergePage(current: ServerFile[], page: ServerFile[]): ServerFile[] {
  const seen = new Set(current.map((f) => f.id));
  return [...current, ...page.filter((f) => !seen.has(f.id))];
}

/** Rows still queued or processing follow the server until they end. */
function useLiveRows(
  calls: DashboardApi,
  files: ServerFile[],
  setFiles: (update: (list: ServerFile[]) => ServerFile[]) => void,
) {
  const liveIds = files
    .filter(inFlight)
    .map((f) => f.id)
    .join(',');
  useEffect(() => {
    if (liveIds === '') return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      for (const id of liveIds.split(',')) {
        calls
          .status(id, controller.signal)
          .then((fresh) => setFiles((list) => list.map((f) => (f.id === fresh.id ? { ...f, ...fresh } : f))))
          .catch(() => undefined); // the next tick tries again; a deleted file leaves with the next load
      }
    }, LIVE_REFRESH_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [liveIds, calls, setFiles]);
}

export function useMediaFiles(calls: DashboardApi, status: StatusFilter) {
  const [files, setFiles] = useState<ServerFile[]>([]);
  const [total, setTotal] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const [exhausted, setExhausted] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const nextPage = useRef(1);
  const generation = useRef(0);
  const sentinel = useRef<HTMLDivElement>(null);

  const load = useCallback(
    async (reset: boolean) => {
      const gen = reset ? ++generation.current : generation.current;
      if (reset) nextPage.current = 1;
      setLoading(true);
      try {
        const page = await calls.files(nextPage.current, PAGE_SIZE, status || undefined);
        if (gen !== generation.current) return; // the filter changed meanwhile
        setFiles((current) => (reset ? page.files : mergePage(current, page.files)));
        setTotal(page.total);
        setExhausted(page.files.length < PAGE_SIZE);
        nextPage.current += 1;
        setError(null);
        setLoaded(true);
      } catch (err) {
        if (gen === generation.current) setError(reasonOf(err));
      } finally {
        if (gen === generation.current) setLoading(false);
      }
    },
    [calls, status],
  );

  useEffect(() => {
    setFiles([]);
    setLoaded(false);
    setExhausted(false);
    void load(true);
  }, [load]);

  const hasMore = loaded && !exhausted && files.length < total;

  // Infinite scroll: the next page loads when the end of the list comes into view.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || loading || error) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void load(false);
      },
      { rootMargin: '100px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, loading, error, load]);

  useLiveRows(calls, files, setFiles);

  /** Runs an action on one file: busy meanwhile, the notice on success, the reason on failure. */
  const act = async (file: ServerFile, work: () => Promise<string>, after?: () => void) => {
    setBusyId(file.id);
    setNotice(null);
    try {
      setNotice(await work());
      setError(null);
    } catch (err) {
      setError(reasonOf(err));
    } finally {
      setBusyId(null);
      after?.();
    }
  };

  const reprocess = (file: ServerFile) =>
    act(file, async () => {
      const fresh = await calls.reprocess(file.id);
      setFiles((list) => list.map((f) => (f.id === file.id ? { ...f, ...fresh } : f)));
      return `"${file.name}" is queued for processing again.`;
    });

  const remove = (file: ServerFile, after: () => void) =>
    act(
      file,
      async () => {
        await calls.remove(file.id);
        setFiles((list) => list.filter((f) => f.id !== file.id));
        setTotal((t) => Math.max(0, t - 1));
        return `"${file.name}" was deleted.`;
      },
      after,
    );

  return {
    files,
    total,
    loaded,
    loading,
    hasMore,
    sentinel,
    error,
    notice,
    busyId,
    load,
    reprocess,
    remove,
    dismissError: () => setError(null),
    dismissNotice: () => setNotice(null),
  };
}
