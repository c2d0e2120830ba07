// Standby mode hides the carousel (docs/product.md#observatory, #states).
export function StandbyView() {
  return (
    <section className="kb-obs-standby kb-frame" aria-labelledby="kb-obs-standby-title">
      <h2 id="kb-obs-standby-title">Observatory in Standby Mode</h2>
      <p>Data analysis systems are paused. Click "Active" to resume operations.</p>
    </section>
  );
}
