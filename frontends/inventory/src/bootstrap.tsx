// Standalone mount for `rspack serve` (the product itself loads ./App through the shell).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import '@kaboodle/kit/theme/theme.css';
import App from './app.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <App user={null} openHelp={() => undefined} />
    </BrowserRouter>
  </StrictMode>,
);
