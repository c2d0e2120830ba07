// The vault remote's routes: /documents (the Document Vault), /search (AI-Powered Search) and
// /kaboodles (still a preview). The shell mounts this for those paths.
import { Route, Routes } from 'react-router-dom';
import { FeaturePreview } from '@kaboodle/kit';
import type { RemoteAppProps } from '@kaboodle/kit';
import { DocumentVault } from './documents/document-vault.tsx';
import { SearchScreen } from './search/search-screen.tsx';
import './vault.css';

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

export default function App(props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/documents" element={<DocumentVault {...props} />} />
      <Route path="/search" element={<SearchScreen {...props} />} />
      <Route path="/kaboodles" element={<Kaboodles />} />
    </Routes>
  );
}
