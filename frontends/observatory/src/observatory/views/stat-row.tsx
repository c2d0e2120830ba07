// The three figures at the top of every carousel view (the carousel counts of docs/product.md#limits).
export function StatRow({ stats }: { stats: { label: string; value: number | string }[] }) {
  return (
    <dl className="kb-obs-stats">
      {stats.map((s) => (
        <div key={s.label} className="kb-obs-stats__item">
          <dt>{s.label}</dt>
          <dd>{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}
