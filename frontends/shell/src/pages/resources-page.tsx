// /resources (docs/product.md#public-pages): a placeholder with the product's text, dressed in the theme.
import { Link } from 'react-router-dom';
import { Gears, OrnamentalFrame } from '@kaboodle/kit';
import { PublicLayout } from './public-layout.tsx';

export default function ResourcesPage() {
  return (
    <PublicLayout>
      <div className="kbp-container kbp-centre">
        <OrnamentalFrame
          as="section"
          className="kbp-placeholder"
          title="Library"
          aria-labelledby="kbp-resources"
        >
          <div className="kbp-placeholder-art">
            <Gears size={170} />
          </div>
          <h1 id="kbp-resources">Resources</h1>
          <p className="kbp-coming">Resources page coming soon...</p>
          <p>
            Guides, templates and examples are being wound up. Until then, the{' '}
            <Link to="/about">About page</Link> explains how Kaboodle works.
          </p>
        </OrnamentalFrame>
      </div>
    </PublicLayout>
  );
}
