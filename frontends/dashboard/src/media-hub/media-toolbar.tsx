// The Media Hub's heading: how many files there are, and the status filter.
import { useId } from 'react';
import type { StatusFilter } from './use-media-files.ts';

const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: '', label: 'All files' },
  { value: 'queued', label: 'Queued' },
  { value: 'processing', label: 'Processing' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
  { value: 'cancelled', label: 'Cancelled' },
];

export interface MediaToolbarProps {
  /** null while the first page is loading. */
  total: number | null;
  status: StatusFilter;
  onStatus: (status: StatusFilter) => void;
}

export function MediaToolbar({ total, status, onStatus }: MediaToolbarProps) {
  const filterId = useId();
  return (
    <header className="kbd-toolbar">
      <div>
        <p className="kb-eyebrow">Your files</p>
        <h1 id="kbd-media-title">Media Hub</h1>
        <p className="kbd-muted" data-testid="media-total" aria-live="polite">
          {total !== null ? `${total} file${total === 1 ? '' : 's'}` : 'Loading your files…'}
        </p>
      </div>
      <div className="kb-field">
        <label htmlFor={filterId}>Status</label>
        <select id={filterId} value={status} onChange={(e) => onStatus(e.target.value as StatusFilter)}>
          {STATUS_FILTERS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
    </header>
  );
}
