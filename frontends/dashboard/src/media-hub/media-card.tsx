// One file in the Media Hub: its picture (the whole photo, never a crop), name, status, type, size,
// age, live progress, what it became, and Preview, Download, Reprocess and Delete.
import { Link } from 'react-router-dom';
import { Button, Progress, SampleBadge } from '@kaboodle/kit';
import { fileContentPath, type ServerFile, type ServerFileStatus } from '../lib/dashboard-api.ts';
import { FileThumb } from '../lib/file-thumb.tsx';
import { formatBytes, relativeTime, stageLabel, typeLabel } from '../lib/format.ts';

const STATUS_TEXT: Record<ServerFileStatus, string> = {
  queued: 'Queued',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const inFlight = (f: ServerFile) => f.status === 'queued' || f.status === 'processing';

export function MediaCard({
  file,
  onDelete,
  onReprocess,
  onPreview,
  busy,
}: {
  file: ServerFile;
  onDelete: () => void;
  onReprocess: () => void;
  onPreview: () => void;
  busy: boolean;
}) {
  const isImage = file.content_type.startsWith('image/');
  return (
    <li className="kbd-media-card kb-frame" data-testid="media-item" data-name={file.name}>
      <div className="kbd-media-card__preview">
        <FileThumb
          src={isImage ? fileContentPath(file.id) : null}
          type={file.source_url && !file.content_type ? 'link' : file.content_type}
          name={file.name}
          size={40}
        />
      </div>
      <div className="kbd-media-card__body">
        <span className="kbd-media-card__name">
          {file.name}
          {file.sample && <SampleBadge />}
        </span>
        <span className="kbd-item__meta">
          <span className="kbd-status" data-status={file.status} data-testid="media-status">
            {STATUS_TEXT[file.status]}
          </span>
          <span>{typeLabel(file.content_type, file.name)}</span>
          <span>{formatBytes(file.size)}</span>
          {file.created_at && (
            <time dateTime={file.created_at} title={new Date(file.created_at).toLocaleString()}>
              {relativeTime(file.created_at)}
            </time>
          )}
        </span>
        {inFlight(file) && (
          <Progress
            value={file.progress}
            label={file.status === 'queued' ? 'Queued' : stageLabel(file.stage)}
            className="kbd-small"
          />
        )}
        {file.status === 'failed' && file.error && <p className="kbd-item__error">{file.error}</p>}
        {file.result && (
          <Link className="kbd-link" to={file.result.url}>
            {file.result.type === 'document' ? 'Open document' : 'Open inventory item'}
          </Link>
        )}
        <div className="kbd-media-card__actions">
          <Button size="sm" variant="secondary" onClick={onPreview} aria-label={`Preview ${file.name}`}>
            Preview
          </Button>
          <a
            className="kb-button kb-button--secondary kb-button--sm"
            href={fileContentPath(file.id, true)}
            download={file.name}
            aria-label={`Download ${file.name}`}
          >
            Download
          </a>
          <Button
            size="sm"
            variant="ghost"
            onClick={onReprocess}
            disabled={busy || inFlight(file)}
            aria-label={`Reprocess ${file.name}`}
          >
            Reprocess
          </Button>
          <Button
            size="sm"
            variant="danger"
            onClick={onDelete}
            disabled={busy}
            aria-label={`Delete ${file.name}`}
          >
            Delete
          </Button>
        </div>
      </div>
    </li>
  );
}
