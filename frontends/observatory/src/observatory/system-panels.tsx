// The footer's two panels. System Insights: trends, recommendations and the near-duplicate review.
// System Diagnostics: real figures (the processing queue's processed share, files waiting, pipeline
// lag, the search index's size, the server's memory) in place of the spec's fixed 67 % and 94 %.
import { Progress, Recommendations, TrendsPanel, type Insights } from '@kaboodle/kit';
import { DuplicatesReview } from './duplicates-review.tsx';
import { formatBytes, formatDuration, percent } from './observatory-model.ts';

export function SystemInsights({ insights, onChanged }: { insights: Insights; onChanged: () => void }) {
  return (
    <section className="kb-obs-panel kb-frame" aria-labelledby="kb-obs-insights">
      <h2 id="kb-obs-insights">System Insights</h2>
      <TrendsPanel initial={insights.trends} title="Trends" max={5} />
      <div className="kb-obs-panel__grid">
        {insights.recommendations.available ? (
          <Recommendations items={insights.recommendations.items} title="You may also want" />
        ) : (
          <p className="kb-muted">Recommendations are not available right now.</p>
        )}
        <DuplicatesReview pairs={insights.duplicates.pairs} onChanged={onChanged} />
      </div>
    </section>
  );
}

export function SystemDiagnostics({ insights }: { insights: Insights }) {
  const d = insights.diagnostics;
  const processed = percent(d.processing.processed_share);
  const memory = percent(d.memory.share) ?? 0;
  return (
    <section className="kb-obs-panel kb-frame" aria-labelledby="kb-obs-diagnostics">
      <h2 id="kb-obs-diagnostics">System Diagnostics</h2>
      <Progress value={processed ?? 0} label="Processing Queue" />
      <Progress value={memory} label="Memory Usage" />
      <dl className="kb-obs-diag">
        <div>
          <dt>Files waiting</dt>
          <dd className="kb-num">{d.processing.files_waiting}</dd>
        </div>
        <div>
          <dt>Pipeline lag</dt>
          <dd className="kb-num">
            {d.processing.files_waiting === 0 ? 'none' : formatDuration(d.processing.pipeline_lag_ms)}
          </dd>
        </div>
        <div>
          <dt>Typical processing</dt>
          <dd className="kb-num">{formatDuration(d.processing.recent_processing_ms)}</dd>
        </div>
        <div>
          <dt>Search index</dt>
          <dd className="kb-num">
            {d.index ? `${d.index.entities} entries · ${formatBytes(d.index.size_bytes)}` : 'not reachable'}
          </dd>
        </div>
        <div>
          <dt>Server memory</dt>
          <dd className="kb-num">
            {formatBytes(d.memory.rss_bytes)} of {formatBytes(d.memory.system_total_bytes)}
          </dd>
        </div>
        <div>
          <dt>Failed files</dt>
          <dd className="kb-num">{d.processing.files_failed}</dd>
        </div>
      </dl>
    </section>
  );
}
