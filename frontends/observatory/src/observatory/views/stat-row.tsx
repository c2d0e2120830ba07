// The three figures at the top of every carousel view (spec 9's carousel counts).
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
