// The vault remote's routes: /documents, /search and /kaboodles. The shell mounts this for those
// paths; the screens fill in with the catalogue and search issues.
import { Link, Route, Routes } from 'react-router-dom';
import { FeaturePreview } from '@kaboodle/kit';
import type { RemoteAppProps } from '@kaboodle/kit';

function DocumentVault() {
  return (
    <FeaturePreview
      eyebrow="Your library"
      heading="Document Vault"
      description="Every document Kaboodle has read for you, with its AI summary, author, year, publisher, thesis, influences and hashtags, ready to sort, filter, search by meaning and export."
      upcoming={[
        'Four views: Table, Grid, Graph (documents linked by shared tags, authors and similarity) and Browser',
        'Keyword filter, category filter and semantic search',
        'Download the original file; export CSV and JSON',
      ]}
      actions={
        <Link className="kb-button" to="/process">
          Add documents
        </Link>
      }
    />
  );
}

function SearchScreen() {
  return (
    <FeaturePreview
      eyebrow="Ask in your own words"
      heading="AI-Powered Search"
      description="One search box across your documents and inventory: semantic search finds items by meaning and context, keyword search finds exact word matches."
      upcoming={[
        'Results as you type (300 ms pause)',
        'Match percentage and highlighted query words',
        'Example queries to start from',
      ]}
      actions={
        <Link className="kb-button kb-button--secondary" to="/dashboard">
          Back to Dashboard
        </Link>
      }
    />
  );
}

function Kaboodles() {
  return (
    <FeaturePreview
      eyebrow="Collections"
      heading="Kaboodles"
      description="Gather documents and inventory items into kaboodles: named collections you can describe, open, share between projects and export."
      upcoming={[
        'Create, rename, describe and delete kaboodles',
        'Add and remove documents and items',
        'Export a kaboodle as CSV or JSON',
      ]}
    />
  );
}

export default function App(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/documents" element={<DocumentVault />} />
      <Route path="/search" element={<SearchScreen />} />
      <Route path="/kaboodles" element={<Kaboodles />} />
    </Routes>
  );
}
