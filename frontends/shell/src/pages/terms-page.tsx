// /terms (docs/product.md#public-pages): a placeholder with the product's text, dressed in the theme.
import { Link } from 'react-router-dom';
import { OrnamentalFrame, Pendulum } from '@kaboodle/kit';
import { PublicLayout } from './public-layout.tsx';

export default function TermsPage() {
  return (
    <PublicLayout>
      <div className="kbp-container kbp-centre">
        <OrnamentalFrame as="section" className="kbp-placeholder" title="Terms" aria-labelledby="kbp-terms">
          <div className="kbp-placeholder-art">
            <Pendulum size={84} />
          </div>
          <h1 id="kbp-terms">Terms of Service</h1>
          <p className="kbp-coming">Terms of Service page coming soon...</p>
          <p>
            The full terms are being drafted. Your documents and items belong to you alone: nobody else can
            see them. <Link to="/">Back to the landing page</Link>.
          </p>
        </OrnamentalFrame>
      </div>
    </PublicLayout>
  );
}
