// Runs after module federation has negotiated the shared singletons (see index.ts).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@kaboodle/kit/theme.css';
// The shell's stylesheets in cascade order: rules of equal specificity in a later one win.
import './shell.css';
import './app/user-menu.css';
import './auth/auth-dialog.css';
import './help/help-dialog.css';
import './loading/loading.css';
import './shell-small-screens.css';
import { App } from './app/app.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
