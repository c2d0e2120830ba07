// Total Items, Processed and Connections (docs/product.md#observatory, #limits), with the status label
// (docs/product.md#states).
import type { StatusLabel, Totals } from './observatory-model.ts';

export function StatusBar({ totals, status }: { totals: Totals; status: StatusLabel }) {
  return (
    <div className="kb-obs-status kb-frame" role="status" aria-label="System status">
      <dl>
        <div>
          <dt>Total Items</dt>
          <dd className="kb-num">{totals.total}</dd>
        </div>
        <div>
          <dt>Processed</dt>
          <dd className="kb-num">{totals.processed}</dd>
        </div>
        <div>
          <dt>Connections</dt>
          <dd className="kb-num">{totals.connections}</dd>
        </div>
      </dl>
      <p className={`kb-obs-status__label kb-obs-status__label--${status}`}>
        <span className="kb-obs-status__lamp" aria-hidden="true" />
        {status}
      </p>
    </div>
  );
}
