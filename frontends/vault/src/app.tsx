// The vault remote's routes: /documents (the Document Vault), /search (AI-Powered Search), and
// /kaboodles with /kaboodles/:id (collections). The shell mounts this for those paths.
import { Route, Routes } from 'react-router-dom';
import type { RemoteAppProps } from '@kaboodle/kit';
import { DocumentVault } from './documents/document-vault.tsx';
import { KaboodleDetail } from './kaboodles/kaboodle-detail.tsx';
import { KaboodlesScreen } from './kaboodles/kaboodles-screen.tsx';
import { SearchScreen } from './search/search-screen.tsx';
// The stylesheets in cascade order: rules of equal specificity in a later one win.
import './vault.css';
import './documents/views/table/table.css';
import './documents/semantic-results.css';
import './documents/views/grid-view.css';
import './documents/views/graph/graph.css';
import './documents/views/browser/browser.css';
import './documents/metadata/metadata.css';
import './search/search.css';
import './small-screens.css';

export default function App(props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/documents" element={<DocumentVault {...props} />} />
      <Route path="/search" element={<SearchScreen {...props} />} />
      <Route path="/kaboodles" element={<KaboodlesScreen />} />
      <Route path="/kaboodles/:id" element={<KaboodleDetail />} />
    </Routes>
  );
}
