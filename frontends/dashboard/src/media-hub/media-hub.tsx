// /media-hub (docs/product.md#media-hub): every file the user uploaded (GET /process/files, newest first,
// loaded page by page as the list scrolls), with a preview, type, size, status, what it became, and download,
// delete (after a confirmation) and reprocess. Files still in flight are followed live; ?file=<id>
// opens that file's preview (use-linked-file.ts). useMediaFiles owns the data; the parts only render.
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Banner, Button } from '@kaboodle/kit';
import { createDashboardApi, type DashboardApi, type ServerFile } from '../lib/dashboard-api.ts';
import { DeleteFileDialog } from './delete-file-dialog.tsx';
import { MediaCard } from './media-card.tsx';
import { MediaPreview } from './media-preview.tsx';
import { MediaToolbar } from './media-toolbar.tsx';
import { useLinkedFile } from './use-linked-file.ts';
import { useMediaFiles, type StatusFilter } from './use-media-files.ts';

export { LIVE_REFRESH_MS, PAGE_SIZE, mergePage } from './use-media-files.ts';

function EmptyMedia({ filtered }: { filtered: boolean }) {
  return (
    <div className="kbd-empty kb-frame">
      <p>
        {filtered ? 'No files with this status.' : 'No files yet. Everything you upload will appear here.'}
      </p>
      {!filtered && (
        <Link className="kb-button" to="/process">
          Process Files Now
        </Link>
      )}
    </div>
  );
}

export default function MediaHub({ dashboardApi }: { dashboardApi?: DashboardApi }) {
  const calls = useRef(dashboardApi ?? createDashboardApi()).current;
  const [status, setStatus] = useState<StatusFilter>('');
  const [confirming, setConfirming] = useState<ServerFile | null>(null);
  const [previewing, setPreviewing] = useState<ServerFile | null>(null);
  const linkProblem = useLinkedFile(calls, setPreviewing);
  const media = useMediaFiles(calls, status);
  const { files, loaded, loading, error, notice, busyId } = media;

  return (
    <section className="kbd-page" aria-labelledby="kbd-media-title">
      <MediaToolbar total={loaded ? media.total : null} status={status} onStatus={setStatus} />

      {error && (
        <Banner tone="error" onDismiss={media.dismissError}>
          {error}{' '}
          {!loaded && (
            <Button size="sm" variant="ghost" onClick={() => void media.load(true)}>
              Try again
            </Button>
          )}
        </Banner>
      )}
      {linkProblem && <Banner tone="error">{linkProblem}</Banner>}
      {notice && (
        <Banner tone="success" onDismiss={media.dismissNotice}>
          {notice}
        </Banner>
      )}

      {loaded && files.length === 0 ? (
        <EmptyMedia filtered={status !== ''} />
      ) : (
        <ul className="kbd-media" aria-label="Uploaded files">
          {files.map((file) => (
            <MediaCard
              key={file.id}
              file={file}
              busy={busyId === file.id}
              onDelete={() => setConfirming(file)}
              onPreview={() => setPreviewing(file)}
              onReprocess={() => void media.reprocess(file)}
            />
          ))}
        </ul>
      )}

      {media.hasMore && (
        <div className="kbd-empty">
          <div ref={media.sentinel} className="kbd-sentinel" aria-hidden="true" />
          <Button variant="ghost" onClick={() => void media.load(false)} disabled={loading}>
            {loading ? 'Loading more files...' : 'Load more files'}
          </Button>
        </div>
      )}
      {loading && !loaded && (
        <p className="kbd-muted" role="status">
          Loading your files…
        </p>
      )}

      <MediaPreview calls={calls} file={previewing} onClose={() => setPreviewing(null)} />
      <DeleteFileDialog
        file={confirming}
        busy={confirming !== null && busyId === confirming.id}
        onClose={() => setConfirming(null)}
        onDelete={(file) => void media.remove(file, () => setConfirming(null))}
      />
    </section>
  );
}
