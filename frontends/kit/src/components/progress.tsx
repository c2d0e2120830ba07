// Determinate progress bar with an accessible value.
export interface ProgressProps {
  /** 0–100; clamped. */
  value: number;
  label?: string;
  showValue?: boolean;
  className?: string;
}

export function Progress({ value, label, showValue = true, className }: ProgressProps) {
  const pct = Math.max(0, Math.min(100, Math.round(Number.isFinite(value) ? value : 0)));
  return (
    <div className={['kb-progress', className].filter(Boolean).join(' ')}>
      {(label || showValue) && (
        <div className="kb-progress__label">
          <span>{label}</span>
          {showValue && <span>{pct}%</span>}
        </div>
      )}
      <div
        className="kb-progress__track"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-label={label ?? 'Progress'}
      >
        <div className="kb-progress__bar" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
