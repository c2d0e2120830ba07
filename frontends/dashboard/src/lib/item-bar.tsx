// A slim progress bar named for assistive technology only (the row already says what is happening),
// drawn with the kit theme's progress classes.
export function ItemBar({ value, label }: { value: number; label: string }) {
  const pct = Math.max(0, Math.min(100, Math.round(Number.isFinite(value) ? value : 0)));
  return (
    <div
      className="kb-progress__track"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-label={label}
    >
      <div className="kb-progress__bar" style={{ width: `${pct}%` }} />
    </div>
  );
}
