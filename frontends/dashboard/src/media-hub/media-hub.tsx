// /media-hub (docs/product.md#media-hub): every file the user uploaded (GET /process/files, newest first,
// loaded page by page as the list scrolls), with a preview, type, size, status, what it became, and download,
// delete (after a confirmation) and reprocess. Files still in flight are followed live; ?file=<id>
// opens that file's preview (use-linked-file.ts).
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Banner, Button, Dialog } from '@kaboodle/kit';
import {
  createDashboardApi,
  reasonOf,
  type DashboardApi,
  type ServerFile,
  type ServerFileStatus,
} from '../lib/dashboard-api.ts';
import { inFlight, MediaCard } from './media-card.tsx';
import { MediaPreview } from './media-preview.tsx';
import { useLinkedFile } from './use-linked-file.ts';

export const PAGE_SIZE = 20;
/** How often rows still queued or processing are refreshed. */
export const LIVE_REFRESH_MS = 2000;

const STATUS_FILTERS: { value: '' | ServerFileStatus; label: string }[] = [
  { value: '', label: 'All files' },
  { value: 'queued', label: 'Queued' },
  { value: 'processing', label: 'Processing' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
  { value: 'cancelled', label: 'Cancelled' },
];

/** Appends a page, dropping files already listed (new uploads shift the pages while one scrolls). */
export function mergePage(current: ServerFile[], page: ServerFile[]): ServerFile[] {
  const seen = new Set(current.map((f) => f.id));
  return [...current, ...page.filter((f) => !seen.has(f.id))];
}

export default function MediaHub({ dashboardApi }: { dashboardApi?: DashboardApi }) {
  const calls = useRef(dashboardApi ?? createDashboardApi()).current;
  const [files, setFiles] = useState<ServerFile[]>([]);
  const [total, setTotal] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const [exhausted, setExhausted] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [status, setStatus] = useState<'' | ServerFileStatus>('');
  const [confirming, setConfirming] = useState<ServerFile | null>(null);
  const [previewing, setPreviewing] = useState<ServerFile | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const linkProblem = useLinkedFile(calls, setPreviewing);
  const nextPage = useRef(1);
  const generation = useRef(0);
  const sentinel = useRef<HTMLDivElement>(null);
  const filterId = useId();
  const filesRef = useRef(files);
  filesRef.current = files;

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

  // Rows still queued or processing follow the server until they end.
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
  }, [liveIds, calls]);

  const reprocess = async (file: ServerFile) => {
    setBusyId(file.id);
    setNotice(null);
    try {
      const fresh = await calls.reprocess(file.id);
      setFiles((list) => list.map((f) => (f.id === file.id ? { ...f, ...fresh } : f)));
      setNotice(`"${file.name}" is queued for processing again.`);
      setError(null);
    } catch (err) {
      setError(reasonOf(err));
    } finally {
      setBusyId(null);
    }
  };

  const remove = async (file: ServerFile) => {
    setBusyId(file.id);
    setNotice(null);
    try {
      await calls.remove(file.id);
      setFiles((list) => list.filter((f) => f.id !== file.id));
      setTotal((t) => Math.max(0, t - 1));
      setNotice(`"${file.name}" was deleted.`);
      setError(null);
    } catch (err) {
      setError(reasonOf(err));
    } finally {
      setBusyId(null);
      setConfirming(null);
    }
  };

  return (
    <section className="kbd-page" aria-labelledby="kbd-media-title">
      <header className="kbd-toolbar">
        <div>
          <p className="kb-eyebrow">Your files</p>
          <h1 id="kbd-media-title">Media Hub</h1>
          <p className="kbd-muted" data-testid="media-total" aria-live="polite">
            {loaded ? `${total} file${total === 1 ? '' : 's'}` : 'Loading your files…'}
          </p>
        </div>
        <div className="kb-field">
          <label htmlFor={filterId}>Status</label>
          <select
            id={filterId}
            value={status}
            onChange={(e) => setStatus(e.target.value as '' | ServerFileStatus)}
          >
            {STATUS_FILTERS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </header>

      {error && (
        <Banner tone="error" onDismiss={() => setError(null)}>
          {error}{' '}
          {!loaded && (
            <Button size="sm" variant="ghost" onClick={() => void load(true)}>
              Try again
            </Button>
          )}
        </Banner>
      )}
      {linkProblem && <Banner tone="error">{linkProblem}</Banner>}
      {notice && (
        <Banner tone="success" onDismiss={() => setNotice(null)}>
          {notice}
        </Banner>
      )}

      {loaded && files.length === 0 ? (
        <div className="kbd-empty kb-frame">
          <p>
            {status ? 'No files with this status.' : 'No files yet. Everything you upload will appear here.'}
          </p>
          {!status && (
            <Link className="kb-button" to="/process">
              Process Files Now
            </Link>
          )}
        </div>
      ) : (
        <ul className="kbd-media" aria-label="Uploaded files">
          {files.map((file) => (
            <MediaCard
              key={file.id}
              file={file}
              busy={busyId === file.id}
              onDelete={() => setConfirming(file)}
              onPreview={() => setPreviewing(file)}
              onReprocess={() => void reprocess(file)}
            />
          ))}
        </ul>
      )}

      {hasMore && (
        <div className="kbd-empty">
          <div ref={sentinel} className="kbd-sentinel" aria-hidden="true" />
          <Button variant="ghost" onClick={() => void load(false)} disabled={loading}>
            {loading ? 'Loading more files...' : 'Load more files'}
          </Button>
        </div>
      )}
      {loading && !loaded && (
        <p className="kbd-muted" role="status">
          Loading your files…
        </p>
      )}

      <MediaPreview file={previewing} onClose={() => setPreviewing(null)} />

      <Dialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Delete this file?"
        maxWidth={480}
      >
        {confirming && (
          <>
            <p>
              “{confirming.name}” will be deleted with its processing record and whatever was made from it
              (the document or inventory item). This cannot be undone.
            </p>
            <div className="kbd-dialog-actions">
              <Button variant="ghost" onClick={() => setConfirming(null)}>
                Keep it
              </Button>
              <Button
                variant="danger"
                onClick={() => void remove(confirming)}
                disabled={busyId === confirming.id}
              >
                {busyId === confirming.id ? 'Deleting…' : 'Delete file'}
              </Button>
            </div>
          </>
        )}
      </Dialog>
    </section>
  );
}
