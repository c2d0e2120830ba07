// The Processing Hub's queue panel: Clear Completed and Process, the batch's overall progress, the files
// and, once some are done, where to find them (the Media Hub).
import { Link } from 'react-router-dom';
import { Banner, Button, Progress } from '@kaboodle/kit';
import { overallProgress } from './queue.ts';
import { QueueRow } from './queue-row.tsx';
import type { BatchState, ProcessingQueue } from './use-processing-queue.ts';

function processLabel(running: boolean, readyCount: number): string {
  if (running) return 'Processing…';
  if (readyCount > 0) return `Process ${readyCount} ${readyCount === 1 ? 'file' : 'files'}`;
  return 'Process files';
}

function BatchProgress({ batch }: { batch: BatchState }) {
  const current = batch.current ? `: ${batch.current}` : '';
  return (
    <div className="kbd-batch" data-testid="batch-progress">
      <Progress
        value={overallProgress(batch.done, batch.total)}
        label={`File ${Math.min(batch.done + 1, batch.total)} of ${batch.total}${current}`}
      />
    </div>
  );
}

export function QueuePanel({ work, blocked }: { work: ProcessingQueue; blocked: boolean }) {
  const { queue, batch, readyCount, completedCount } = work;
  const running = batch !== null;
  return (
    <div className="kbd-panel kb-frame" aria-labelledby="kbd-queue-title" role="region">
      <div className="kbd-queue__head">
        <h2 id="kbd-queue-title">Queue ({queue.items.length})</h2>
        <div className="kbd-row">
          <Button variant="ghost" size="sm" onClick={work.clearCompleted} disabled={completedCount === 0}>
            Clear Completed
          </Button>
          <Button onClick={() => void work.runBatch()} disabled={running || readyCount === 0 || blocked}>
            {processLabel(running, readyCount)}
          </Button>
        </div>
      </div>

      {batch && <BatchProgress batch={batch} />}

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
              onRemove={() => work.remove(item.id)}
              onRetry={() => work.retry(item.id)}
              onCancel={() => work.cancel(item.id)}
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
  );
}
