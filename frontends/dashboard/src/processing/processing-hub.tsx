// /process and /upload (docs/product.md#processing-hub "Processing Hub", docs/product.md#processing): pick or
// drop files or paste links, choose the destination and the AI instructions, and process the queue one file
// at a time with live progress (upload, then the server's stages), Retry, cancel and the error list.
import { useCallback, useEffect, useId, useReducer, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Banner, Button, Progress } from '@kaboodle/kit';
import {
  createDashboardApi,
  MAX_INSTRUCTIONS,
  reasonOf,
  type DashboardApi,
  type Destination,
} from '../lib/dashboard-api.ts';
import { FileThumb } from '../lib/file-thumb.tsx';
import { ItemBar } from '../lib/item-bar.tsx';
import { formatBytes } from '../lib/format.ts';
import { DropZone } from './drop-zone.tsx';
import { parseUrl } from './file-rules.ts';
import {
  CANCELLED_BY_USER,
  processFailedMessage,
  processItem,
  uploadCancelledMessage,
  type ProcessDeps,
} from './process-item.ts';
import {
  admitFiles,
  admitUrl,
  initialQueue,
  overallProgress,
  queueReducer,
  type QueueItem,
} from './queue.ts';

export const DESTINATION_CHOICES: { value: Destination; label: string }[] = [
  { value: 'auto', label: 'Auto' },
  { value: 'document', label: 'Document' },
  { value: 'inventory', label: 'Inventory item' },
];

const STATUS_TEXT: Record<QueueItem['status'], string> = {
  ready: 'Ready',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
};

interface BatchState {
  total: number;
  done: number;
  current: string | null;
}

function QueueRow({
  item,
  onRemove,
  onRetry,
  onCancel,
}: {
  item: QueueItem;
  onRemove: () => void;
  onRetry: () => void;
  onCancel: () => void;
}) {
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
        {item.status === 'ready' && (
          <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove ${item.name}`}>
            Remove
          </Button>
        )}
        {item.status === 'processing' && (
          <Button size="sm" variant="ghost" onClick={onCancel} aria-label={`Cancel ${item.name}`}>
            Cancel
          </Button>
        )}
        {item.status === 'failed' && (
          <Button size="sm" variant="secondary" onClick={onRetry} aria-label={`Retry ${item.name}`}>
            Retry
          </Button>
        )}
        {item.status === 'completed' && item.result && (
          <Link className="kbd-link" to={item.result.url} aria-label={`Open the result of ${item.name}`}>
            {item.result.type === 'document' ? 'Open document' : 'Open item'}
          </Link>
        )}
      </div>
    </li>
  );
}

export default function ProcessingHub({
  dashboardApi,
  processDeps,
}: {
  dashboardApi?: DashboardApi;
  processDeps?: Partial<ProcessDeps>;
}) {
  const calls = useRef(dashboardApi ?? createDashboardApi()).current;
  const [queue, dispatch] = useReducer(queueReducer, initialQueue);
  const queueRef = useRef(queue);
  queueRef.current = queue;
  const [instructions, setInstructions] = useState('');
  const [destination, setDestination] = useState<Destination>('auto');
  const touched = useRef({ instructions: false, destination: false });
  const [link, setLink] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  const [batch, setBatch] = useState<BatchState | null>(null);
  const controllers = useRef(new Map<string, AbortController>());
  const previews = useRef(new Set<string>());
  const ids = { instructions: useId(), count: useId(), link: useId(), linkError: useId() };

  // The user's defaults from Settings (GET /api/auth/settings), unless already changed here.
  useEffect(() => {
    const controller = new AbortController();
    calls
      .settings(controller.signal)
      .then((s) => {
        if (!touched.current.destination) setDestination(s.default_destination);
        if (!touched.current.instructions) setInstructions(s.default_instructions);
      })
      .catch(() => undefined); // no defaults: Auto and no instructions
    return () => controller.abort();
  }, [calls]);

  // Object URLs of image previews live exactly as long as their queue items.
  useEffect(() => {
    const live = new Set(queue.items.map((i) => i.previewUrl).filter((u): u is string => u !== null));
    for (const url of previews.current) {
      if (!live.has(url)) {
        URL.revokeObjectURL(url);
        previews.current.delete(url);
      }
    }
    for (const url of live) previews.current.add(url);
  }, [queue.items]);
  useEffect(
    () => () => {
      for (const url of previews.current) URL.revokeObjectURL(url);
      // Leaving the page stops following the files; the server keeps processing them.
      for (const c of controllers.current.values()) c.abort('page-left');
    },
    [],
  );

  const addFiles = useCallback((files: File[]) => {
    dispatch({ type: 'add', ...admitFiles(files, queueRef.current.items, (f) => URL.createObjectURL(f)) });
  }, []);

  const addLink = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseUrl(link);
    if ('error' in parsed) {
      setLinkError(parsed.error);
      return;
    }
    const admitted = admitUrl(parsed.url, queueRef.current.items);
    if (admitted.errors.length > 0) {
      setLinkError(admitted.errors[0]!);
      return;
    }
    dispatch({ type: 'add', ...admitted });
    setLink('');
    setLinkError(null);
  };

  const tooLong = instructions.length > MAX_INSTRUCTIONS;
  const running = batch !== null;
  const readyCount = queue.items.filter((i) => i.status === 'ready').length;
  const completedCount = queue.items.filter((i) => i.status === 'completed').length;

  const runBatch = async () => {
    const todo = queueRef.current.items.filter((i) => i.status === 'ready').map((i) => i.id);
    if (todo.length === 0 || tooLong) return;
    const options = { instructions, destination };
    const deps: ProcessDeps = { api: calls, ...processDeps };
    setBatch({ total: todo.length, done: 0, current: null });
    try {
      for (let index = 0; index < todo.length; index++) {
        const item = queueRef.current.items.find((i) => i.id === todo[index]);
        // Removed meanwhile, or no longer ready: skip it, but count it for the overall progress.
        if (!item || item.status !== 'ready') {
          setBatch((b) => b && { ...b, done: index + 1 });
          continue;
        }
        setBatch((b) => b && { ...b, current: item.name });
        const controller = new AbortController();
        controllers.current.set(item.id, controller);
        dispatch({ type: 'update', id: item.id, patch: { status: 'processing', progress: 0, error: null } });
        const outcome = await processItem(item, options, deps, controller.signal, (patch) =>
          dispatch({ type: 'update', id: item.id, patch }),
        );
        controllers.current.delete(item.id);
        if (outcome.status === 'abandoned') return;
        if (outcome.status === 'completed') {
          dispatch({
            type: 'update',
            id: item.id,
            patch: {
              status: 'completed',
              progress: 100,
              phase: 'Completed',
              result: outcome.file.result,
              serverId: outcome.file.id,
            },
          });
        } else {
          dispatch({
            type: 'update',
            id: item.id,
            patch: {
              status: 'failed',
              error: outcome.reason,
              phase: null,
              serverId: outcome.file?.id ?? item.serverId,
            },
          });
          dispatch({
            type: 'error',
            message:
              outcome.reason === uploadCancelledMessage(item.name)
                ? outcome.reason
                : processFailedMessage(item.name, outcome.reason, item.url ? 'link' : 'file'),
          });
        }
        setBatch((b) => b && { ...b, done: index + 1 });
      }
    } catch (err) {
      dispatch({ type: 'error', message: `Batch processing failed: ${reasonOf(err)}` });
    } finally {
      setBatch(null);
    }
  };

  const cancel = (id: string) => controllers.current.get(id)?.abort(CANCELLED_BY_USER);

  return (
    <section className="kbd-page" aria-labelledby="kbd-process-title">
      <header className="kbd-header">
        <div>
          <p className="kb-eyebrow">Processing zone</p>
          <h1 id="kbd-process-title">Processing Hub</h1>
          <p className="kbd-muted">
            Upload files or paste links, tell the AI what to look for, and choose where the results go.
          </p>
        </div>
      </header>

      {queue.errors.length > 0 && (
        <section
          className="kbd-errors"
          aria-labelledby="kbd-errors-title"
          aria-live="polite"
          data-testid="error-list"
        >
          <div className="kbd-errors__head">
            <h2 id="kbd-errors-title">Errors ({queue.errors.length})</h2>
            <Button size="sm" variant="ghost" onClick={() => dispatch({ type: 'clear-errors' })}>
              Clear All
            </Button>
          </div>
          <ul role="list">
            {queue.errors.map((message, i) => (
              <li key={`${i}-${message}`}>{message}</li>
            ))}
          </ul>
        </section>
      )}

      <div className="kbd-hub">
        <div className="kbd-panel kb-frame">
          <h2>Add files</h2>
          <DropZone onFiles={addFiles} />

          <form onSubmit={addLink} noValidate className="kb-field">
            <label htmlFor={ids.link}>Paste a link</label>
            <div className="kbd-row">
              <input
                id={ids.link}
                className="kb-input"
                type="url"
                inputMode="url"
                placeholder="https://example.com/report.pdf"
                value={link}
                aria-invalid={linkError !== null}
                aria-describedby={linkError ? ids.linkError : undefined}
                onChange={(e) => {
                  setLink(e.target.value);
                  setLinkError(null);
                }}
              />
              <Button type="submit" variant="secondary" disabled={link.trim() === ''}>
                Add link
              </Button>
            </div>
            {linkError && (
              <span id={ids.linkError} className="kbd-item__error" role="alert">
                {linkError}
              </span>
            )}
          </form>

          <div className="kb-field">
            <label htmlFor={ids.instructions}>Customise AI instructions</label>
            <textarea
              id={ids.instructions}
              rows={4}
              value={instructions}
              placeholder="e.g. Focus on obligations and deadlines; tag every party named."
              aria-describedby={ids.count}
              aria-invalid={tooLong}
              onChange={(e) => {
                touched.current.instructions = true;
                setInstructions(e.target.value);
              }}
            />
            <span id={ids.count} className="kbd-field-hint" data-over={tooLong} aria-live="polite">
              {instructions.length} / {MAX_INSTRUCTIONS} characters · sent with each file
            </span>
          </div>

          <fieldset className="kbd-dest">
            <legend>Destination</legend>
            <div className="kbd-segmented">
              {DESTINATION_CHOICES.map((c) => (
                <label key={c.value}>
                  <input
                    type="radio"
                    name="destination"
                    value={c.value}
                    checked={destination === c.value}
                    onChange={() => {
                      touched.current.destination = true;
                      setDestination(c.value);
                    }}
                  />
                  <span>{c.label}</span>
                </label>
              ))}
            </div>
            <span className="kbd-field-hint">
              {destination === 'auto'
                ? 'Auto: images become inventory items, everything else becomes a document.'
                : destination === 'document'
                  ? 'Every file is read and filed in the Document Library.'
                  : 'Every file becomes a catalogued inventory item.'}
            </span>
          </fieldset>
        </div>

        <div className="kbd-panel kb-frame" aria-labelledby="kbd-queue-title" role="region">
          <div className="kbd-queue__head">
            <h2 id="kbd-queue-title">Queue ({queue.items.length})</h2>
            <div className="kbd-row">
              <Button
                variant="ghost"
                size="sm"
                onClick={() => dispatch({ type: 'clear-completed' })}
                disabled={completedCount === 0}
              >
                Clear Completed
              </Button>
              <Button onClick={() => void runBatch()} disabled={running || readyCount === 0 || tooLong}>
                {running
                  ? 'Processing…'
                  : readyCount > 0
                    ? `Process ${readyCount} ${readyCount === 1 ? 'file' : 'files'}`
                    : 'Process files'}
              </Button>
            </div>
          </div>

          {batch && (
            <div className="kbd-batch" data-testid="batch-progress">
              <Progress
                value={overallProgress(batch.done, batch.total)}
                label={`File ${Math.min(batch.done + 1, batch.total)} of ${batch.total}${batch.current ? `: ${batch.current}` : ''}`}
              />
            </div>
          )}

          {queue.items.length === 0 ? (
            <p className="kbd-muted" data-testid="queue-empty">
              No files in the queue yet. Choose or drop files, or paste a link, under “Add files”.
            </p>
          ) : (
            <ul className="kbd-queue" aria-label="Files to process">
              {queue.items.map((item) => (
                <QueueRow
                  key={item.id}
                  item={item}
                  onRemove={() => dispatch({ type: 'remove', id: item.id })}
                  onRetry={() => dispatch({ type: 'retry', id: item.id })}
                  onCancel={() => cancel(item.id)}
                />
              ))}
            </ul>
          )}

          {completedCount > 0 && !running && (
            <Banner tone="success">
              {completedCount} file{completedCount === 1 ? '' : 's'} processed. See them all in the{' '}
              <Link to="/media-hub">Media Hub</Link>.
            </Banner>
          )}
        </div>
      </div>
    </section>
  );
}
