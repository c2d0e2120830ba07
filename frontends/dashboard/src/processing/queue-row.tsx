// One file of the Processing Hub's queue: thumbnail, name, status, size, live phase and progress, and the
// action its status allows (Remove, Cancel, Retry, or a link to what it became).
import { Link } from 'react-router-dom';
import { Button } from '@kaboodle/kit';
import { FileThumb } from '../lib/file-thumb.tsx';
import { ItemBar } from '../lib/item-bar.tsx';
import { formatBytes } from '../lib/format.ts';
import type { QueueItem } from './queue.ts';

const STATUS_TEXT: Record<QueueItem['status'], string> = {
  ready: 'Ready',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
};

export interface QueueRowProps {
  item: QueueItem;
  onRemove: () => void;
  onRetry: () => void;
  onCancel: () => void;
}

function RowAction({ item, onRemove, onRetry, onCancel }: QueueRowProps) {
  if (item.status === 'ready')
    return (
      <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove ${item.name}`}>
        Remove
      </Button>
    );
  if (item.status === 'processing')
    return (
      <Button size="sm" variant="ghost" onClick={onCancel} aria-label={`Cancel ${item.name}`}>
        Cancel
      </Button>
    );
  if (item.status === 'failed')
    return (
      <Button size="sm" variant="secondary" onClick={onRetry} aria-label={`Retry ${item.name}`}>
        Retry
      </Button>
    );
  if (!item.result) return null;
  return (
    <Link className="kbd-link" to={item.result.url} aria-label={`Open the result of ${item.name}`}>
      {item.result.type === 'document' ? 'Open document' : 'Open item'}
    </Link>
  );
}

export function QueueRow(props: QueueRowProps) {
  const { item } = props;
  return (
    <li className="kbd-item" data-status={item.status} data-testid="queue-item" data-name={item.name}>
      <span className="kbd-thumb">
        <FileThumb src={item.previewUrl} type={item.type} name={item.name} />
      </span>
      <div className="kbd-item__main">
        <span className="kbd-item__name" title={item.name}>
          {item.name}
        </span>
        <span className="kbd-item__meta">
          <span className="kbd-status" data-status={item.status} data-testid="item-status">
            {STATUS_TEXT[item.status]}
          </span>
          {item.size > 0 && <span>{formatBytes(item.size)}</span>}
          {item.status === 'processing' && item.phase && <span aria-live="polite">{item.phase}</span>}
          {item.status === 'processing' && <span>{item.progress}%</span>}
        </span>
        {(item.status === 'processing' || item.progress > 0) && item.status !== 'failed' && (
          <ItemBar value={item.progress} label={`Progress of ${item.name}`} />
        )}
        {item.duplicateNote && <p className="kbd-item__note">{item.duplicateNote}</p>}
        {item.error && (
          <p className="kbd-item__error" data-testid="item-error">
            {item.error}
          </p>
        )}
      </div>
      <div className="kbd-item__actions">
        <RowAction {...props} />
      </div>
    </li>
  );
}
