// The observatory's header: title, the operator (display name, else e-mail), the session clock,
// Refresh, and the Active / Standby switch.
import { useEffect, useState } from 'react';
import { Button } from '@kaboodle/kit';
import { sessionTime } from './observatory-model.ts';

export interface ObservatoryHeaderProps {
  operator: string;
  startedAt: number;
  active: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  onActive: (active: boolean) => void;
}

export function ObservatoryHeader({
  operator,
  startedAt,
  active,
  refreshing,
  onRefresh,
  onActive,
}: ObservatoryHeaderProps) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <header className="kb-obs-header">
      <div>
        <p className="kb-eyebrow">Observatory</p>
        <h1 id="kb-obs-heading">Data Intelligence &amp; Analysis Platform</h1>
        <p className="kb-obs-header__meta">
          <span>
            Operator: <strong>{operator}</strong>
          </span>
          <span>
            Session: <time className="kb-num">{sessionTime(now - startedAt)}</time>
          </span>
        </p>
      </div>
      <div className="kb-obs-header__actions">
        <Button size="sm" variant="secondary" onClick={onRefresh} disabled={refreshing}>
          {refreshing ? 'Refreshing...' : 'Refresh'}
        </Button>
        <div className="kb-obs-mode" role="radiogroup" aria-label="Mode">
          {[true, false].map((a) => (
            <button
              key={String(a)}
              type="button"
              role="radio"
              aria-checked={active === a}
              className={`kb-obs-mode__option${active === a ? ' is-active' : ''}`}
              onClick={() => onActive(a)}
            >
              {a ? 'Active' : 'Standby'}
            </button>
          ))}
        </div>
      </div>
    </header>
  );
}
