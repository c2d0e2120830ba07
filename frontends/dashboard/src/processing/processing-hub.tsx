// /process and /upload (docs/product.md#processing-hub "Processing Hub", docs/product.md#processing): pick or
// drop files or paste links, choose the destination and the AI instructions, and process the queue one file
// at a time with live progress (upload, then the server's stages), Retry, cancel and the error list.
// The hooks own the state (use-processing-options.ts, use-processing-queue.ts); the parts only render.
import { useRef } from 'react';
import { createDashboardApi, type DashboardApi } from '../lib/dashboard-api.ts';
import { DropZone } from './drop-zone.tsx';
import { ErrorList } from './error-list.tsx';
import { LinkForm } from './link-form.tsx';
import type { ProcessDeps } from './process-item.ts';
import { DestinationField, InstructionsField } from './processing-options.tsx';
import { QueuePanel } from './queue-panel.tsx';
import { useProcessingOptions } from './use-processing-options.ts';
import { useProcessingQueue } from './use-processing-queue.ts';

export { DESTINATION_CHOICES } from './processing-options.tsx';

export default function ProcessingHub({
  dashboardApi,
  processDeps,
}: {
  dashboardApi?: DashboardApi;
  processDeps?: Partial<ProcessDeps>;
}) {
  const calls = useRef(dashboardApi ?? createDashboardApi()).current;
  const options = useProcessingOptions(calls);
  const work = useProcessingQueue(calls, options, processDeps);

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

      <ErrorList errors={work.queue.errors} onClear={work.clearErrors} />

      <div className="kbd-hub">
        <div className="kbd-panel kb-frame">
          <h2>Add files</h2>
          <DropZone onFiles={work.addFiles} />
          <LinkForm onAdd={work.addLink} />
          <InstructionsField options={options} />
          <DestinationField options={options} />
        </div>
        <QueuePanel work={work} blocked={options.tooLong} />
      </div>
    </section>
  );
}
