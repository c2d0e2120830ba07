// Any unknown path (docs/product.md#public-pages): "404", "Page Not Found", a sentence, links to / and
// /dashboard.
import { Link } from 'react-router-dom';
import { OrnamentalFrame, TickMascot } from '@kaboodle/kit';
import { PublicLayout } from './public-layout.tsx';

export const NOT_FOUND_SENTENCE = 'The page you are looking for does not exist in Kaboodle’s universe.';

export default function NotFoundPage() {
  return (
    <PublicLayout>
      <div className="kbp-container kbp-centre">
        <OrnamentalFrame as="section" className="kbp-placeholder" aria-labelledby="kbp-404-title">
          <div className="kbp-placeholder-art">
            <TickMascot size={120} pose="reading" title="Tick searching his index cards" />
          </div>
          <p className="kbp-404-code">404</p>
          <h1 id="kbp-404-title">Page Not Found</h1>
          <p>{NOT_FOUND_SENTENCE}</p>
          <p className="kbp-muted">Tick checked every index card and found no entry for this address.</p>
          <nav className="kbp-404-links" aria-label="Where to go instead">
            <Link to="/" className="kb-button kbp-link-button">
              Return Home
            </Link>
            <Link to="/dashboard" className="kb-button kb-button--secondary kbp-link-button">
              Go to Dashboard
            </Link>
          </nav>
        </OrnamentalFrame>
      </div>
    </PublicLayout>
  );
}
