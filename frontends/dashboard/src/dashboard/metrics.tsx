// The dashboard's four metric cards (docs/product.md#dashboard: the values are real, from GET /api/stats).
import type { Stats } from '../lib/dashboard-api.ts';
import { formatBytes, formatPercent } from '../lib/format.ts';

export interface MetricView {
  label: string;
  value: string;
  hint: string;
}

export function metricsOf(s: Stats | null): MetricView[] {
  const finished = s ? s.files_completed + s.files_failed : 0;
  return [
    {
      label: 'Documents Processed',
      value: s ? String(s.documents_processed) : '…',
      hint: 'in your Document Library',
    },
    { label: 'Archive Items', value: s ? String(s.inventory_items) : '…', hint: 'catalogued in the vault' },
    {
      label: 'Processing Efficiency',
      value: s ? formatPercent(s.processing_efficiency) : '…',
      hint:
        s && finished > 0 ? `${s.files_completed} of ${finished} files completed` : 'no file finished yet',
    },
    {
      label: 'Storage Utilized',
      value: s ? formatBytes(s.storage_bytes) : '…',
      hint: s ? `${s.files_total} file${s.files_total === 1 ? '' : 's'} stored` : 'of your uploads',
    },
  ];
}

export function Metrics({ stats }: { stats: Stats | null }) {
  return (
    <section aria-labelledby="kbd-metrics-title">
      <h2 id="kbd-metrics-title" className="kb-visually-hidden">
        Metrics
      </h2>
      <div className="kbd-metrics">
        {metricsOf(stats).map((m) => (
          <div
            key={m.label}
            className="kbd-metric kb-frame"
            aria-busy={stats === null}
            data-testid="metric"
            role="group"
            aria-label={m.label}
          >
            <span className="kbd-metric__label">{m.label}</span>
            <span className="kbd-metric__value" data-testid="metric-value">
              {m.value}
            </span>
            <span className="kbd-metric__hint">{m.hint}</span>
          </div>
        ))}
      </div>
    </section>
  );
}
