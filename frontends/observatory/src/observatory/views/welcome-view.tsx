// With no data at all the carousel gives way to this welcome (docs/product.md#observatory).
import { Link } from 'react-router-dom';
import { Gears } from '@kaboodle/kit';

export function WelcomeView() {
  return (
    <section className="kb-obs-welcome kb-frame" aria-labelledby="kb-obs-welcome-title">
      <Gears size={120} />
      <h2 id="kb-obs-welcome-title">Data Observatory</h2>
      <p className="kb-obs-welcome__ready">Intelligence System Ready</p>
      <p className="kb-muted">
        Nothing to analyse yet. <Link to="/process">Upload documents and photos</Link> and the observatory
        fills in as they are processed.
      </p>
    </section>
  );
}
