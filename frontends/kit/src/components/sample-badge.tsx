// "Sample": marks what came from the first-run sample library (documents, items, files), so nobody
// mistakes it for their own. Screen readers hear it with the name it follows.
export function SampleBadge({ className }: { className?: string }) {
  return (
    <span
      className={['kb-sample-badge', className].filter(Boolean).join(' ')}
      title="From the sample library: remove it from the dashboard in one click"
      data-testid="sample-badge"
    >
      Sample
    </span>
  );
}
