// Standalone mount of a federated remote for `rspack serve` (the product itself loads ./App through
// the shell): the same router and props the shell would give it, with no user signed in.
import { StrictMode } from 'react';
import type { ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import type { RemoteAppProps } from './remote-app.ts';

export function mountStandalone(App: ComponentType<RemoteAppProps>): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <App user={null} openHelp={() => undefined} />
      </BrowserRouter>
    </StrictMode>,
  );
}
